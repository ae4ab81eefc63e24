"""Command line: `python -m bot.services.rebuild [--db URL]` recomputes every rating.

First it records the results of games that finished before history existed (a database from
an older release), then it rebuilds every server's ratings from the stored results.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.services.history import backfill
from bot.services.ratings import rebuild_all
from bot.settings import Settings
from bot.store import open_store


async def rebuild(url: str | Path) -> tuple[int, int]:
    """(older games recorded, games rated) after a full rebuild of the database `url` names."""
    store = await open_store(url)
    try:
        recorded = await backfill(store)
        async with store.transaction() as db:
            rated = await rebuild_all(db)
    finally:
        await store.close()
    return recorded, rated


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the arguments and rebuild."""
    parser = argparse.ArgumentParser(prog="python -m bot.services.rebuild")
    parser.add_argument(
        "--db",
        default=None,
        help="DATABASE_URL form: a SQLite path or postgres://… (default: settings)",
    )
    args = parser.parse_args(argv)
    recorded, rated = asyncio.run(rebuild(args.db or Settings().database_url))
    sys.stdout.write(f"Recorded {recorded} older games; rated {rated} games.\n")


if __name__ == "__main__":
    main()
