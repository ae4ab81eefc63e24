"""Numbered schema migrations, tracked with PRAGMA user_version (DESIGN.md §3)."""

from __future__ import annotations

import aiosqlite

# Each migration is a list of statements run in one transaction together with the version bump.
# Never edit a released migration: append a new one.
MIGRATION_1 = [
    """
    CREATE TABLE games (
        pk               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        thread_id        INTEGER,
        game_id          TEXT    NOT NULL,
        options          TEXT    NOT NULL,
        seed             INTEGER NOT NULL,
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        version          INTEGER NOT NULL DEFAULT 0,
        snapshot         TEXT,
        creator_id       INTEGER NOT NULL,
        board_message_id INTEGER,
        live_message_id  INTEGER,
        deadline_at      REAL,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    )
    """,
    # One lobby or running game per channel (threads are channels too).
    """
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'running')
    """,
    """
    CREATE TABLE seats (
        game_pk INTEGER NOT NULL REFERENCES games (pk) ON DELETE CASCADE,
        seat    INTEGER NOT NULL CHECK (seat >= 0),
        user_id INTEGER,
        name    TEXT    NOT NULL,
        PRIMARY KEY (game_pk, seat),
        UNIQUE (game_pk, user_id)
    )
    """,
    # The log: kind 'act' is a move; kind 'undo' takes back the move whose seq it names.
    """
    CREATE TABLE actions (
        game_pk    INTEGER NOT NULL REFERENCES games (pk),
        seq        INTEGER NOT NULL CHECK (seq >= 1),
        kind       TEXT    NOT NULL CHECK (kind IN ('act', 'undo')),
        seat       INTEGER,
        action     TEXT,
        user_id    INTEGER,
        undoes     INTEGER,
        created_at REAL    NOT NULL,
        PRIMARY KEY (game_pk, seq),
        CHECK ((kind = 'act' AND action IS NOT NULL AND undoes IS NULL)
            OR (kind = 'undo' AND action IS NULL AND undoes IS NOT NULL))
    )
    """,
    """
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
    BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END
    """,
    """
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
    BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END
    """,
    """
    CREATE TABLE events (
        game_pk    INTEGER NOT NULL,
        action_seq INTEGER NOT NULL,
        idx        INTEGER NOT NULL,
        event      TEXT    NOT NULL,
        PRIMARY KEY (game_pk, action_seq, idx),
        FOREIGN KEY (game_pk, action_seq) REFERENCES actions (game_pk, seq)
    )
    """,
]

# Lookups that grow with use: /mygames by player, a channel's latest game (finished ones too),
# and "was this move undone?" when reading the log (otherwise quadratic in its length).
MIGRATION_2 = [
    "CREATE INDEX seats_by_user ON seats (user_id)",
    "CREATE INDEX games_by_channel ON games (channel_id, pk)",
    "CREATE INDEX actions_undone ON actions (game_pk, undoes) WHERE undoes IS NOT NULL",
]

# AI seats: a seat played by the bot has user_id NULL and its level here (easy/normal/hard).
MIGRATION_6 = [
    "ALTER TABLE seats ADD COLUMN ai_level TEXT",
]

MIGRATIONS: tuple[list[str], ...] = (MIGRATION_1, MIGRATION_2, MIGRATION_6)
LATEST = len(MIGRATIONS)


async def schema_version(db: aiosqlite.Connection) -> int:
    """The migration number the database is at (0 = empty)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, target: int = LATEST) -> int:
    """Apply every pending migration up to `target`, each in its own transaction."""
    current = await schema_version(db)
    if current > LATEST:
        raise RuntimeError(f"database schema {current} is newer than this code ({LATEST})")
    for number in range(current + 1, target + 1):
        await _apply(db, number, MIGRATIONS[number - 1])
    return await schema_version(db)


async def _apply(db: aiosqlite.Connection, number: int, statements: list[str]) -> None:
    """Run one migration atomically (not executescript: that would commit halfway)."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        if await schema_version(db) >= number:  # another process got there first
            await db.rollback()
            return
        for statement in statements:
            await db.execute(statement)
        await db.execute(f"PRAGMA user_version = {number}")
    except BaseException:
        await db.rollback()
        raise
    await db.commit()
