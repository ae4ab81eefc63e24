"""The `meta` table: small named values the bot keeps about itself (same SQL on every backend)."""

from __future__ import annotations

from bot.store.cursor import Db


def commands_hash_key(application_id: int) -> str:
    """The meta key of the command tree hash last synced for one Discord application."""
    return f"commands-hash:{application_id}"


async def get_meta(db: Db, key: str) -> str | None:
    """The value stored under `key`, if any."""
    async with db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
        row = await cursor.fetchone()
    return str(row[0]) if row else None


async def set_meta(db: Db, key: str, value: str) -> None:
    """Store `value` under `key`, replacing any older value."""
    await db.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )
