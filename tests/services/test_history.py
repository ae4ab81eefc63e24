"""History, stats and ratings on a generated set of finished games (real SQLite file).

Games are played through the real GameService (the finishing commit records results); the
scripted game sets each result, so ties, AI seats, Gustave wins and abandoned games are all in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.services import GameService
from bot.services import ratings as rating_service
from bot.services.errors import NoGameHereError, NotAllowedError
from bot.services.history import (
    GUSTAVE,
    HistoryService,
    backfill,
    entries_for,
    is_person,
    think_times,
    user_key,
)
from bot.services.rebuild import rebuild
from bot.store import ActionRecord, Store
from rules.core import ranks_from_scores
from tests.services.conftest import FakeClock
from tests.support.gamelog import played
from tests.support.scripted import SCRIPTED
from tests.support.toygame import TOY

GUILD, OTHER_GUILD = 1, 2
HUMANS = (11, 12, 13, 14, 15)
LONER = 20  # plays only solo and abandoned games: never rated
AI_FILLER = 900  # placeholder users whose seats become AI seats after the start


@dataclass
class Spec:
    """One generated game: who sits where, the scores, an automa, and whether it was abandoned."""

    seats: list[tuple[int | None, str | None]]  # (user id, None) or (None, ai level)
    scores: list[int]
    gustave: int | None = None
    abandoned: bool = False

    @property
    def ranks(self) -> tuple[int, ...]:
        """Seat ranks (shifted by one when Gustave beats everyone)."""
        ranks = ranks_from_scores(self.scores)
        return tuple(r + 1 for r in ranks) if self.gustave_won else ranks

    @property
    def gustave_won(self) -> bool:
        """Gustave wins alone with a higher record than every player."""
        return self.gustave is not None and self.gustave > max(self.scores)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that win (none when Gustave wins)."""
        return () if self.gustave_won else tuple(s for s, r in enumerate(self.ranks) if r == 1)

    def options(self) -> dict[str, Any]:
        """The scripted game's options for this result."""
        return {
            "scores": self.scores,
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "gustave": self.gustave,
            "gustave_won": self.gustave_won,
        }

    def place_of(self, seat: int) -> int:
        """1 + everyone who beat this seat (Gustave included)."""
        score = self.scores[seat]
        beaten_by_gustave = self.gustave is not None and self.gustave > score
        return 1 + sum(s > score for s in self.scores) + int(beaten_by_gustave)

    def seat_of(self, user: int) -> int | None:
        """The seat of a user in this game."""
        return next((i for i, (u, _) in enumerate(self.seats) if u == user), None)


def generated(count: int, seed: int = 13) -> list[Spec]:
    """A varied set: plain games with ties, AI seats, Gustave games, solo and abandoned ones."""
    rng = random.Random(seed)
    specs: list[Spec] = []
    for i in range(count):
        kind = ("plain", "ai", "gustave", "plain", "abandoned", "solo")[i % 6]
        humans = rng.sample(HUMANS, rng.randint(2, 4) if kind == "plain" else rng.randint(1, 2))
        seats: list[tuple[int | None, str | None]] = [(u, None) for u in humans]
        if kind == "ai":
            seats += [(None, rng.choice(["easy", "hard"])) for _ in range(rng.randint(1, 2))]
        if kind == "solo":
            seats = [(LONER, None)]
        if kind == "abandoned":
            seats = [(LONER, None), (humans[0], None)] if humans[0] != LONER else seats
        scores = [rng.randint(0, 3) for _ in seats]  # a small range: many ties
        gustave = rng.randint(0, 4) if kind == "gustave" else None
        specs.append(Spec(seats, scores, gustave, abandoned=kind == "abandoned"))
    return specs


async def _add_ai_column(store: Store) -> None:
    """The AI seats' level column: migration 7 adds it now, so there is nothing left to do."""


async def play(service: GameService, spec: Spec, channel: int, guild: int = GUILD) -> int:
    """Play one spec through the service; returns the game's pk."""
    users = [u if u is not None else AI_FILLER + i for i, (u, _) in enumerate(spec.seats)]
    loaded = await service.lobby.open(
        guild, channel, "scripted", spec.options(), users[0], f"u{users[0]}"
    )
    for user in users[1:]:
        await service.lobby.join(channel, user, f"u{user}")
    await service.lobby.start(channel, users[0], is_admin=False)
    pk = loaded.record.pk
    async with service.store.transaction() as db:
        for seat, (user, level) in enumerate(spec.seats):
            if user is None:
                await db.execute(
                    "UPDATE seats SET user_id = NULL, name = 'AI', ai_level = ? "
                    "WHERE game_pk = ? AND seat = ?",
                    (level, pk, seat),
                )
    if spec.abandoned:
        await service.admin.abandon(channel, 0, is_admin=True)
    else:
        await service.act(channel, users[0], "end", None)
    return pk


@pytest.fixture
def service(store: Store) -> GameService:
    """A service that plays the scripted game."""
    return GameService(store, games={"scripted": SCRIPTED}, clock=FakeClock())


@pytest.fixture
def history(store: Store) -> HistoryService:
    """The history service over the same store."""
    return HistoryService(store, games={"scripted": SCRIPTED})


async def _played(store: Store, service: GameService, count: int = 60) -> list[Spec]:
    """The generated set, played in order on channels 1000+."""
    await _add_ai_column(store)
    specs = generated(count)
    for i, spec in enumerate(specs):
        await play(service, spec, 1000 + i)
    return specs


async def _rating_state(store: Store) -> tuple[list[Any], list[Any]]:
    """Every stored rating and every result's before/after, for comparisons."""
    async with store.reading() as db:
        async with db.execute(
            "SELECT guild_id, game_id, player, mu, sigma, games, wins FROM ratings ORDER BY player"
        ) as cursor:
            table = [tuple(r) for r in await cursor.fetchall()]
        async with db.execute(
            "SELECT game_pk, entry, mu_before, sigma_before, mu_after, sigma_after, rated_n "
            "FROM results ORDER BY game_pk, entry"
        ) as cursor:
            results = [tuple(r) for r in await cursor.fetchall()]
    return table, results


async def test_stats_match_the_generated_games(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """Games, wins, average place and score per player equal what the generated set says."""
    specs = [s for s in await _played(store, service) if not s.abandoned]
    for user in HUMANS:
        mine = [(s, s.seat_of(user)) for s in specs if s.seat_of(user) is not None]
        stats = await history.stats(GUILD, user, None)
        assert stats.games == len(mine)
        assert stats.wins == sum(seat in s.winners for s, seat in mine)
        assert stats.avg_place == pytest.approx(sum(s.place_of(n) for s, n in mine) / len(mine))
        assert stats.avg_score == pytest.approx(sum(s.scores[n] for s, n in mine) / len(mine))
        assert stats.win_rate == pytest.approx(stats.wins / stats.games)


async def test_leaderboard_rates_ai_levels_and_gustave_but_not_unrated_games(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """AI levels and Gustave are players; solo and abandoned games rate nobody."""
    specs = await _played(store, service)
    board = await history.leaderboard(GUILD, "scripted", limit=50)
    names = {row.name for row in board}
    assert {"🤖 Hard AI", "🤖 Easy AI", "Gustave"} <= names
    players = {row.player for row in board}
    assert user_key(LONER) not in players, "solo and abandoned games are not rated"
    people = [row for row in board if is_person(row.player)]
    assert board[: len(people)] == people, "people first, then AI levels and automata apart"
    for part in (people, board[len(people) :]):
        ordinals = [row.ordinal for row in part]
        assert ordinals == sorted(ordinals, reverse=True)
    rated = [s for s in specs if not s.abandoned and (len(s.seats) > 1 or s.gustave is not None)]
    gustave = next(row for row in board if row.player == GUSTAVE)
    assert gustave.games == sum(s.gustave is not None for s in rated)
    # he wins alone above every player and shares a tie at the top (no 40-trigger here)
    assert gustave.wins == sum(s.gustave is not None and s.gustave >= max(s.scores) for s in rated)
    for user in HUMANS:
        row = next(r for r in board if r.player == user_key(user))
        assert row.games == sum(s.seat_of(user) is not None for s in rated)


async def test_rebuild_equals_incremental(store: Store, service: GameService) -> None:
    """Recomputing every rating from the stored results gives exactly the incremental figures."""
    await _played(store, service)
    incremental = await _rating_state(store)
    async with store.transaction() as db:
        await db.execute("UPDATE ratings SET mu = 0, sigma = 1")  # prove the rebuild rewrites
        await db.execute("UPDATE results SET mu_after = NULL, rated_n = NULL")
        rated = await rating_service.rebuild_all(db)
    assert rated > 0
    assert await _rating_state(store) == incremental


async def test_history_pages_newest_first_and_filters(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """Pages of five, newest first; a player filter lists only that player's finished games."""
    specs = await _played(store, service, count=24)
    finished = [s for s in specs if not s.abandoned]
    first = await history.history(GUILD, user_id=None, game_id=None)
    assert first.total == len(finished) and first.pages == -(-len(finished) // 5)
    pks = [item.game.pk for item in first.items]
    assert pks == sorted(pks, reverse=True) and len(pks) == 5
    last = await history.history(GUILD, user_id=None, game_id=None, page=99)
    assert last.page == first.pages - 1 and last.items
    user = HUMANS[0]
    mine = await history.history(GUILD, user_id=user, game_id="scripted")
    assert mine.total == sum(s.seat_of(user) is not None for s in finished)
    for item in mine.items:
        assert user_key(user) in {e.player for e in item.entries}
        assert [e.place for e in item.entries if e.player != GUSTAVE]  # places are listed
    assert (await history.history(OTHER_GUILD, user_id=None, game_id=None)).total == 0


async def test_tie_is_a_shared_win_with_equal_ratings(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """Two players on equal scores both win and move by the same amount."""
    await _add_ai_column(store)
    await play(service, Spec([(11, None), (12, None)], [5, 5]), 1)
    board = await history.leaderboard(GUILD, "scripted")
    assert [r.wins for r in board] == [1, 1]
    assert board[0].mu == board[1].mu and board[0].sigma == board[1].sigma


async def test_gustave_win_places_every_player_behind_him(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """When Gustave wins no seat wins; he is first and gains rating, the player loses some."""
    await _add_ai_column(store)
    await play(service, Spec([(11, None)], [20], gustave=30), 1)
    (item,) = (await history.history(GUILD, user_id=None, game_id=None)).items
    places = {e.name: (e.place, e.won) for e in item.entries}
    assert places == {"u11": (2, False), "Gustave": (1, True)}
    board = {r.player: r for r in await history.leaderboard(GUILD, "scripted")}
    assert board[GUSTAVE].mu > rating_service.MODEL.mu > board[user_key(11)].mu


async def test_one_human_against_ai_is_rated_and_alone_is_not(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """A single human is rated only against AI entries; a solo game without automa is not."""
    await _add_ai_column(store)
    await play(service, Spec([(11, None), (None, "hard")], [10, 3]), 1)
    await play(service, Spec([(12, None)], [10]), 2)
    board = {r.player: r for r in await history.leaderboard(GUILD, "scripted")}
    assert set(board) == {user_key(11), "ai:hard"}
    assert (await history.stats(GUILD, 12, None)).games == 1, "played, just not rated"


async def test_ai_seats_without_a_level_column(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """Before the AI migration exists, an AI seat is the generic '🤖 AI' player."""
    loaded = await service.lobby.open(GUILD, 1, "scripted", {"scores": [3, 1]}, 11, "u11")
    await service.lobby.join(1, AI_FILLER, "filler")
    await service.lobby.start(1, 11, is_admin=False)
    async with store.transaction() as db:
        await db.execute("UPDATE seats SET user_id = NULL WHERE game_pk = ? AND seat = 1", (1,))
    await service.act(1, 11, "end", None)
    assert loaded.record.pk == 1
    names = {r.name for r in await history.leaderboard(GUILD, "scripted")}
    assert names == {"u11", "🤖 AI"}


async def test_stats_are_per_server(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """Games on another server never show in this server's stats."""
    await _add_ai_column(store)
    await play(service, Spec([(11, None), (12, None)], [3, 1]), 1, guild=GUILD)
    await play(service, Spec([(11, None), (12, None)], [0, 4]), 2, guild=OTHER_GUILD)
    here, there = await history.stats(GUILD, 11, None), await history.stats(OTHER_GUILD, 11, None)
    assert (here.games, here.wins, there.games, there.wins) == (1, 1, 1, 0)


async def test_delete_removes_a_game_from_stats_and_ratings(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """An admin delete erases the game everywhere; ratings are as if it never happened."""
    await _add_ai_column(store)
    keep = await play(service, Spec([(11, None), (12, None)], [3, 1]), 1)
    gone = await play(service, Spec([(11, None), (12, None)], [0, 4]), 2)
    with pytest.raises(NoGameHereError):
        await history.delete_game(OTHER_GUILD, gone)
    await history.delete_game(GUILD, gone)
    stats = await history.stats(GUILD, 12, "scripted")
    assert (stats.games, stats.wins) == (1, 0)
    assert [
        i.game.pk for i in (await history.history(GUILD, user_id=None, game_id=None)).items
    ] == [keep]
    board = {r.player: r for r in await history.leaderboard(GUILD, "scripted")}
    assert board[user_key(11)].games == 1
    async with (
        store.reading() as db,
        db.execute("SELECT COUNT(*) FROM actions WHERE game_pk = ?", (gone,)) as c,
    ):
        assert (await c.fetchone())[0] == 0


async def test_an_open_game_cannot_be_deleted(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """Deleting needs the game closed first."""
    loaded = await service.lobby.open(GUILD, 1, "scripted", {}, 11, "u11")
    with pytest.raises(NotAllowedError):
        await history.delete_game(GUILD, loaded.record.pk)


async def test_backfill_records_games_finished_before_history(
    store: Store, service: GameService, history: HistoryService
) -> None:
    """Games whose results were never stored (older schema) are recorded from their snapshots."""
    await _add_ai_column(store)
    for i, spec in enumerate(generated(12)):
        await play(service, spec, 1000 + i)
    before = await _rating_state(store)
    async with store.transaction() as db:
        await db.execute("DELETE FROM results")
        await db.execute("DELETE FROM ratings")
        await db.execute(
            "UPDATE games SET finished_at = NULL, result = NULL WHERE status = 'finished'"
        )
    assert (await history.history(GUILD, user_id=None, game_id=None)).total == 0
    recorded = await backfill(store, {"scripted": SCRIPTED})
    assert recorded == sum(not s.abandoned for s in generated(12))
    assert await _rating_state(store) == before


def test_time_to_move_counts_from_the_previous_move() -> None:
    """A turn is one seat's run of moves; its time counts from the move before it."""
    times = [(0, 0.0), (1, 60.0), (1, 65.0), (0, 95.0), (1, 105.0)]
    actions = [
        ActionRecord(i + 1, seat, {"key": "x"}, None, t) for i, (seat, t) in enumerate(times)
    ]
    turns, seconds = think_times(actions, 2)
    assert turns == [2, 2]
    assert seconds == [30.0, 75.0]


async def test_verify_and_export_reach_any_game_of_this_server_only(
    store: Store, service: GameService
) -> None:
    """By number: a finished game of this server is verified and exported; other servers' not."""
    await _add_ai_column(store)
    pk = await play(service, Spec([(11, None), (12, None)], [3, 1]), 1)
    await play(service, Spec([(11, None), (12, None)], [1, 3]), 1)  # a newer game, same channel
    assert (await service.admin.verify(555, pk, GUILD)).ok
    exported = await service.admin.export(555, pk, GUILD)
    assert exported["game"]["pk"] == pk and exported["outcome"]["winners"] == [0]
    with pytest.raises(NoGameHereError):
        await service.admin.export(555, pk, OTHER_GUILD)
    latest = await service.load_latest(1)
    assert latest.record.pk != pk and latest.outcome is not None, "the channel shows its last game"


async def test_history_counts_the_moves_that_verify_replays_and_export_holds(store: Store) -> None:
    """'N moves' is the log in force, not the game's version (which also counts the start and
    every undo): an admin undo takes a bid back, and every count says four moves."""
    service = GameService(store, games={"toy": TOY}, clock=FakeClock())
    history = HistoryService(store, games={"toy": TOY})
    await service.lobby.open(GUILD, 1, "toy", {"rounds": 2}, 11, "u11", seed=3)
    await service.lobby.join(1, 12, "u12")
    await service.lobby.start(1, 11, is_admin=False)
    await service.act(1, 11, "bid:1", None)
    await service.act(1, 12, "bid:2", None)
    await service.moves.undo(1)  # logged, no longer in force
    for user, key in ((12, "bid:3"), (11, "bid:1"), (12, "bid:1")):
        result = await service.act(1, user, key, None)
    assert result.finished and result.loaded.record.version == 7, "start + 5 moves + 1 undo"
    (item,) = (await history.history(GUILD, user_id=None, game_id=None)).items
    exported = await service.admin.export(1, item.game.pk, GUILD)
    verified = await service.admin.verify(1, item.game.pk, GUILD)
    assert verified.ok
    assert item.game.moves == len(exported["actions"]) == verified.actions == 4


async def test_command_line_rebuild_restores_every_rating(
    store: Store, service: GameService, database_url: str
) -> None:
    """`python -m bot.services.rebuild` on the database file gives back the same ratings."""
    await _played(store, service, count=18)
    before = await _rating_state(store)
    async with store.transaction() as db:
        await db.execute("DELETE FROM ratings")
    recorded, rated = await rebuild(database_url)
    assert recorded == 0 and rated > 0
    assert await _rating_state(store) == before


def test_first_in_flight_solo_records_gustave_from_the_real_engine() -> None:
    """A real solo game lost to Gustave: he is entry 2 with his record, first and the winner."""
    log = played("first-in-flight", 1, seed=0)
    loaded = log.loaded
    outcome = loaded.outcome
    assert outcome is not None and outcome.winners == (), "random play loses to Gustave"
    seats = [{"seat": 0, "user_id": 11, "name": "Alice"}]
    rows = entries_for(loaded.record, seats, loaded.game, loaded.state, log.actions, 5.0)
    alice, gustave = rows
    assert (alice.player, alice.place, alice.won) == (user_key(11), 2, False)
    record = loaded.game.view(loaded.state, None).gustave_record
    assert (gustave.player, gustave.score, gustave.place, gustave.won) == (GUSTAVE, record, 1, True)
    assert rating_service.is_rated(rows), "one human is rated against the automa"


async def test_a_replaced_seat_credits_both_players_and_rates_only_the_final_holder(
    store: Store,
) -> None:
    """bob plays one turn of seat 1, an admin hands it to dave, dave finishes the game: both get
    a result with the seat's score and place (bob's marked former, with his own turns); /stats
    counts it for each; only dave's rating moves; carol, replaced before she moved, gets none."""
    service = GameService(store, games={"toy": TOY}, clock=FakeClock())
    history = HistoryService(store, games={"toy": TOY})
    await service.lobby.open(GUILD, 1, "toy", {"rounds": 2}, 11, "alice", seed=3)
    await service.lobby.join(1, 12, "bob")
    await service.lobby.join(1, 13, "carol")
    await service.lobby.start(1, 11, is_admin=False)
    await service.admin.replace(1, 13, 17, "erin")  # before carol's first move
    await service.act(1, 11, "bid:1", None)
    await service.act(1, 12, "bid:2", None)
    await service.admin.replace(1, 12, 16, "dave")
    await service.act(1, 17, "bid:1", None)
    for user, key in ((11, "bid:1"), (16, "bid:3"), (17, "bid:1")):
        result = await service.act(1, user, key, None)
    assert result.finished
    (item,) = (await history.history(GUILD, user_id=12, game_id=None)).items
    by_player = {e.player: e for e in item.entries}
    assert set(by_player) == {user_key(u) for u in (11, 12, 16, 17)}, "carol did not play"
    bob, dave = by_player[user_key(12)], by_player[user_key(16)]
    assert (bob.former, bob.seat, bob.name, bob.turns) == (True, 1, "bob", 1)
    assert (dave.former, dave.seat, dave.name, dave.turns) == (False, 1, "dave", 1)
    assert (bob.score, bob.place, bob.won) == (dave.score, dave.place, dave.won)
    assert bob.mu_after is None and dave.mu_after is not None, "only the final holder is rated"
    assert bob.entry == 3, "former holders come after the seats"
    for user in (12, 16):
        stats = await history.stats(GUILD, user, None)
        assert stats.games == 1 and stats.wins == int(dave.won)
    assert not (await history.stats(GUILD, 12, None)).ratings
    board = {r.player for r in await history.leaderboard(GUILD, "toy")}
    assert board == {user_key(u) for u in (11, 16, 17)}
    before = await _rating_state(store)
    await history.rebuild_ratings(GUILD)
    assert await _rating_state(store) == before, "a rebuild leaves the former holder unrated"
