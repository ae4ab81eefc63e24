"""SQL of the play-by-post clock: table options, seat clocks, prefs, guild settings, heartbeat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.store.cursor import Db

# Stages of a running seat clock: what fires next at `next_due`.
HALF, TENTH, DEADLINE, DONE = 0, 1, 2, 3
# Fraction of the limit still left when each stage is due.
STAGE_LEFT = {HALF: 0.5, TENTH: 0.1, DEADLINE: 0.0}

_CLOCK_COLUMNS = (
    "game_pk, seat, active, turn_no, stage, limit_s, started_at, deadline_at, remaining, "
    "next_due, timeouts, absent"
)


@dataclass(frozen=True)
class TableRow:
    """A game's table options (owned by the bot, not the engine)."""

    game_pk: int
    turn_limit: str
    limit_s: float
    on_timeout: str
    thread: bool
    reminders: bool
    paused: bool


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock: running (deadline set), paused (remaining set) or idle."""

    game_pk: int
    seat: int
    active: bool
    turn_no: int
    stage: int
    limit_s: float
    started_at: float | None
    deadline_at: float | None
    remaining: float | None
    next_due: float | None
    timeouts: int
    absent: bool

    @property
    def paused(self) -> bool:
        """True while the clock is stopped (away or an admin pause) with time left."""
        return self.active and self.deadline_at is None and self.remaining is not None


@dataclass(frozen=True)
class UserPrefs:
    """Where a user wants to be told, whether DMs failed, and an away period."""

    user_id: int
    away_until: float | None = None
    notify: str = "channel"
    dm_closed: bool = False
    locale: str = ""  # the user's Discord locale as last seen ('' = never seen)


@dataclass(frozen=True)
class GuildSettings:
    """A server's defaults for new games."""

    guild_id: int
    turn_limit: str = "72h"
    on_timeout: str = "remind"
    reminders: bool = True
    threads: bool = False
    language: str = ""  # of public messages; '' follows the server's Discord locale


def due_at(stage: int, deadline: float, limit_s: float) -> float | None:
    """When a stage fires: half the limit left, a tenth left, or the deadline itself."""
    if stage not in STAGE_LEFT:
        return None
    return deadline - limit_s * STAGE_LEFT[stage]


def _clock(row: aiosqlite.Row) -> SeatClock:
    """A SeatClock from a row."""
    return SeatClock(
        game_pk=row["game_pk"],
        seat=row["seat"],
        active=bool(row["active"]),
        turn_no=row["turn_no"],
        stage=row["stage"],
        limit_s=row["limit_s"],
        started_at=row["started_at"],
        deadline_at=row["deadline_at"],
        remaining=row["remaining"],
        next_due=row["next_due"],
        timeouts=row["timeouts"],
        absent=bool(row["absent"]),
    )


async def fetch_table(db: Db, game_pk: int) -> TableRow | None:
    """A game's table options, if stored."""
    sql = (
        "SELECT game_pk, turn_limit, limit_s, on_timeout, thread, reminders, paused "
        "FROM game_tables WHERE game_pk = ?"
    )
    async with db.execute(sql, (game_pk,)) as cursor:
        row = await cursor.fetchone()
    if row is None:
        return None
    return TableRow(
        row["game_pk"],
        row["turn_limit"],
        row["limit_s"],
        row["on_timeout"],
        bool(row["thread"]),
        bool(row["reminders"]),
        bool(row["paused"]),
    )


async def put_table(db: Db, table: TableRow) -> None:
    """Insert or replace a game's table options."""
    await db.execute(
        "INSERT INTO game_tables (game_pk, turn_limit, limit_s, on_timeout, thread, reminders, "
        "paused) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_pk) DO UPDATE SET "
        "turn_limit = excluded.turn_limit, limit_s = excluded.limit_s, "
        "on_timeout = excluded.on_timeout, thread = excluded.thread, "
        "reminders = excluded.reminders, paused = excluded.paused",
        (
            table.game_pk,
            table.turn_limit,
            table.limit_s,
            table.on_timeout,
            int(table.thread),
            int(table.reminders),
            int(table.paused),
        ),
    )


async def fetch_clocks(db: Db, game_pk: int) -> dict[int, SeatClock]:
    """Every seat clock of a game, by seat."""
    sql = f"SELECT {_CLOCK_COLUMNS} FROM seat_clocks WHERE game_pk = ?"
    async with db.execute(sql, (game_pk,)) as cursor:
        rows = await cursor.fetchall()
    return {row["seat"]: _clock(row) for row in rows}


async def fetch_clock(db: Db, game_pk: int, seat: int) -> SeatClock | None:
    """One seat's clock."""
    sql = f"SELECT {_CLOCK_COLUMNS} FROM seat_clocks WHERE game_pk = ? AND seat = ?"
    async with db.execute(sql, (game_pk, seat)) as cursor:
        row = await cursor.fetchone()
    return _clock(row) if row else None


async def put_clock(db: Db, c: SeatClock) -> None:
    """Write a seat clock whole (the caller holds the game's write transaction)."""
    await db.execute(
        f"INSERT INTO seat_clocks ({_CLOCK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game_pk, seat) DO UPDATE SET active = excluded.active, "
        "turn_no = excluded.turn_no, stage = excluded.stage, limit_s = excluded.limit_s, "
        "started_at = excluded.started_at, deadline_at = excluded.deadline_at, "
        "remaining = excluded.remaining, next_due = excluded.next_due, "
        "timeouts = excluded.timeouts, absent = excluded.absent",
        (
            c.game_pk,
            c.seat,
            int(c.active),
            c.turn_no,
            c.stage,
            c.limit_s,
            c.started_at,
            c.deadline_at,
            c.remaining,
            c.next_due,
            c.timeouts,
            int(c.absent),
        ),
    )


async def claim(db: Db, c: SeatClock, new: SeatClock) -> bool:
    """Move a clock on from exactly the stage and turn we read: False if someone else did first.

    A conditional UPDATE works the same on SQLite and PostgreSQL; with several bot processes
    only one of them sees rowcount 1 for a given (turn, stage).
    """
    cursor = await db.execute(
        "UPDATE seat_clocks SET stage = ?, next_due = ?, deadline_at = ?, remaining = ?, "
        "timeouts = ?, absent = ?, turn_no = ?, started_at = ? "
        "WHERE game_pk = ? AND seat = ? AND turn_no = ? AND stage = ? AND active = 1",
        (
            new.stage,
            new.next_due,
            new.deadline_at,
            new.remaining,
            new.timeouts,
            int(new.absent),
            new.turn_no,
            new.started_at,
            c.game_pk,
            c.seat,
            c.turn_no,
            c.stage,
        ),
    )
    return cursor.rowcount == 1


async def due_clocks(db: Db, now: float, limit: int) -> list[SeatClock]:
    """Clocks with something due by `now`, earliest first (one indexed range scan)."""
    sql = f"SELECT {_CLOCK_COLUMNS} FROM seat_clocks WHERE next_due <= ? ORDER BY next_due LIMIT ?"
    async with db.execute(sql, (now, limit)) as cursor:
        rows = await cursor.fetchall()
    return [_clock(row) for row in rows]


async def earliest_due(db: Db) -> float | None:
    """The next moment anything is due (MIN over the index)."""
    async with db.execute("SELECT MIN(next_due) FROM seat_clocks") as cursor:
        row = await cursor.fetchone()
    return None if row is None or row[0] is None else float(row[0])


async def user_clocks(db: Db, user_id: int) -> list[SeatClock]:
    """Active clocks of running games where this user sits."""
    sql = (
        f"SELECT {', '.join('c.' + c for c in _CLOCK_COLUMNS.split(', '))} FROM seat_clocks c "
        "JOIN seats s ON s.game_pk = c.game_pk AND s.seat = c.seat "
        "JOIN games g ON g.pk = c.game_pk "
        "WHERE s.user_id = ? AND c.active = 1 AND g.status = 'running'"
    )
    async with db.execute(sql, (user_id,)) as cursor:
        rows = await cursor.fetchall()
    return [_clock(row) for row in rows]


async def extend_running(db: Db, seconds: float) -> int:
    """Push every running deadline (and its pending reminders) back by `seconds`."""
    cursor = await db.execute(
        "UPDATE seat_clocks SET deadline_at = deadline_at + ?, next_due = next_due + ? "
        "WHERE active = 1 AND deadline_at IS NOT NULL",
        (seconds, seconds),
    )
    return cursor.rowcount


async def set_game_deadline(db: Db, game_pk: int) -> None:
    """Mirror the earliest running deadline into games.deadline_at (for listings)."""
    await db.execute(
        "UPDATE games SET deadline_at = (SELECT MIN(deadline_at) FROM seat_clocks "
        "WHERE game_pk = ? AND active = 1) WHERE pk = ?",
        (game_pk, game_pk),
    )


async def fetch_prefs(db: Db, user_id: int) -> UserPrefs:
    """A user's preferences (defaults when never set)."""
    sql = "SELECT user_id, away_until, notify, dm_closed, locale FROM user_prefs WHERE user_id = ?"
    async with db.execute(sql, (user_id,)) as cursor:
        row = await cursor.fetchone()
    if row is None:
        return UserPrefs(user_id)
    return UserPrefs(
        row["user_id"], row["away_until"], row["notify"], bool(row["dm_closed"]), row["locale"]
    )


async def put_locale(db: Db, user_id: int, locale: str) -> None:
    """Remember a user's Discord locale (the other preferences are left as they are)."""
    await db.execute(
        "INSERT INTO user_prefs (user_id, locale) VALUES (?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
        (user_id, locale),
    )


async def put_prefs(db: Db, p: UserPrefs) -> None:
    """Insert or update a user's preferences."""
    await db.execute(
        "INSERT INTO user_prefs (user_id, away_until, notify, dm_closed) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until, "
        "notify = excluded.notify, dm_closed = excluded.dm_closed",
        (p.user_id, p.away_until, p.notify, int(p.dm_closed)),
    )


async def fetch_guild(db: Db, guild_id: int) -> GuildSettings:
    """A server's defaults (Hangar's when never set)."""
    sql = (
        "SELECT guild_id, turn_limit, on_timeout, reminders, threads, language "
        "FROM guild_settings WHERE guild_id = ?"
    )
    async with db.execute(sql, (guild_id,)) as cursor:
        row = await cursor.fetchone()
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(
        row["guild_id"],
        row["turn_limit"],
        row["on_timeout"],
        bool(row["reminders"]),
        bool(row["threads"]),
        row["language"],
    )


async def put_guild(db: Db, g: GuildSettings) -> None:
    """Insert or update a server's defaults."""
    await db.execute(
        "INSERT INTO guild_settings (guild_id, turn_limit, on_timeout, reminders, threads, "
        "language) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
        "turn_limit = excluded.turn_limit, on_timeout = excluded.on_timeout, "
        "reminders = excluded.reminders, threads = excluded.threads, "
        "language = excluded.language",
        (g.guild_id, g.turn_limit, g.on_timeout, int(g.reminders), int(g.threads), g.language),
    )


async def fetch_beat(db: Db) -> float | None:
    """The last heartbeat, if any."""
    async with db.execute("SELECT beat_at FROM heartbeat WHERE id = 1") as cursor:
        row = await cursor.fetchone()
    return None if row is None else float(row[0])


async def put_beat(db: Db, now: float) -> None:
    """Record that the bot is alive now."""
    await db.execute(
        "INSERT INTO heartbeat (id, beat_at) VALUES (1, ?) "
        "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at",
        (now,),
    )


async def events_since_turn(db: Db, game_pk: int, seat: int, limit: int) -> list[dict[str, Any]]:
    """Events of moves in force since this seat last acted, newest `limit`, oldest first."""
    import json

    sql = (
        "SELECT e.event FROM events e JOIN actions a "
        "ON a.game_pk = e.game_pk AND a.seq = e.action_seq "
        "WHERE e.game_pk = ? AND a.kind = 'act' AND NOT EXISTS (SELECT 1 FROM actions u "
        "WHERE u.game_pk = a.game_pk AND u.kind = 'undo' AND u.undoes = a.seq) "
        "AND a.seq > COALESCE((SELECT MAX(m.seq) FROM actions m WHERE m.game_pk = ? "
        "AND m.kind = 'act' AND m.seat = ?), 0) "
        "ORDER BY e.action_seq DESC, e.idx DESC LIMIT ?"
    )
    async with db.execute(sql, (game_pk, game_pk, seat, limit)) as cursor:
        rows = await cursor.fetchall()
    return [json.loads(r["event"]) for r in reversed(list(rows))]


async def last_action_user(db: Db, game_pk: int) -> tuple[int | None, int | None]:
    """(seat, user_id) of the latest log row if it is a move; (None, None) otherwise."""
    sql = "SELECT kind, seat, user_id FROM actions WHERE game_pk = ? ORDER BY seq DESC LIMIT 1"
    async with db.execute(sql, (game_pk,)) as cursor:
        row = await cursor.fetchone()
    if row is None or row["kind"] != "act":
        return None, None
    return row["seat"], row["user_id"]
