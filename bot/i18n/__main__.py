"""`python -m bot.i18n extract | check | update | pseudo` — the catalogue's tooling (issue 30).

An entry point: it reads the registered slash commands (bot.edge) for their texts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.i18n import shipped, tools


def templates() -> dict[str, Catalog]:
    """The English templates, freshly extracted, one per catalogue file."""
    from bot.edge.app import registered_command_strings

    return tools.build_templates(registered_command_strings())


def print_report(report: tools.Report) -> None:
    """One language's findings, grouped."""
    state = "complete" if report.complete else "INCOMPLETE"
    print(f"{report.language}: {state}")
    for title, items in (
        ("missing", report.missing),
        ("unusable", report.broken),
        ("fuzzy (check the translation)", report.fuzzy),
        ("stale (no longer in the English)", report.stale),
    ):
        if items:
            print(f"  {len(items)} {title}:")
            for item in items:
                print(f"    {item}")


def main(argv: list[str] | None = None) -> int:
    """Run one tool; 1 when `check` finds a shipped language lacking a key."""
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__)
    tasks = parser.add_subparsers(dest="task", required=True)
    tasks.add_parser("extract", help="re-extract the English templates (locales/*.pot)")
    tasks.add_parser("check", help="per language: missing, fuzzy, stale; fails on a missing key")
    tasks.add_parser("update", help="merge the template into every language's .po")
    fake = tasks.add_parser("pseudo", help="a pseudo-localised catalogue (~40 %% longer)")
    fake.add_argument("--out", type=Path, help="write here (default: standard output)")
    args = parser.parse_args(argv)
    english = templates()
    if args.task == "extract":
        for domain, template in english.items():
            tools.write_catalogue(template, tools.template_path(domain))
            print(f"{tools.template_path(domain)}: {len(template)} messages")
    elif args.task == "update":
        for language in shipped():
            tools.update(english, language)
            print(f"{language}: updated")
    elif args.task == "pseudo":
        catalogue = tools.pseudo_catalogue(english)
        if args.out is None:
            sys.stdout.flush()
            write_po(sys.stdout.buffer, catalogue, width=100)
        else:
            tools.write_catalogue(catalogue, args.out)
    else:
        reports = tools.check_all(english)
        for report in reports:
            print_report(report)
        return 0 if all(r.complete for r in reports) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
