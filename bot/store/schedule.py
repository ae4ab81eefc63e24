"""Claiming scheduled work (deadlines, reminders) so that exactly one process does each item.

For the clock: keep a due time column (REAL, epoch seconds; NULL = nothing scheduled) on your
table, then in a loop

    for pk in await claim_due(store, "games", key="pk", due="deadline_at", now=time.time()):
        ...handle it, and in the same transaction as its effect set deadline_at to the next due
           time, or NULL when done...

`claim_due` takes the due rows in one short transaction — `FOR UPDATE SKIP LOCKED` on
PostgreSQL, so processes claiming at the same moment get disjoint rows; SQLite's BEGIN IMMEDIATE
already admits one writer — and pushes their due time `lease` seconds ahead. Another process
therefore skips them while this one works, and if this one dies the item is due again once the
lease has passed (at-least-once: make handling idempotent, e.g. with the game's version check).
"""

from __future__ import annotations

import re
from typing import Any

from bot.store.cursor import Store

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DEFAULT_LEASE_S = 60.0


def _name(value: str) -> str:
    """A table or column name, checked because it is pasted into SQL."""
    if not _NAME.match(value):
        raise ValueError(f"not a plain SQL name: {value!r}")
    return value


async def claim_due(
    store: Store,
    table: str,
    *,
    key: str,
    due: str,
    now: float,
    limit: int = 20,
    lease: float = DEFAULT_LEASE_S,
) -> list[Any]:
    """Keys of up to `limit` rows due by `now`, each leased to this caller for `lease` seconds."""
    table, key, due = _name(table), _name(key), _name(due)
    lock = " FOR UPDATE SKIP LOCKED" if store.dialect == "postgres" else ""
    select = (
        f"SELECT {key} FROM {table} WHERE {due} IS NOT NULL AND {due} <= ? "
        f"ORDER BY {due}, {key} LIMIT ?{lock}"
    )
    async with store.transaction() as db:
        async with db.execute(select, (now, limit)) as cursor:
            keys = [row[0] for row in await cursor.fetchall()]
        await db.executemany(
            f"UPDATE {table} SET {due} = ? WHERE {key} = ?", [(now + lease, k) for k in keys]
        )
    return keys
