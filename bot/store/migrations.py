"""Numbered schema migrations for both backends (DESIGN.md §3).

SQLite tracks the number in PRAGMA user_version, PostgreSQL in the one-row table hangar_schema.
A statement is either portable text (on PostgreSQL INTEGER becomes BIGINT — Discord ids need 64
bits — REAL becomes DOUBLE PRECISION and the `INTEGER PRIMARY KEY` of a table becomes an identity
column) or a `Dialects(sqlite=…, postgres=…)` pair where the two must differ (triggers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import aiosqlite

if TYPE_CHECKING:
    from bot.store.postgres import PgStore


@dataclass(frozen=True)
class Dialects:
    """One schema change written separately for each backend."""

    sqlite: str
    postgres: str


Statement = str | Dialects

# Each migration is a list of statements run in one transaction together with the version bump.
# Never edit a released migration: append a new one.
MIGRATION_1: list[Statement] = [
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
    Dialects(
        sqlite="""
        CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END
        """,
        postgres="""
        CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'actions are append-only' USING ERRCODE = '23000';
        END $$;
        CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
            FOR EACH ROW EXECUTE FUNCTION actions_append_only();
        CREATE TRIGGER actions_no_truncate BEFORE TRUNCATE ON actions
            FOR EACH STATEMENT EXECUTE FUNCTION actions_append_only()
        """,
    ),
    Dialects(
        sqlite="""
        CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END
        """,
        postgres="""
        CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
            FOR EACH ROW EXECUTE FUNCTION actions_append_only()
        """,
    ),
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
MIGRATION_2: list[Statement] = [
    "CREATE INDEX seats_by_user ON seats (user_id)",
    "CREATE INDEX games_by_channel ON games (channel_id, pk)",
    "CREATE INDEX actions_undone ON actions (game_pk, undoes) WHERE undoes IS NOT NULL",
]

# The play-by-post clock (issue 11): table options per game, one clock row per seat (several
# active seats each get their own deadline), users' away/notify preferences, guild defaults and
# the heartbeat that measures downtime. `next_due` is the one indexed column the scheduler reads.
MIGRATION_3: list[Statement] = [
    """
    CREATE TABLE game_tables (
        game_pk     INTEGER NOT NULL PRIMARY KEY REFERENCES games (pk) ON DELETE CASCADE,
        turn_limit  TEXT    NOT NULL,
        limit_s     DOUBLE PRECISION NOT NULL,
        on_timeout  TEXT    NOT NULL CHECK (on_timeout IN ('remind', 'ai')),
        thread      INTEGER NOT NULL DEFAULT 0,
        reminders   INTEGER NOT NULL DEFAULT 1,
        paused      INTEGER NOT NULL DEFAULT 0
    )
    """,
    """
    CREATE TABLE seat_clocks (
        game_pk     INTEGER NOT NULL REFERENCES games (pk) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        active      INTEGER NOT NULL DEFAULT 0,
        turn_no     INTEGER NOT NULL DEFAULT 0,
        stage       INTEGER NOT NULL DEFAULT 3,
        limit_s     DOUBLE PRECISION NOT NULL DEFAULT 0,
        started_at  DOUBLE PRECISION,
        deadline_at DOUBLE PRECISION,
        remaining   DOUBLE PRECISION,
        next_due    DOUBLE PRECISION,
        timeouts    INTEGER NOT NULL DEFAULT 0,
        absent      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_pk, seat)
    )
    """,
    "CREATE INDEX seat_clocks_due ON seat_clocks (next_due)",
    """
    CREATE TABLE user_prefs (
        user_id    BIGINT  NOT NULL PRIMARY KEY,
        away_until DOUBLE PRECISION,
        notify     TEXT    NOT NULL DEFAULT 'channel' CHECK (notify IN ('channel', 'dm', 'both')),
        dm_closed  INTEGER NOT NULL DEFAULT 0
    )
    """,
    """
    CREATE TABLE guild_settings (
        guild_id   BIGINT  NOT NULL PRIMARY KEY,
        turn_limit TEXT    NOT NULL DEFAULT '72h',
        on_timeout TEXT    NOT NULL DEFAULT 'remind',
        reminders  INTEGER NOT NULL DEFAULT 1,
        threads    INTEGER NOT NULL DEFAULT 0
    )
    """,
    """
    CREATE TABLE heartbeat (
        id      INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
        beat_at DOUBLE PRECISION NOT NULL
    )
    """,
]


# History, stats and ratings (issue 13): finished games keep their rows with finished_at and the
# outcome as data; `results` has one row per participant (seats, AI levels, automa such as
# Gustave), denormalised (guild, game, time) so /stats and /game history are one indexed range;
# `ratings` holds each player's current OpenSkill rating per server and game.
MIGRATION_4: list[Statement] = [
    "ALTER TABLE games ADD COLUMN finished_at DOUBLE PRECISION",
    "ALTER TABLE games ADD COLUMN result TEXT",
    """
    CREATE TABLE results (
        game_pk       INTEGER          NOT NULL REFERENCES games (pk) ON DELETE CASCADE,
        entry         INTEGER          NOT NULL,
        guild_id      BIGINT           NOT NULL,
        game_id       TEXT             NOT NULL,
        finished_at   DOUBLE PRECISION NOT NULL,
        player        TEXT             NOT NULL,
        user_id       BIGINT,
        name          TEXT             NOT NULL,
        place         INTEGER          NOT NULL,
        score         INTEGER          NOT NULL,
        won           INTEGER          NOT NULL,
        turns         INTEGER          NOT NULL,
        think_seconds DOUBLE PRECISION NOT NULL,
        mu_before     DOUBLE PRECISION,
        sigma_before  DOUBLE PRECISION,
        mu_after      DOUBLE PRECISION,
        sigma_after   DOUBLE PRECISION,
        rated_n       INTEGER,
        PRIMARY KEY (game_pk, entry)
    )
    """,
    # Covering: /stats (totals and the rating series) reads this index only, never the table.
    """
    CREATE INDEX results_by_player ON results (guild_id, player, game_id, finished_at,
        place, score, won, turns, think_seconds, rated_n, mu_after, sigma_after)
    """,
    "CREATE INDEX results_by_game ON results (guild_id, game_id, finished_at, game_pk)",
    """
    CREATE TABLE ratings (
        guild_id BIGINT           NOT NULL,
        game_id  TEXT             NOT NULL,
        player   TEXT             NOT NULL,
        name     TEXT             NOT NULL,
        mu       DOUBLE PRECISION NOT NULL,
        sigma    DOUBLE PRECISION NOT NULL,
        ordinal  DOUBLE PRECISION NOT NULL,
        games    INTEGER          NOT NULL,
        wins     INTEGER          NOT NULL,
        PRIMARY KEY (guild_id, game_id, player)
    )
    """,
    "CREATE INDEX ratings_board ON ratings (guild_id, game_id, ordinal)",
    "CREATE INDEX games_history ON games (guild_id, status, finished_at)",
    # Existing data: abandoned games end when last touched; finished games get finished_at and
    # their results from their snapshots at start-up (bot.services.history.backfill needs the
    # engines, which SQL cannot run).
    "UPDATE games SET finished_at = updated_at WHERE status = 'abandoned'",
    # An admin may now delete a finished or abandoned game (privacy); the log of an open game
    # stays append-only.
    Dialects(
        sqlite="DROP TRIGGER actions_no_delete",
        postgres="DROP TRIGGER actions_no_delete ON actions",
    ),
    Dialects(
        sqlite="""
        CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'actions are append-only') WHERE EXISTS (
            SELECT 1 FROM games WHERE pk = OLD.game_pk AND status IN ('lobby', 'running')); END
        """,
        postgres="""
        CREATE FUNCTION actions_no_open_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM games WHERE pk = OLD.game_pk
                       AND status IN ('lobby', 'running')) THEN
                RAISE EXCEPTION 'actions are append-only' USING ERRCODE = '23000';
            END IF;
            RETURN OLD;
        END $$;
        CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
            FOR EACH ROW EXECUTE FUNCTION actions_no_open_delete()
        """,
    ),
]

# Small named values the bot keeps about itself, e.g. `commands-hash:<application id>` (the hash of
# the slash commands last synced for that Discord application).
MIGRATION_5: list[Statement] = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
]


# The outbox: "post this game's board" written in the move's own transaction, cleared (together
# with the delivered message ids) once Discord accepted it, so a crash in between loses no turn
# announcement. One row per game: a newer move supersedes an undelivered older one.
MIGRATION_6: list[Statement] = [
    """
    CREATE TABLE outbox (
        game_pk    INTEGER          NOT NULL PRIMARY KEY REFERENCES games (pk) ON DELETE CASCADE,
        version    INTEGER          NOT NULL,
        new_board  INTEGER          NOT NULL,
        ping       TEXT             NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )
    """,
]

# AI seats: a seat played by the bot has user_id NULL and its level here (easy/normal/hard).
MIGRATION_7: list[Statement] = [
    "ALTER TABLE seats ADD COLUMN ai_level TEXT",
]

# /mygames without decoding (issue 14): what the listing shows of a running game — who must act
# and each line it prints — kept by the bot in the transaction of each state change. NULL until
# then (existing games, seat replacements): the next /mygames decodes that one game and stores it.
# The lookup itself starts from seats_by_user (migration 2) and reads each game row by key.
MIGRATION_8: list[Statement] = [
    "ALTER TABLE games ADD COLUMN listing TEXT",
]


# Seat replacements (issue 28): who held a seat before an /admin replace, so a finished game
# credits each person with the part they played. `results.seat` is the seat an entry played
# (NULL for an automa); `results.former` is 1 for a former holder's entry: it counts in their
# /stats and shows in /game history, but ratings only move for the seat's final holder.
MIGRATION_9: list[Statement] = [
    """
    CREATE TABLE seat_holders (
        game_pk     INTEGER          NOT NULL REFERENCES games (pk) ON DELETE CASCADE,
        seat        INTEGER          NOT NULL,
        user_id     BIGINT           NOT NULL,
        name        TEXT             NOT NULL,
        replaced_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_pk, seat, user_id)
    )
    """,
    "ALTER TABLE results ADD COLUMN seat INTEGER",
    "ALTER TABLE results ADD COLUMN former INTEGER NOT NULL DEFAULT 0",
]


# Table flags (issue 31): a practice table (/game learn) never counts for history, stats or
# ratings; `hints` lets every seat of a normal table ask for the hard AI's move. A game without a
# row has neither.
MIGRATION_10: list[Statement] = [
    """
    CREATE TABLE game_flags (
        game_pk  INTEGER NOT NULL PRIMARY KEY REFERENCES games (pk) ON DELETE CASCADE,
        practice INTEGER NOT NULL DEFAULT 0,
        hints    INTEGER NOT NULL DEFAULT 0
    )
    """,
]


# A tidy channel (issue 28.7): the one line a game's previous board shrinks to once the board
# queued here is posted — the turn that just ended, told in the move's own transaction, so a
# restart between posting and tidying still tidies with the right words. NULL: nothing to tell.
MIGRATION_11: list[Statement] = [
    "ALTER TABLE outbox ADD COLUMN summary TEXT",
]


# The language of a server's public messages (issue 30): '' follows the server's Discord locale.
MIGRATION_12: list[Statement] = [
    "ALTER TABLE guild_settings ADD COLUMN language TEXT NOT NULL DEFAULT ''",
]


# A user's Discord language as last seen (issue 30): DMs and reminders have no interaction to
# ask, and a restart must not turn them English. '' = never seen.
MIGRATION_13: list[Statement] = [
    "ALTER TABLE user_prefs ADD COLUMN locale TEXT NOT NULL DEFAULT ''",
]


# Positions are versions (3 clock, 4 history, 5 meta, 6 outbox, 7 AI seats, 8 listing,
# 9 seat holders, 10 table flags, 11 board summaries, 12 server language, 13 user language):
# append only.
MIGRATIONS: tuple[list[Statement], ...] = (
    MIGRATION_1,
    MIGRATION_2,
    MIGRATION_3,
    MIGRATION_4,
    MIGRATION_5,
    MIGRATION_6,
    MIGRATION_7,
    MIGRATION_8,
    MIGRATION_9,
    MIGRATION_10,
    MIGRATION_11,
    MIGRATION_12,
    MIGRATION_13,
)
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


async def _apply(db: aiosqlite.Connection, number: int, statements: list[Statement]) -> None:
    """Run one migration atomically (not executescript: that would commit halfway)."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        if await schema_version(db) >= number:  # another process got there first
            await db.rollback()
            return
        for statement in statements:
            await db.execute(sqlite_sql(statement))
        await db.execute(f"PRAGMA user_version = {number}")
    except BaseException:
        await db.rollback()
        raise
    await db.commit()


def sqlite_sql(statement: Statement) -> str:
    """The statement as SQLite runs it."""
    return statement.sqlite if isinstance(statement, Dialects) else statement


_PG_TYPES = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\b", re.I),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b", re.I), "BIGINT"),
    (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"),
)


def postgres_sql(statement: Statement) -> str:
    """The statement as PostgreSQL runs it (portable text gets 64-bit integers and doubles)."""
    if isinstance(statement, Dialects):
        return statement.postgres
    for pattern, replacement in _PG_TYPES:
        statement = pattern.sub(replacement, statement)
    return statement


_PG_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS hangar_schema (version BIGINT NOT NULL)"


async def postgres_schema_version(store: PgStore) -> int:
    """The migration number a PostgreSQL schema is at (0 = empty)."""
    async with store.pool.acquire() as conn:
        exists = await conn.fetchval("SELECT to_regclass('hangar_schema') IS NOT NULL")
        if not exists:
            return 0
        return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM hangar_schema"))


async def migrate_postgres(store: PgStore, target: int = LATEST) -> int:
    """Apply every pending migration; an advisory lock lets one process at a time do it."""
    async with store.exclusive("migrate"), store.pool.acquire() as conn:
        await conn.execute(_PG_VERSION_TABLE)
        current = await postgres_schema_version(store)
        if current > LATEST:
            raise RuntimeError(f"database schema {current} is newer than this code ({LATEST})")
        for number in range(current + 1, target + 1):
            async with conn.transaction():
                for statement in MIGRATIONS[number - 1]:
                    await conn.execute(postgres_sql(statement))
                await conn.execute("DELETE FROM hangar_schema")
                await conn.execute("INSERT INTO hangar_schema (version) VALUES ($1)", number)
    return await postgres_schema_version(store)
