"""A game's rows exactly as stored, for exporting a game that no longer decodes."""

from __future__ import annotations

from typing import Any

from bot.store.cursor import Db


async def _rows(db: Db, sql: str, game_pk: int) -> list[dict[str, Any]]:
    """Every row of a query as a column → value dict."""
    async with db.execute(sql, (game_pk,)) as cursor:
        rows = await cursor.fetchall()
    # SQLite rows and asyncpg records both know their column names.
    return [dict(zip(row.keys(), tuple(row), strict=True)) for row in rows]


async def raw_rows(db: Db, game_pk: int) -> dict[str, Any]:
    """The game's row, seats, log and events, undecoded (JSON columns stay text)."""
    return {
        "format": "hangar-raw/1",
        "game": (await _rows(db, "SELECT * FROM games WHERE pk = ?", game_pk))[0],
        "seats": await _rows(db, "SELECT * FROM seats WHERE game_pk = ? ORDER BY seat", game_pk),
        "actions": await _rows(db, "SELECT * FROM actions WHERE game_pk = ? ORDER BY seq", game_pk),
        "events": await _rows(
            db, "SELECT * FROM events WHERE game_pk = ? ORDER BY action_seq, idx", game_pk
        ),
    }
