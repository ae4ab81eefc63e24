"""Finished games: results recorded at the end, history pages, stats, leaderboards, deletion.

No Discord here: the commands in bot/edge/commands/stats.py format what these functions return.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import rules
from bot.services import ratings
from bot.services.errors import NoGameHereError, NotAllowedError
from bot.store import Store
from bot.store import history as hrepo
from bot.store import repository as repo
from bot.store.cursor import Db
from bot.store.history import FinishedGame, FormerHolder, RatingRow, ResultRow, StatsRow
from bot.store.repository import ActionRecord, GameRecord
from rules.core import Game, Outcome
from rules.core.errors import said

log = logging.getLogger(__name__)

PAGE_SIZE = 5
LEADERBOARD_SIZE = 15
CHART_POINTS = 200
GUSTAVE = "automa:gustave"
PROVISIONAL_GAMES = 5  # a skill estimate settles after this many rated games


def is_person(player: str) -> bool:
    """True for a Discord user's key; AI levels and automata are listed apart from people."""
    return player.startswith("user:")


def user_key(user_id: int) -> str:
    """The player key of a Discord user."""
    return f"user:{user_id}"


def ai_name(level: str) -> str:
    """How an AI level is listed: '🤖 Hard AI'."""
    return f"🤖 {level.replace('-', ' ').title()} AI" if level != "ai" else "🤖 AI"


def seat_identity(seat: Mapping[str, Any]) -> tuple[str, int | None, str]:
    """(player key, user id, name) of a seat row; AI seats have no user and a level."""
    user_id = seat.get("user_id")
    if user_id is not None:
        return user_key(int(user_id)), int(user_id), str(seat["name"])
    level = str(seat.get("ai_level") or "ai").lower()
    return f"ai:{level}", None, ai_name(level)


def think_times(actions: Sequence[ActionRecord], seats: int) -> tuple[list[int], list[float]]:
    """Turns taken and seconds spent per seat: a turn is a run of one seat's moves.

    The time of a move counts from the move before it, so the first move of the game (which
    follows the lobby, not a move) is not timed.
    """
    turns, seconds = [0] * seats, [0.0] * seats
    previous: ActionRecord | None = None
    for action in actions:
        if 0 <= action.seat < seats:
            if previous is None or previous.seat != action.seat:
                turns[action.seat] += 1
            if previous is not None:
                seconds[action.seat] += max(0.0, action.created_at - previous.created_at)
        previous = action
    return turns, seconds


def holder_times(
    actions: Sequence[ActionRecord], seat: int, user_id: int
) -> tuple[int, int, float]:
    """(moves, turns, seconds) of one user in one seat, timed as `think_times` does."""
    moves, turns, seconds = 0, 0, 0.0
    previous: ActionRecord | None = None
    for action in actions:
        if action.seat == seat and action.user_id == user_id:
            moves += 1
            if previous is None or previous.seat != action.seat:
                turns += 1
            if previous is not None:
                seconds += max(0.0, action.created_at - previous.created_at)
        previous = action
    return moves, turns, seconds


def automa_entry(game: Game, state: Any, outcome: Outcome) -> tuple[int, bool, int] | None:
    """(score, won, place) of a non-seat opponent such as Gustave, None when there is none.

    First in Flight's public view gives Gustave's record; he wins alone when no seat wins,
    shares the win when he ties the best record and no player's 40-trigger breaks the tie
    (rules/first_in_flight/result.py), else he places after every player with a higher record.
    """
    view = game.view(state, None)
    score = getattr(view, "gustave_record", None)
    if score is None:
        return None
    best = max(outcome.scores)
    if getattr(view, "gustave_won", False) or not outcome.winners:
        return int(score), True, 1
    trigger = str(getattr(view, "end_trigger", ""))
    if score == best and not trigger.startswith("seat"):
        return int(score), True, 1
    place = 1 + sum(s > score for s in outcome.scores) + (1 if score == best else 0)
    return int(score), False, place


def entries_for(
    record: GameRecord,
    seats: Sequence[Mapping[str, Any]],
    game: Game,
    state: Any,
    actions: Sequence[ActionRecord],
    finished_at: float,
    former: Sequence[FormerHolder] = (),
) -> list[ResultRow]:
    """One result row per participant of a finished game: seats first, then any automa, then
    the former holders of replaced seats.

    The rule for a seat an admin handed over (/admin replace): each person who made at least one
    move in it gets a row with the seat's final score, place and win, and their own turns and
    thinking time. The final holder's row is the seat's; the others are `former`: they count in
    /stats and show in /game history, but only the final holder's rating moves.
    """
    outcome = game.outcome(state)
    assert outcome is not None, "entries_for needs a finished game"
    turns, seconds = think_times(actions, len(seats))
    automa = automa_entry(game, state, outcome)
    rows, partial = [], []
    for seat in seats:
        n = int(seat["seat"])
        player, user_id, name = seat_identity(seat)
        place = outcome.ranks[n]
        if automa is not None and outcome.winners and automa[0] > outcome.scores[n]:
            place += 1  # Gustave finished ahead (when he wins alone the ranks already say so)
        won = n in outcome.winners
        mine_turns, mine_seconds = turns[n], seconds[n]
        for holder in former:
            if holder.seat != n or holder.user_id == user_id:
                continue
            moves, their_turns, their_seconds = holder_times(actions, n, holder.user_id)
            if not moves:
                continue  # replaced before their first move: they did not play
            mine_turns, mine_seconds = mine_turns - their_turns, mine_seconds - their_seconds
            row = _row(
                record, 0, user_key(holder.user_id), holder.user_id, holder.name, place,
                outcome.scores[n], won,
            )  # fmt: skip
            partial.append(replace(_timed(row, their_turns, their_seconds), seat=n, former=True))
        row = _row(record, n, player, user_id, name, place, outcome.scores[n], won)
        rows.append(replace(_timed(row, max(0, mine_turns), max(0.0, mine_seconds)), seat=n))
    if automa is not None:
        score, won, place = automa
        rows.append(_row(record, len(seats), GUSTAVE, None, "Gustave", place, score, won))
    rows += [replace(r, entry=len(rows) + i) for i, r in enumerate(partial)]
    return [_at(r, finished_at) for r in rows]


def _row(
    record: GameRecord,
    entry: int,
    player: str,
    user_id: int | None,
    name: str,
    place: int,
    score: int,
    won: bool,
) -> ResultRow:
    """A result row without timing."""
    return ResultRow(
        record.pk, entry, record.guild_id, record.game_id, 0.0, player, user_id, name, place,
        score, won, 0, 0.0,
    )  # fmt: skip


def _timed(row: ResultRow, turns: int, seconds: float) -> ResultRow:
    """The row with its turns and thinking time."""
    return ResultRow(**{**row.__dict__, "turns": turns, "think_seconds": seconds})


def _at(row: ResultRow, finished_at: float) -> ResultRow:
    """The row stamped with the game's end time."""
    return ResultRow(**{**row.__dict__, "finished_at": finished_at})


def result_data(outcome: Outcome, rows: Sequence[ResultRow]) -> dict[str, Any]:
    """The outcome as stored on the game row: places, scores, winners and rating changes."""
    data: dict[str, Any] = outcome.model_dump(mode="json")
    data["entries"] = [
        {
            "entry": r.entry,
            "player": r.player,
            "name": r.name,
            "place": r.place,
            "score": r.score,
            "won": r.won,
            **({"seat": r.seat, "former": True} if r.former else {}),
            "rating": None
            if r.mu_after is None
            else {"before": [r.mu_before, r.sigma_before], "after": [r.mu_after, r.sigma_after]},
        }
        for r in rows
    ]
    return data


async def record_finished(
    db: Db, record: GameRecord, game: Game, state: Any, finished_at: float
) -> list[ResultRow]:
    """Store a just-finished game's results and update ratings (inside the finishing commit).

    A practice table (/game learn) is only marked finished: no results, stats or ratings.
    """
    if (await repo.fetch_flags(db, record.pk)).practice:
        await hrepo.set_finished(db, record.pk, finished_at, {"practice": True})
        return []
    seats = await hrepo.fetch_seat_rows(db, record.pk)
    actions = await repo.fetch_actions(db, record.pk)
    former = await hrepo.fetch_former_holders(db, record.pk)
    rows = entries_for(record, seats, game, state, actions, finished_at, former)
    await hrepo.insert_results(db, rows)
    rows = await ratings.record_game(db, rows)
    outcome = game.outcome(state)
    assert outcome is not None
    await hrepo.set_finished(db, record.pk, finished_at, result_data(outcome, rows))
    return rows


async def backfill(store: Store, games: Mapping[str, Game] | None = None) -> int:
    """Record results of games that finished before migration 4, then re-rate their servers."""
    engines = rules.GAMES if games is None else games
    async with store.transaction() as db:
        pks = await hrepo.fetch_unrecorded(db)
        touched: set[tuple[int, str]] = set()
        for pk in pks:
            stored = await repo.fetch_game(db, pk)
            engine = engines.get(stored.record.game_id) if stored else None
            if stored is None or engine is None or stored.snapshot is None:
                continue
            state = engine.load_state(stored.snapshot)
            if engine.outcome(state) is None:
                continue
            await record_finished(db, stored.record, engine, state, stored.record.updated_at)
            touched.add((stored.record.guild_id, stored.record.game_id))
        for guild_id, game_id in sorted(touched):  # older games first changes everyone's rating
            await ratings.rebuild(db, guild_id, game_id)
    if pks:
        log.info("Recorded results of %s games finished before history existed", len(pks))
    return len(pks)


@dataclass(frozen=True)
class HistoryItem:
    """One finished game in a history listing."""

    game: FinishedGame
    title: str
    entries: tuple[ResultRow, ...]

    @property
    def seconds(self) -> float:
        """Length from the lobby to the end."""
        return self.game.finished_at - self.game.created_at


@dataclass(frozen=True)
class HistoryPage:
    """A page of history, newest first."""

    items: tuple[HistoryItem, ...]
    page: int
    pages: int
    total: int


@dataclass(frozen=True)
class PlayerStats:
    """A player's figures on a server: totals, per game, ratings and rating history."""

    per_game: tuple[StatsRow, ...]
    ratings: dict[str, RatingRow]
    series: tuple[tuple[str, float, float, float], ...] = field(default=())

    @property
    def games(self) -> int:
        """Finished games played."""
        return sum(s.games for s in self.per_game)

    @property
    def wins(self) -> int:
        """Games won (a shared win counts)."""
        return sum(s.wins for s in self.per_game)

    @property
    def win_rate(self) -> float:
        """Wins per game played (0 without games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def avg_place(self) -> float:
        """Average finishing place."""
        return sum(s.place_sum for s in self.per_game) / self.games if self.games else 0.0

    @property
    def avg_score(self) -> float:
        """Average final score."""
        return sum(s.score_sum for s in self.per_game) / self.games if self.games else 0.0

    @property
    def avg_move_seconds(self) -> float | None:
        """Average time from the previous move to this player's turn being done."""
        turns = sum(s.turns for s in self.per_game)
        return sum(s.think_seconds for s in self.per_game) / turns if turns else None


class HistoryService:
    """Read and manage finished games of one server at a time."""

    def __init__(self, store: Store, games: Mapping[str, Game] | None = None) -> None:
        self.store = store
        self.games: Mapping[str, Game] = rules.GAMES if games is None else games

    def title(self, game_id: str) -> str:
        """A game's title (its id if the engine is gone)."""
        game = self.games.get(game_id)
        return game.title if game is not None else game_id

    async def history(
        self, guild_id: int, *, user_id: int | None, game_id: str | None, page: int = 0
    ) -> HistoryPage:
        """Finished games on this server, newest first, optionally of one player or game."""
        player = user_key(user_id) if user_id is not None else None
        async with self.store.reading() as db:
            total = await hrepo.count_finished(db, guild_id, player, game_id)
            pages = max(1, -(-total // PAGE_SIZE))
            page = min(max(page, 0), pages - 1)
            games = await hrepo.fetch_finished(
                db, guild_id, player, game_id, limit=PAGE_SIZE, offset=page * PAGE_SIZE
            )
            results = await hrepo.fetch_game_results(db, [g.pk for g in games])
        by_game: dict[int, list[ResultRow]] = {}
        for row in results:
            by_game.setdefault(row.game_pk, []).append(row)
        items = tuple(
            HistoryItem(g, self.title(g.game_id), tuple(by_game.get(g.pk, []))) for g in games
        )
        return HistoryPage(items, page, pages, total)

    async def stats(self, guild_id: int, user_id: int, game_id: str | None) -> PlayerStats:
        """A player's figures on this server only (all games, or one)."""
        player = user_key(user_id)
        async with self.store.reading() as db:
            per_game = await hrepo.fetch_stats(db, guild_id, player, game_id)
            rated: dict[str, RatingRow] = {}
            series: list[tuple[str, float, float, float]] = []
            for row in per_game:
                found = await hrepo.fetch_ratings(db, guild_id, row.game_id, [player])
                if found:
                    rated[row.game_id] = found[0]
                    series += await hrepo.fetch_rating_series(
                        db, guild_id, player, row.game_id, found[0].games, CHART_POINTS
                    )
        return PlayerStats(tuple(per_game), rated, tuple(series))

    async def leaderboard(
        self, guild_id: int, game_id: str, limit: int = LEADERBOARD_SIZE
    ) -> list[RatingRow]:
        """This server's best `limit` people for one game, best first, then every AI level
        and automa rated there (a few at most), best first."""
        async with self.store.reading() as db:
            rows = await hrepo.fetch_ratings(db, guild_id, game_id)
        people = [r for r in rows if is_person(r.player)]
        return people[:limit] + [r for r in rows if not is_person(r.player)]

    async def rebuild_ratings(self, guild_id: int) -> int:
        """Recompute this server's ratings of every game from the stored results."""
        async with self.store.transaction() as db:
            return sum([await ratings.rebuild(db, guild_id, gid) for gid in sorted(self.games)])

    async def game_of_guild(self, guild_id: int, pk: int) -> GameRecord:
        """A game by number, only if it belongs to this server."""
        async with self.store.reading() as db:
            stored = await repo.fetch_game(db, pk)
        if stored is None or stored.record.guild_id != guild_id:
            raise NoGameHereError(said("There is no game #{number} on this server.", number=pk))
        return stored.record

    async def delete_game(self, guild_id: int, pk: int) -> GameRecord:
        """Erase a closed game of this server; its server's ratings are rebuilt without it."""
        async with self.store.transaction() as db:
            stored = await repo.fetch_game(db, pk)
            if stored is None or stored.record.guild_id != guild_id:
                raise NoGameHereError(said("There is no game #{number} on this server.", number=pk))
            if stored.record.status in ("lobby", "running"):
                raise NotAllowedError(
                    said(
                        "Game #{number} is still open — end it with /admin abandon before "
                        "deleting it.",
                        number=pk,
                    )
                )
            await hrepo.delete_game(db, pk)
            await ratings.rebuild(db, guild_id, stored.record.game_id)
        log.info("Game %s deleted from server %s", pk, guild_id)
        return stored.record

    async def finished_pks(self, guild_id: int) -> list[int]:
        """Every finished game of a server (for the full export)."""
        async with self.store.reading() as db:
            return await hrepo.fetch_finished_pks(db, guild_id)
