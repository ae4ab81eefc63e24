"""SQL of the announcement outbox (migrations 6 and 11): boards still to post after a committed
change, each with the line the board before it shrinks to."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.store.cursor import Db


@dataclass(frozen=True)
class Announcement:
    """A board to post for a game at a version: a new message or an edit, and whom to ping."""

    game_pk: int
    version: int
    new_board: bool
    ping: tuple[int, ...]
    summary: str = ""  # the line the previous board shrinks to once this one is posted


async def fetch(db: Db, game_pk: int) -> Announcement | None:
    """The game's undelivered announcement, if any."""
    sql = "SELECT game_pk, version, new_board, ping, summary FROM outbox WHERE game_pk = ?"
    async with db.execute(sql, (game_pk,)) as cursor:
        row = await cursor.fetchone()
    if row is None:
        return None
    ping = tuple(int(seat) for seat in json.loads(row["ping"]))
    summary = row["summary"] or ""
    return Announcement(row["game_pk"], row["version"], bool(row["new_board"]), ping, summary)


async def put(db: Db, item: Announcement, now: float) -> None:
    """Insert or replace the game's announcement (a newer change supersedes an older one)."""
    await db.execute(
        "INSERT INTO outbox (game_pk, version, new_board, ping, summary, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_pk) DO UPDATE SET version = excluded.version, "
        "new_board = excluded.new_board, ping = excluded.ping, summary = excluded.summary, "
        "created_at = excluded.created_at",
        (
            item.game_pk,
            item.version,
            int(item.new_board),
            json.dumps(list(item.ping)),
            item.summary or None,
            now,
        ),
    )


async def pending(db: Db) -> list[int]:
    """Games with an undelivered announcement, oldest first."""
    async with db.execute("SELECT game_pk FROM outbox ORDER BY created_at, game_pk") as cursor:
        rows = await cursor.fetchall()
    return [int(row[0]) for row in rows]


async def clear(db: Db, game_pk: int, version: int) -> bool:
    """Remove the announcement of exactly this version (a newer one stays); True if removed."""
    cursor = await db.execute(
        "DELETE FROM outbox WHERE game_pk = ? AND version = ?", (game_pk, version)
    )
    return cursor.rowcount == 1


async def drop(db: Db, game_pk: int) -> None:
    """Forget the game's announcement whatever its version (the game was closed)."""
    await db.execute("DELETE FROM outbox WHERE game_pk = ?", (game_pk,))


async def set_messages(db: Db, game_pk: int, board_id: int, live_id: int | None) -> None:
    """Remember the latest board message and the live one (None once the game is over)."""
    await db.execute(
        "UPDATE games SET board_message_id = ?, live_message_id = ? WHERE pk = ?",
        (board_id, live_id, game_pk),
    )
