"""Every SQL statement of Hangar: games, seats, the append-only action log and its events."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any, Literal

import aiosqlite

from bot.store.cursor import Db

Status = Literal["lobby", "running", "finished", "abandoned"]
OPEN_STATUSES = ("lobby", "running")

_GAME_COLUMNS = (
    "pk, guild_id, channel_id, game_id, options, seed, status, version, creator_id, "
    "board_message_id, live_message_id, created_at, updated_at, snapshot"
)
# Moves still in force: 'act' rows that no later 'undo' row took back.
_EFFECTIVE = (
    "a.kind = 'act' AND NOT EXISTS (SELECT 1 FROM actions u "
    "WHERE u.game_pk = a.game_pk AND u.kind = 'undo' AND u.undoes = a.seq)"
)


@dataclass(frozen=True)
class GameRecord:
    """One row of `games`, without the snapshot."""

    pk: int
    guild_id: int
    channel_id: int
    game_id: str
    options: dict[str, Any]
    seed: int
    status: Status
    version: int
    creator_id: int
    board_message_id: int | None
    live_message_id: int | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class SeatRecord:
    """A seat at the table and who sits in it."""

    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None  # set when an AI plays this seat (user_id is then None)


@dataclass(frozen=True)
class StoredGame:
    """A game row with its seats and the raw snapshot (None in the lobby)."""

    record: GameRecord
    seats: tuple[SeatRecord, ...]
    snapshot: dict[str, Any] | None
    damage: str | None = None  # why the row cannot be decoded (the service refuses to play it)


@dataclass(frozen=True)
class ActionRecord:
    """One move in the log."""

    seq: int
    seat: int
    action: dict[str, Any]
    user_id: int | None
    created_at: float

    @property
    def key(self) -> str:
        """The action key that replays this move."""
        return str(self.action["key"])


def _dumps(value: Any) -> str:
    """Compact JSON for stored columns."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _record(row: aiosqlite.Row, options: dict[str, Any] | None = None) -> GameRecord:
    """A GameRecord from a `games` row (`options` given when the stored ones are unreadable)."""
    return GameRecord(
        pk=row["pk"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        options=json.loads(row["options"]) if options is None else options,
        seed=row["seed"],
        status=row["status"],
        version=row["version"],
        creator_id=row["creator_id"],
        board_message_id=row["board_message_id"],
        live_message_id=row["live_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


async def _stored(db: Db, row: aiosqlite.Row) -> StoredGame:
    """Attach seats and the decoded snapshot to a `games` row; unreadable JSON is flagged."""
    damage = None
    try:
        record = _record(row)
    except ValueError:
        record, damage = _record(row, options={}), "its options are not valid JSON"
    try:
        snapshot = json.loads(row["snapshot"]) if row["snapshot"] is not None else None
    except ValueError:
        snapshot, damage = None, damage or "its saved state is not valid JSON"
    return StoredGame(record, await fetch_seats(db, row["pk"]), snapshot, damage)


async def fetch_open_game(db: Db, channel_id: int) -> StoredGame | None:
    """The lobby or running game in this channel, if any."""
    # Literal statuses (not parameters) so SQLite can use the partial unique index.
    sql = (
        f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')"
    )
    async with db.execute(sql, (channel_id,)) as cursor:
        row = await cursor.fetchone()
    return await _stored(db, row) if row else None


async def open_game_pk(db: Db, channel_id: int) -> int | None:
    """The key of this channel's lobby or running game, if any (to lock it before reading it)."""
    sql = "SELECT pk FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')"
    async with db.execute(sql, (channel_id,)) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else None


async def lock_open_game(db: Db, channel_id: int) -> int | None:
    """`open_game_pk` with that game's lock held to the end of the transaction, in one trip."""
    if db.dialect != "postgres":  # SQLite: BEGIN IMMEDIATE made this the only writer already
        return await open_game_pk(db, channel_id)
    sql = (
        "SELECT pk, pg_advisory_xact_lock(?, (pk % 2147483647)::int4) FROM games "
        "WHERE channel_id = ? AND status IN ('lobby', 'running')"
    )
    space: int = getattr(db, "game_space")  # noqa: B009 (PgDb only)
    async with db.execute(sql, (space, channel_id)) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else None


async def fetch_latest_game(db: Db, channel_id: int) -> StoredGame | None:
    """The open game in this channel, else the one created last (finished or abandoned)."""
    sql = (
        f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? "
        "ORDER BY status IN (?, ?) DESC, pk DESC LIMIT 1"
    )
    async with db.execute(sql, (channel_id, *OPEN_STATUSES)) as cursor:
        row = await cursor.fetchone()
    return await _stored(db, row) if row else None


async def fetch_game(db: Db, pk: int) -> StoredGame | None:
    """A game by primary key, whatever its status."""
    async with db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE pk = ?", (pk,)) as cursor:
        row = await cursor.fetchone()
    return await _stored(db, row) if row else None


async def fetch_user_games(db: Db, guild_id: int, user_id: int) -> list[StoredGame]:
    """Open games on this server where the user has a seat, most recently active first."""
    sql = (
        f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN (?, ?) "
        "AND pk IN (SELECT game_pk FROM seats WHERE user_id = ?) ORDER BY updated_at DESC, pk DESC"
    )
    async with db.execute(sql, (guild_id, *OPEN_STATUSES, user_id)) as cursor:
        rows = await cursor.fetchall()
    return [await _stored(db, row) for row in rows]


@dataclass(frozen=True)
class ListingRow:
    """What /mygames shows of one open game, read from columns only (no snapshot)."""

    pk: int
    guild_id: int
    channel_id: int
    game_id: str
    status: Status
    board_message_id: int | None
    seat: int  # the reader's seat
    players: int
    listing: str | None  # JSON kept with each state change; None = not built yet (or stale)


async def fetch_user_listings(db: Db, guild_id: int, user_id: int, limit: int) -> list[ListingRow]:
    """The user's `limit` most recently active open games on this server, without snapshots."""
    sql = (
        "SELECT g.pk, g.guild_id, g.channel_id, g.game_id, g.status, g.board_message_id, "
        "s.seat, g.listing, g.options, g.snapshot, "
        "(SELECT COUNT(*) FROM seats c WHERE c.game_pk = g.pk) AS players "
        "FROM seats s JOIN games g ON g.pk = s.game_pk WHERE s.user_id = ? AND g.pk IN ("
        # The newest few first, by narrow columns only (sorting whole rows would copy every
        # open game's snapshot). `+n.guild_id` keeps SQLite on seats_by_user: the user's seats
        # are few, whereas the guild's index would visit every game on the server.
        "SELECT n.pk FROM seats m JOIN games n ON n.pk = m.game_pk "
        "WHERE m.user_id = ? AND +n.guild_id = ? AND n.status IN ('lobby', 'running') "
        "ORDER BY n.updated_at DESC, n.pk DESC LIMIT ?) "
        "ORDER BY g.updated_at DESC, g.pk DESC"
    )
    async with db.execute(sql, (user_id, user_id, guild_id, limit)) as cursor:
        rows = await cursor.fetchall()
    return [
        ListingRow(
            r["pk"],
            r["guild_id"],
            r["channel_id"],
            r["game_id"],
            r["status"],
            r["board_message_id"],
            r["seat"],
            r["players"],
            _checked_listing(r),
        )
        for r in rows
    ]


def _row_check(options: str, snapshot: str | None) -> str:
    """A checksum of the stored options and snapshot text (no JSON decoding)."""
    text = options + "\0" + (snapshot or "")
    return f"{zlib.crc32(text.encode()):08x}"


def _checked_listing(row: aiosqlite.Row) -> str | None:
    """The row's listing, or None when its snapshot or options changed behind the bot's back
    (a manual edit or bad restore: the caller then decodes the game and finds any damage)."""
    stored: str | None = row["listing"]
    if stored is None:
        return None
    check, _, listing = stored.partition(" ")
    return listing if check == _row_check(row["options"], row["snapshot"]) else None


async def set_listing(db: Db, game_pk: int, version: int, listing: str) -> None:
    """Store what /mygames shows of this game at `version` (a newer move's listing stays),
    with a checksum of the row it describes."""
    sql = "SELECT options, snapshot FROM games WHERE pk = ? AND version = ?"
    async with db.execute(sql, (game_pk, version)) as cursor:
        row = await cursor.fetchone()
    if row is None:
        return
    stored = f"{_row_check(row['options'], row['snapshot'])} {listing}"
    await db.execute(
        "UPDATE games SET listing = ? WHERE pk = ? AND version = ?", (stored, game_pk, version)
    )


async def fetch_seats(db: Db, game_pk: int) -> tuple[SeatRecord, ...]:
    """The seats of a game in seat order."""
    sql = "SELECT seat, user_id, name, ai_level FROM seats WHERE game_pk = ? ORDER BY seat"
    async with db.execute(sql, (game_pk,)) as cursor:
        rows = await cursor.fetchall()
    return tuple(SeatRecord(r["seat"], r["user_id"], r["name"], r["ai_level"]) for r in rows)


async def insert_game(
    db: Db,
    *,
    guild_id: int,
    channel_id: int,
    game_id: str,
    options: dict[str, Any],
    seed: int,
    creator_id: int,
    now: float,
) -> int:
    """Create a lobby; raises sqlite3.IntegrityError when the channel already has an open game."""
    sql = (
        "INSERT INTO games (guild_id, channel_id, game_id, options, seed, status, version, "
        "creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?)"
    )
    params = (guild_id, channel_id, game_id, _dumps(options), seed, creator_id, now, now)
    cursor = await db.execute(sql, params)
    assert cursor.lastrowid is not None
    return cursor.lastrowid


async def replace_seats(db: Db, game_pk: int, seats: tuple[SeatRecord, ...], now: float) -> None:
    """Write the whole seat list (joins and leaves renumber seats in the lobby)."""
    await db.execute("DELETE FROM seats WHERE game_pk = ?", (game_pk,))
    await db.executemany(
        "INSERT INTO seats (game_pk, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
        [(game_pk, s.seat, s.user_id, s.name, s.ai_level) for s in seats],
    )
    await touch(db, game_pk, now)


async def update_seat(db: Db, game_pk: int, seat: SeatRecord, creator_id: int, now: float) -> None:
    """Put another user in an existing seat (admin replace)."""
    await db.execute(
        "UPDATE seats SET user_id = ?, name = ?, ai_level = ? WHERE game_pk = ? AND seat = ?",
        (seat.user_id, seat.name, seat.ai_level, game_pk, seat.seat),
    )
    # The /mygames listing names the seat holders: forget it (the next /mygames rebuilds it).
    await db.execute(
        "UPDATE games SET creator_id = ?, updated_at = ?, listing = NULL WHERE pk = ?",
        (creator_id, now, game_pk),
    )


async def touch(db: Db, game_pk: int, now: float) -> None:
    """Mark the game as changed now."""
    await db.execute("UPDATE games SET updated_at = ? WHERE pk = ?", (now, game_pk))


async def set_status(db: Db, game_pk: int, status: Status, now: float) -> None:
    """Change a game's status (e.g. abandoned); a closed game remembers when it ended."""
    closed = now if status in ("finished", "abandoned") else None
    await db.execute(
        "UPDATE games SET status = ?, updated_at = ?, finished_at = ? WHERE pk = ?",
        (status, now, closed, game_pk),
    )


async def update_snapshot(
    db: Db,
    game_pk: int,
    *,
    expected_version: int,
    snapshot: dict[str, Any],
    status: Status,
    now: float,
) -> bool:
    """Store a new snapshot and bump the version, only if nobody else did first."""
    cursor = await db.execute(
        "UPDATE games SET snapshot = ?, status = ?, version = version + 1, updated_at = ? "
        "WHERE pk = ? AND version = ?",
        (_dumps(snapshot), status, now, game_pk, expected_version),
    )
    return cursor.rowcount == 1


async def set_board_message(db: Db, game_pk: int, message_id: int) -> None:
    """Remember the latest board message."""
    await db.execute("UPDATE games SET board_message_id = ? WHERE pk = ?", (message_id, game_pk))


async def set_live_message(db: Db, game_pk: int, message_id: int | None) -> None:
    """Remember (or forget) the live prompt message of the current turn."""
    await db.execute("UPDATE games SET live_message_id = ? WHERE pk = ?", (message_id, game_pk))


async def next_seq(db: Db, game_pk: int) -> int:
    """The sequence number the next log row gets."""
    sql = "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_pk = ?"
    async with db.execute(sql, (game_pk,)) as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def insert_action(
    db: Db,
    game_pk: int,
    *,
    seat: int,
    action: dict[str, Any],
    user_id: int | None,
    events: list[dict[str, Any]],
    now: float,
) -> int:
    """Append a move and its events to the log; returns its seq."""
    seq = await next_seq(db, game_pk)
    await db.execute(
        "INSERT INTO actions (game_pk, seq, kind, seat, action, user_id, created_at) "
        "VALUES (?, ?, 'act', ?, ?, ?, ?)",
        (game_pk, seq, seat, _dumps(action), user_id, now),
    )
    await db.executemany(
        "INSERT INTO events (game_pk, action_seq, idx, event) VALUES (?, ?, ?, ?)",
        [(game_pk, seq, idx, _dumps(event)) for idx, event in enumerate(events)],
    )
    return seq


async def insert_undo(db: Db, game_pk: int, *, undoes: int, user_id: int | None, now: float) -> int:
    """Append a row taking back move `undoes`; the move itself stays in the log."""
    seq = await next_seq(db, game_pk)
    await db.execute(
        "INSERT INTO actions (game_pk, seq, kind, user_id, undoes, created_at) "
        "VALUES (?, ?, 'undo', ?, ?, ?)",
        (game_pk, seq, user_id, undoes, now),
    )
    return seq


async def fetch_actions(db: Db, game_pk: int) -> list[ActionRecord]:
    """The moves in force, in order (what seed + log replays)."""
    sql = (
        "SELECT seq, seat, action, user_id, created_at FROM actions a "
        f"WHERE a.game_pk = ? AND {_EFFECTIVE} ORDER BY seq"
    )
    async with db.execute(sql, (game_pk,)) as cursor:
        rows = await cursor.fetchall()
    return [
        ActionRecord(r["seq"], r["seat"], json.loads(r["action"]), r["user_id"], r["created_at"])
        for r in rows
    ]


async def fetch_events(db: Db, game_pk: int, seq: int) -> list[dict[str, Any]]:
    """The events one move produced, in order."""
    sql = "SELECT event FROM events WHERE game_pk = ? AND action_seq = ? ORDER BY idx"
    async with db.execute(sql, (game_pk, seq)) as cursor:
        rows = await cursor.fetchall()
    return [json.loads(r["event"]) for r in rows]


async def fetch_recent_events(db: Db, game_pk: int, limit: int) -> list[dict[str, Any]]:
    """The last `limit` events of moves in force, oldest first."""
    sql = (
        "SELECT e.event FROM events e JOIN actions a "
        "ON a.game_pk = e.game_pk AND a.seq = e.action_seq "
        f"WHERE e.game_pk = ? AND {_EFFECTIVE} ORDER BY e.action_seq DESC, e.idx DESC LIMIT ?"
    )
    async with db.execute(sql, (game_pk, limit)) as cursor:
        rows = await cursor.fetchall()
    return [json.loads(r["event"]) for r in reversed(list(rows))]


# A move in force: not taken back by an undo row (`alias` names the actions row).
def _in_force(alias: str) -> str:
    return (
        f"{alias}.kind = 'act' AND NOT EXISTS (SELECT 1 FROM actions u "
        f"WHERE u.game_pk = {alias}.game_pk AND u.kind = 'undo' AND u.undoes = {alias}.seq)"
    )


async def fetch_turn_events(db: Db, game_pk: int, limit: int) -> list[dict[str, Any]]:
    """The events of the latest turn: moves in force since another seat last moved (the newest
    `limit`, oldest first). Each lookup walks the log backwards by key and stops at once."""
    last_seat = (
        f"SELECT l.seat FROM actions l WHERE l.game_pk = ? AND {_in_force('l')} "
        "ORDER BY l.seq DESC LIMIT 1"
    )
    other = (
        f"SELECT o.seq FROM actions o WHERE o.game_pk = ? AND {_in_force('o')} "
        f"AND o.seat <> ({last_seat}) ORDER BY o.seq DESC LIMIT 1"
    )
    sql = (
        "SELECT e.event FROM events e JOIN actions a "
        "ON a.game_pk = e.game_pk AND a.seq = e.action_seq "
        f"WHERE e.game_pk = ? AND {_EFFECTIVE} AND a.seq > COALESCE(({other}), 0) "
        "ORDER BY e.action_seq DESC, e.idx DESC LIMIT ?"
    )
    async with db.execute(sql, (game_pk, game_pk, game_pk, limit)) as cursor:
        rows = await cursor.fetchall()
    return [json.loads(r["event"]) for r in reversed(list(rows))]


async def channels_with_ai(db: Db) -> list[int]:
    """Channels whose running game has at least one AI seat."""
    sql = (
        "SELECT DISTINCT g.channel_id FROM games g JOIN seats s ON s.game_pk = g.pk "
        "WHERE g.status = 'running' AND s.ai_level IS NOT NULL ORDER BY g.channel_id"
    )
    async with db.execute(sql) as cursor:
        rows = await cursor.fetchall()
    return [int(r["channel_id"]) for r in rows]


@dataclass(frozen=True)
class TableFlags:
    """A game's flags (migration 10): a practice table, hints allowed."""

    practice: bool = False
    hints: bool = False


async def put_flags(db: Db, game_pk: int, flags: TableFlags) -> None:
    """Store a game's flags (replacing earlier ones)."""
    sql = (
        "INSERT INTO game_flags (game_pk, practice, hints) VALUES (?, ?, ?) "
        "ON CONFLICT (game_pk) DO UPDATE SET practice = excluded.practice, hints = excluded.hints"
    )
    await db.execute(sql, (game_pk, int(flags.practice), int(flags.hints)))


async def fetch_flags(db: Db, game_pk: int) -> TableFlags:
    """A game's flags (neither, for a game without a row)."""
    sql = "SELECT practice, hints FROM game_flags WHERE game_pk = ?"
    async with db.execute(sql, (game_pk,)) as cursor:
        row = await cursor.fetchone()
    return TableFlags() if row is None else TableFlags(bool(row[0]), bool(row[1]))
