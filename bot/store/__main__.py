"""`python -m bot.store migrate [URL]` and `python -m bot.store copy FROM_URL TO_URL`."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys

import asyncpg

from bot.settings import Settings


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    if "://" not in url or "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"


async def _migrate(url: str) -> int:
    """Bring the database's schema up to date without starting the bot."""
    from bot.store.connection import open_store
    from bot.store.migrations import LATEST

    store = await open_store(url)
    await store.close()
    print(f"{_redacted(url)} is at schema {LATEST}.")
    return 0


async def _copy(source: str, target: str) -> int:
    """Copy every game, log, seat and setting, then replay each game on the target."""
    # The command line is an entry point like bot/__main__.py: it may hand the store the rules'
    # replay check, which the store itself does not import.
    from bot.services.replay import replay_problem
    from bot.store.copy import copy_database

    report = await copy_database(source, target, replay_problem)
    print(report.summary())
    if not report.ok:
        print("The copy is NOT complete: keep using the old database.", file=sys.stderr)
        return 1
    print(f"Done: point DATABASE_URL at {_redacted(target)} and restart the bot.")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command."""
    parser = argparse.ArgumentParser(prog="python -m bot.store", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    migrate = commands.add_parser("migrate", help="run pending migrations (default: DATABASE_URL)")
    migrate.add_argument("url", nargs="?", help="sqlite:///path, a path or postgres://…")
    copy = commands.add_parser("copy", help="copy every game to a database without games")
    copy.add_argument("source", help="the database to copy from")
    copy.add_argument("target", help="the database to copy to (must hold no games)")
    args = parser.parse_args(argv)
    try:
        if args.command == "migrate":
            return asyncio.run(_migrate(args.url or Settings().database_url))
        return asyncio.run(_copy(args.source, args.target))
    # sqlite3.Error covers the PostgreSQL adapter's constraint errors too (a subclass): the
    # operator reads one line, never a traceback (a failed copy rolls its one transaction back).
    except (ValueError, OSError, RuntimeError, sqlite3.Error, asyncpg.PostgresError) as exc:
        print(f"error: {_first_line(exc)}", file=sys.stderr)
        return 1


def _first_line(exc: BaseException) -> str:
    """The exception's message without the details drivers put on further lines."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
