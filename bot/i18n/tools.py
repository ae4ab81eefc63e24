"""The catalogue's tooling: the English template, per-language completeness, the pseudo-locale.

Used by `python -m bot.i18n` and by the tests; Babel is imported here only (never by the bot).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from bot.i18n import (
    DOMAIN,
    ENGLISH,
    LOCALES,
    NAME_CONTEXTS,
    domain_of,
    domains,
    placeholders,
    po_path,
    pseudo,
    pseudo_name,
    shipped,
)

ROOT = LOCALES.parent
MAPPING = ROOT / "babel.cfg"
SOURCES = ("bot", "rules")
# translate(locale, msgid), ptranslate(locale, context, msgid), ntranslate(locale, one, many, n),
# and said(msgid, **args): the refusals rules engines, services and the edge raise (issue 30).
KEYWORDS = {"translate": (2,), "ptranslate": ((2, "c"), 3), "ntranslate": (2, 3), "said": (1,)}
MAX_NAME, MAX_DESCRIPTION = 32, 100

Entry = tuple[str | None, str | tuple[str, str]]  # (context, msgid or (singular, plural))


def source_strings() -> Iterable[tuple[str | None, str | tuple[str, ...], str]]:
    """(context, msgid, where) of every marked string in bot/ and rules/."""
    with MAPPING.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
    for folder in SOURCES:
        found = extract_from_dir(
            ROOT / folder, method_map, options_map, keywords=KEYWORDS, comment_tags=("i18n:",)
        )
        for filename, line, message, _comments, context in found:
            yield context, message, f"{folder}/{filename}:{line}"


# Card data players read (names, texts, short names), by data file → its game's catalogue file.
ASSETS = ROOT / "assets" / "cards"
ASSET_DOMAINS = {
    "takeoff.json": "takeoff",
    "flight.json": "flight",
    "first-in-flight.json": "first_in_flight",
}
ASSET_KEYS = frozenset({"name", "text", "short"})


def asset_strings() -> Iterable[tuple[str, str, str]]:
    """(domain, English, where) of every card name and text in the game data files."""
    for file, domain in ASSET_DOMAINS.items():
        path = ASSETS / file
        if not path.is_file():
            continue
        found: list[str] = []
        _walk_assets(json.loads(path.read_text(encoding="utf-8")), found)
        for text in dict.fromkeys(found):
            yield domain, text, f"assets/cards/{file}"


def _walk_assets(value: object, found: list[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ASSET_KEYS and isinstance(item, str) and item.strip():
                found.append(item)
            else:
                _walk_assets(item, found)
    elif isinstance(value, list):
        for item in value:
            _walk_assets(item, found)


def build_templates(commands: Iterable[tuple[str | None, str]]) -> dict[str, Catalog]:
    """The English templates, one per catalogue file: the bot's own holds the slash commands'
    texts; every marked source string goes to its folder's file (`bot.i18n.DOMAINS`)."""
    templates = {
        d: Catalog(domain=d, project="Hangar", locale=ENGLISH, fuzzy=False) for d in domains()
    }
    for context, msgid in commands:
        if msgid and msgid != "…":  # discord.py's stand-in for an undescribed option
            templates[DOMAIN].add(msgid, context=context, auto_comments=["slash command"])
    # One message id lives in one file: the bot's own first, then each game's, the pictures'
    # last — a word the pictures share with a game (Fog, Glide) is translated once, by the game.
    found: list[tuple[str, str | None, str | tuple[str, ...], str, int, list[str]]] = [
        (domain_of(where.rsplit(":", 1)[0]), context, message, *_place(where), [])
        for context, message, where in source_strings()
    ]
    found += [(d, None, text, where, 0, ["card data"]) for d, text, where in asset_strings()]
    rank = {domain: index for index, domain in enumerate(domains())}
    for domain, context, message, path, line, comments in sorted(found, key=lambda f: rank[f[0]]):
        key = message if isinstance(message, str) else message[0]
        owner = next((d for d, t in templates.items() if t.get(key, context) is not None), domain)
        if owner == domain:
            templates[domain].add(
                message, context=context, locations=[(path, line)], auto_comments=comments
            )
    return templates


def _place(where: str) -> tuple[str, int]:
    """("bot/x.py", 12) from "bot/x.py:12"."""
    path, line = where.rsplit(":", 1)
    return path, int(line)


def template_path(domain: str) -> Path:
    """Where a catalogue file's English template lives."""
    return LOCALES / f"{domain}.pot"


def write_catalogue(catalogue: Catalog, path: Path) -> None:
    """Write a `.po`/`.pot` file the way translators' tools expect."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, omit_header=False, sort_output=False)
    path.write_bytes(buffer.getvalue())


def read_catalogue(language: str, domain: str = DOMAIN) -> Catalog:
    """One file of a language's catalogue as Babel reads it (empty when not started)."""
    path = po_path(language, domain)
    if not path.is_file():
        return Catalog(domain=domain, project="Hangar", locale=language, fuzzy=False)
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=domain)


@dataclass
class Report:
    """What one language lacks or has wrong against the English template."""

    language: str
    missing: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every key translated and usable (fuzzy and stale entries are only reported)."""
        return not self.missing and not self.broken


def _singular(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _label(message: Message) -> str:
    text = _singular(message)
    return f"[{message.context}] {text}" if message.context else text


def _forms(message: Message) -> list[str]:
    if isinstance(message.string, str):
        return [message.string] if message.string else []
    return [form for form in message.string or () if form]


def problems(message: Message, translated: Message) -> list[str]:
    """Why a translation cannot be used: a placeholder lost or invented, a Discord rule broken."""
    out = []
    wanted = placeholders(_singular(message))
    for form in _forms(translated):
        if placeholders(form) - wanted - {"count"} or (
            isinstance(message.id, str) and placeholders(form) != wanted
        ):
            out.append(f"placeholders {sorted(placeholders(form))} ≠ {sorted(wanted)}: {form!r}")
        if message.context in NAME_CONTEXTS and not valid_command_name(form):
            out.append(f"not a valid command name (lowercase, ≤{MAX_NAME}, no spaces): {form!r}")
        if "slash command" in message.auto_comments and len(form) > MAX_DESCRIPTION:
            out.append(f"longer than Discord's {MAX_DESCRIPTION} characters: {form!r}")
    return out


def valid_command_name(text: str) -> bool:
    """Discord's `^[-_\\p{L}\\p{N}]{1,32}$`, lowercase."""
    return (
        1 <= len(text) <= MAX_NAME
        and all(c.isalnum() or c in "-_" for c in text)
        and text == text.lower()
    )


def check(templates: dict[str, Catalog], language: str) -> Report:
    """Compare every file of one language's catalogue with its English template."""
    report = Report(language)
    for domain, template in templates.items():
        _check_file(report, template, read_catalogue(language, domain))
    return report


def _check_file(report: Report, template: Catalog, catalogue: Catalog) -> None:
    """One catalogue file against its template, into `report`."""
    for message in template:
        if not message.id:
            continue
        translated = catalogue.get(message.id, message.context)
        if translated is None or len(_forms(translated)) == 0:
            report.missing.append(_label(message))
            continue
        if translated.fuzzy:
            report.fuzzy.append(_label(message))
        report.broken += [f"{_label(message)}: {why}" for why in problems(message, translated)]
    known = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    for entry in catalogue:
        if entry.id and (entry.context, _singular(entry)) not in known:
            report.stale.append(_label(entry))
    report.stale += [_label(m) for m in catalogue.obsolete.values()]


def check_all(templates: dict[str, Catalog]) -> list[Report]:
    """Every shipped language (every folder under locales/) against the templates."""
    return [check(templates, language) for language in shipped()]


def pseudo_catalogue(templates: dict[str, Catalog]) -> Catalog:
    """Every template's messages pseudo-localised, in one catalogue (names stay valid names)."""
    out = Catalog(domain=DOMAIN, project="Hangar", locale=ENGLISH, fuzzy=False)
    for message in (m for template in templates.values() for m in template):
        if not message.id:
            continue
        names = message.context in NAME_CONTEXTS
        limit = MAX_DESCRIPTION if "slash command" in message.auto_comments else None
        if isinstance(message.id, str):
            text = pseudo_name(message.id) if names else pseudo(message.id, limit)
            out.add(message.id, text, context=message.context, auto_comments=message.auto_comments)
        else:
            forms = tuple(pseudo(form, limit) for form in message.id)
            out.add(message.id, forms, context=message.context)
    return out


def update(templates: dict[str, Catalog], language: str) -> None:
    """Merge each template into a language's `.po` files: new keys empty, changed ones fuzzy.

    A message that moved from one file to another keeps its translation (and leaves no stale
    copy behind); one the English no longer says stays as obsolete (`#~`) for `check` to report.
    """
    known = {
        (m.context, _singular(m)): m.string
        for domain in templates
        for m in read_catalogue(language, domain)
        if m.id and _forms(m) and not m.fuzzy
    }
    everywhere = {(m.context, _singular(m)) for t in templates.values() for m in t if m.id}
    for domain, template in templates.items():
        catalogue = read_catalogue(language, domain)
        catalogue.update(template, no_fuzzy_matching=False)
        for message in catalogue:
            moved = known.get((message.context, _singular(message))) if message.id else None
            if moved and (not _forms(message) or message.fuzzy):
                message.string = moved
                message.flags.discard("fuzzy")
        for key in [
            k for k, m in catalogue.obsolete.items() if (m.context, _singular(m)) in everywhere
        ]:
            del catalogue.obsolete[key]
        write_catalogue(catalogue, po_path(language, domain))
