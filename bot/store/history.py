"""SQL of finished games: results per participant, ratings, history pages and deletion."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass
from typing import Any

import aiosqlite

from bot.store.cursor import Db

# A move counts while no undo takes it back: the rows `repository.fetch_actions` returns, which
# /admin verify replays and /admin export writes out (one definition, so the counts agree).
from bot.store.repository import _EFFECTIVE as IN_FORCE

_RESULT_COLUMNS = (
    "game_pk, entry, guild_id, game_id, finished_at, player, user_id, name, place, score, won, "
    "turns, think_seconds, mu_before, sigma_before, mu_after, sigma_after, rated_n, seat, former"
)


@dataclass(frozen=True)
class ResultRow:
    """One participant of one finished game (a seat, an AI level or an automa like Gustave)."""

    game_pk: int
    entry: int
    guild_id: int
    game_id: str
    finished_at: float
    player: str  # 'user:<id>', 'ai:<level>' or 'automa:<name>'
    user_id: int | None
    name: str
    place: int
    score: int
    won: bool
    turns: int
    think_seconds: float
    mu_before: float | None = None
    sigma_before: float | None = None
    mu_after: float | None = None
    sigma_after: float | None = None
    rated_n: int | None = None  # this is the player's n-th rated game of this game here
    seat: int | None = None  # the seat this entry played (None: an automa, or older results)
    former: bool = False  # held the seat before an /admin replace: counted, never rated


@dataclass(frozen=True)
class RatingRow:
    """A player's current rating for one game on one server."""

    player: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate leaderboards sort by (mu − 3σ)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class FinishedGame:
    """A finished game's row as history shows it."""

    pk: int
    game_id: str
    guild_id: int
    channel_id: int
    board_message_id: int | None
    created_at: float
    finished_at: float
    moves: int  # moves in force (the game's version also counts its start and every undo)
    result: dict[str, Any]


def _result(row: aiosqlite.Row) -> ResultRow:
    """A ResultRow from a `results` row."""
    values = dict(row)
    values["won"] = bool(values["won"])
    values["former"] = bool(values["former"])
    return ResultRow(**values)


async def insert_results(db: Db, rows: Sequence[ResultRow]) -> None:
    """Store the participants of a finished game."""
    marks = ", ".join("?" * len(_RESULT_COLUMNS.split(", ")))
    sql = f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES ({marks})"
    params = [(*astuple(r)[:10], int(r.won), *astuple(r)[11:-1], int(r.former)) for r in rows]
    await db.executemany(sql, params)


async def set_finished(db: Db, game_pk: int, finished_at: float, result: dict[str, Any]) -> None:
    """Stamp a finished game with its end time and its outcome as data."""
    blob = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
    await db.execute(
        "UPDATE games SET finished_at = ?, result = ? WHERE pk = ?", (finished_at, blob, game_pk)
    )


@dataclass(frozen=True)
class FormerHolder:
    """Someone who held a seat before an admin handed it to another member."""

    seat: int
    user_id: int
    name: str


async def add_former_holder(db: Db, game_pk: int, holder: FormerHolder, at: float) -> None:
    """Remember who held a seat before a replacement (once per person and seat)."""
    await db.execute(
        "INSERT INTO seat_holders (game_pk, seat, user_id, name, replaced_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_pk, seat, user_id) DO NOTHING",
        (game_pk, holder.seat, holder.user_id, holder.name, at),
    )


async def fetch_former_holders(db: Db, game_pk: int) -> list[FormerHolder]:
    """A game's former seat holders, in the order they were replaced."""
    sql = (
        "SELECT seat, user_id, name FROM seat_holders WHERE game_pk = ? "
        "ORDER BY replaced_at, seat, user_id"
    )
    async with db.execute(sql, (game_pk,)) as cursor:
        return [FormerHolder(int(r[0]), int(r[1]), str(r[2])) for r in await cursor.fetchall()]


async def fetch_unrecorded(db: Db) -> list[int]:
    """Finished games without results yet (finished before migration 4)."""
    sql = "SELECT pk FROM games WHERE status = 'finished' AND finished_at IS NULL ORDER BY pk"
    async with db.execute(sql) as cursor:
        return [int(r[0]) for r in await cursor.fetchall()]


async def fetch_seat_rows(db: Db, game_pk: int) -> list[dict[str, Any]]:
    """Seats as plain dicts (an `ai_level` column, when a later migration adds it, comes too)."""
    async with db.execute("SELECT * FROM seats WHERE game_pk = ? ORDER BY seat", (game_pk,)) as cur:
        return [dict(r) for r in await cur.fetchall()]


async def fetch_results(db: Db, guild_id: int, game_id: str | None = None) -> list[ResultRow]:
    """Every result of a server (or of one game there), in rating order: oldest game first."""
    where, params = "guild_id = ?", list[Any]([guild_id])
    if game_id is not None:
        where, params = where + " AND game_id = ?", [*params, game_id]
    sql = (
        f"SELECT {_RESULT_COLUMNS} FROM results WHERE {where} "
        "ORDER BY game_id, finished_at, game_pk, entry"
    )
    async with db.execute(sql, params) as cursor:
        return [_result(r) for r in await cursor.fetchall()]


async def fetch_game_results(db: Db, pks: Sequence[int]) -> list[ResultRow]:
    """The results of some games, by game and entry."""
    if not pks:
        return []
    marks = ", ".join("?" * len(pks))
    sql = (
        f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_pk IN ({marks}) ORDER BY game_pk, entry"
    )
    async with db.execute(sql, list(pks)) as cursor:
        return [_result(r) for r in await cursor.fetchall()]


async def set_result_ratings(db: Db, rows: Iterable[ResultRow]) -> None:
    """Store each participant's rating before and after a game."""
    sql = (
        "UPDATE results SET mu_before = ?, sigma_before = ?, mu_after = ?, sigma_after = ?, "
        "rated_n = ? WHERE game_pk = ? AND entry = ?"
    )
    params = [
        (r.mu_before, r.sigma_before, r.mu_after, r.sigma_after, r.rated_n, r.game_pk, r.entry)
        for r in rows
    ]
    await db.executemany(sql, params)


async def fetch_ratings(
    db: Db, guild_id: int, game_id: str, players: Sequence[str] | None = None
) -> list[RatingRow]:
    """Current ratings on a server for one game: of some players, or all (best first)."""
    where, params = "guild_id = ? AND game_id = ?", list[Any]([guild_id, game_id])
    if players is not None:
        if not players:
            return []
        where += f" AND player IN ({', '.join('?' * len(players))})"
        params += list(players)
    sql = (
        "SELECT player, name, mu, sigma, games, wins FROM ratings "
        f"WHERE {where} ORDER BY ordinal DESC, player"
    )
    async with db.execute(sql, params) as cursor:
        rows = await cursor.fetchall()
    return [RatingRow(*tuple(r)) for r in rows]


async def fetch_leaderboard(db: Db, guild_id: int, game_id: str, limit: int) -> list[RatingRow]:
    """The best `limit` ratings of a game on a server."""
    sql = (
        "SELECT player, name, mu, sigma, games, wins FROM ratings "
        "WHERE guild_id = ? AND game_id = ? ORDER BY ordinal DESC, player LIMIT ?"
    )
    async with db.execute(sql, (guild_id, game_id, limit)) as cursor:
        return [RatingRow(*tuple(r)) for r in await cursor.fetchall()]


async def upsert_ratings(db: Db, guild_id: int, game_id: str, rows: Iterable[RatingRow]) -> None:
    """Write current ratings (insert or replace each player's row)."""
    sql = (
        "INSERT INTO ratings (guild_id, game_id, player, name, mu, sigma, ordinal, games, wins) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game_id, player) DO UPDATE "
        "SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
        "ordinal = excluded.ordinal, games = excluded.games, wins = excluded.wins"
    )
    params = [
        (guild_id, game_id, r.player, r.name, r.mu, r.sigma, r.ordinal, r.games, r.wins)
        for r in rows
    ]
    await db.executemany(sql, params)


async def delete_ratings(db: Db, guild_id: int, game_id: str) -> None:
    """Forget a game's ratings on a server (before a rebuild)."""
    await db.execute("DELETE FROM ratings WHERE guild_id = ? AND game_id = ?", (guild_id, game_id))


def _history_filter(
    guild_id: int, player: str | None, game_id: str | None
) -> tuple[str, list[Any]]:
    """WHERE clause and parameters for a server's finished games, optionally narrowed."""
    where = (
        "g.guild_id = ? AND g.status = 'finished' AND g.finished_at IS NOT NULL "
        # practice tables (/game learn, migration 10) are nobody's history
        "AND NOT EXISTS (SELECT 1 FROM game_flags f WHERE f.game_pk = g.pk AND f.practice = 1)"
    )
    params: list[Any] = [guild_id]
    if game_id is not None:
        where, params = where + " AND g.game_id = ?", [*params, game_id]
    if player is not None:
        where += (
            " AND EXISTS (SELECT 1 FROM results r WHERE r.game_pk = g.pk AND r.guild_id = ? "
            "AND r.player = ?)"
        )
        params += [guild_id, player]
    return where, params


async def count_finished(db: Db, guild_id: int, player: str | None, game_id: str | None) -> int:
    """How many finished games a history listing has."""
    where, params = _history_filter(guild_id, player, game_id)
    async with db.execute(f"SELECT COUNT(*) FROM games g WHERE {where}", params) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def fetch_finished(
    db: Db,
    guild_id: int,
    player: str | None,
    game_id: str | None,
    *,
    limit: int,
    offset: int,
) -> list[FinishedGame]:
    """A page of a server's finished games, newest first."""
    where, params = _history_filter(guild_id, player, game_id)
    sql = (
        "SELECT g.pk, g.game_id, g.guild_id, g.channel_id, g.board_message_id, g.created_at, "
        f"g.finished_at, g.result FROM games g WHERE {where} "
        "ORDER BY g.finished_at DESC, g.pk DESC LIMIT ? OFFSET ?"
    )
    async with db.execute(sql, [*params, limit, offset]) as cursor:
        rows = await cursor.fetchall()
    moves = await fetch_move_counts(db, [r["pk"] for r in rows])
    return [
        FinishedGame(
            pk=r["pk"],
            game_id=r["game_id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            board_message_id=r["board_message_id"],
            created_at=r["created_at"],
            finished_at=r["finished_at"],
            moves=moves.get(r["pk"], 0),
            result=json.loads(r["result"]) if r["result"] else {},
        )
        for r in rows
    ]


async def fetch_move_counts(db: Db, pks: Sequence[int]) -> dict[int, int]:
    """Moves in force per game, for a page of games (counted after paging: a count per
    matching game would read every move of a server's whole history)."""
    if not pks:
        return {}
    marks = ", ".join("?" * len(pks))
    sql = (
        f"SELECT a.game_pk, COUNT(*) FROM actions a WHERE a.game_pk IN ({marks}) "
        f"AND {IN_FORCE} GROUP BY a.game_pk"
    )
    async with db.execute(sql, list(pks)) as cursor:
        return {int(r[0]): int(r[1]) for r in await cursor.fetchall()}


@dataclass(frozen=True)
class StatsRow:
    """Aggregates of one player's results in one game."""

    game_id: str
    games: int
    wins: int
    place_sum: int
    score_sum: int
    turns: int
    think_seconds: float


async def fetch_stats(db: Db, guild_id: int, player: str, game_id: str | None) -> list[StatsRow]:
    """Per-game totals of a player's results on a server (one indexed range)."""
    where, params = "guild_id = ? AND player = ?", list[Any]([guild_id, player])
    if game_id is not None:
        where, params = where + " AND game_id = ?", [*params, game_id]
    sql = (
        "SELECT game_id, COUNT(*), SUM(won), SUM(place), SUM(score), SUM(turns), "
        f"SUM(think_seconds) FROM results WHERE {where} GROUP BY game_id ORDER BY game_id"
    )
    async with db.execute(sql, params) as cursor:
        rows = await cursor.fetchall()
    return [StatsRow(r[0], r[1], r[2], r[3], r[4], r[5], float(r[6])) for r in rows]


async def fetch_rating_series(
    db: Db, guild_id: int, player: str, game_id: str, rated: int, points: int
) -> list[tuple[str, float, float, float]]:
    """(game, finished_at, mu, sigma) after every few of a player's `rated` games, oldest first.

    About `points` rows, always with the latest: a chart needs no more, and 10,000 rows through
    the driver would cost more than the whole /stats budget. Reads the covering index only.
    """
    step = max(1, -(-rated // points))
    sql = (
        "SELECT game_id, finished_at, mu_after, sigma_after FROM results "
        "WHERE guild_id = ? AND player = ? AND game_id = ? AND mu_after IS NOT NULL "
        "AND (rated_n % ? = 0 OR rated_n = ?) ORDER BY finished_at"
    )
    async with db.execute(sql, (guild_id, player, game_id, step, rated)) as cursor:
        return [(r[0], r[1], r[2], r[3]) for r in await cursor.fetchall()]


async def fetch_finished_pks(db: Db, guild_id: int) -> list[int]:
    """Every finished game of a server, oldest first (for the full export)."""
    sql = "SELECT pk FROM games WHERE guild_id = ? AND status = 'finished' ORDER BY pk"
    async with db.execute(sql, (guild_id,)) as cursor:
        return [int(r[0]) for r in await cursor.fetchall()]


async def delete_game(db: Db, game_pk: int) -> None:
    """Remove a closed game and everything stored about it (the log trigger allows it now)."""
    for table, column in (
        ("events", "game_pk"),
        ("actions", "game_pk"),
        ("results", "game_pk"),
        ("seat_holders", "game_pk"),
        ("seats", "game_pk"),
        ("games", "pk"),
    ):
        await db.execute(f"DELETE FROM {table} WHERE {column} = ?", (game_pk,))
