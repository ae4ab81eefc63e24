"""AI players of every game and level: legal, deterministic, and blind to hidden facts."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from rules import GAMES, get_game
from rules.core import Rng
from rules.core.ai import LEVELS, decide, for_level, game_ai, plan_ai_turn

PLAYERS = {"takeoff": 2, "flight": 3, "first-in-flight": 2}
CHEAP = ("easy", "normal")


def _states(game_id: str, seed: int, picks: int, every: int) -> list[Any]:
    """Mid-game states reached by random play, one every `every` steps."""
    game = get_game(game_id)
    state = game.new_game(seed, PLAYERS[game_id], None)
    rng = random.Random(seed)
    found: list[Any] = []
    for step in range(picks * every):
        active = game.active_players(state)
        if not active:
            break
        if step % every == every - 1:
            found.append(state)
        seat = active[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).key).state
    return found


def _shuffle_takeoff(state: Any, seat: int, rng: random.Random) -> Any:
    """Swap cards between the rival's hand and the deck; reorder the deck; new future draws."""
    from rules.takeoff.data import sort_cards

    rival = 1 - seat
    pool = [*state.hands[rival], *state.deck]
    rng.shuffle(pool)
    hands = list(state.hands)
    hands[rival] = sort_cards(pool[: len(state.hands[rival])])
    deck = tuple(pool[len(state.hands[rival]) :])
    return state.model_copy(
        update={"hands": tuple(hands), "deck": deck, "rng": Rng(seed=rng.getrandbits(40))}
    )


def _shuffle_flight(state: Any, seat: int, rng: random.Random) -> Any:
    """Deal the others' hands and the pack afresh; new future draws."""
    from rules.flight.data import sort_cards

    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.pack)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        n = len(state.hands[s])
        hands[s], pool = sort_cards(pool[:n]), pool[n:]
    return state.model_copy(
        update={"hands": tuple(hands), "pack": tuple(pool), "rng": Rng(seed=rng.getrandbits(40))}
    )


def _shuffle_fif(state: Any, seat: int, rng: random.Random) -> Any:
    """Reorder every deck (but the seat's known top), swap face-down flaws with the flaw deck."""
    flaw_deck = list(state.flaw_deck)
    seats = []
    for s, mat in enumerate(state.seats):
        keep = len(mat.known_top) if s == seat else 0
        rest = list(mat.deck[keep:])
        rng.shuffle(rest)
        renamed = []
        for card in rest:
            if card.endswith("*") and flaw_deck:
                i = rng.randrange(len(flaw_deck))
                renamed.append(flaw_deck[i] + "*")
                flaw_deck[i] = card[:-1]
            else:
                renamed.append(card)
        seats.append(mat.model_copy(update={"deck": (*mat.deck[:keep], *renamed)}))
    upgrades = list(state.upgrade_deck)
    rng.shuffle(upgrades)
    return state.model_copy(
        update={
            "seats": tuple(seats),
            "flaw_deck": tuple(flaw_deck),
            "upgrade_deck": tuple(upgrades),
            "rng": Rng(seed=rng.getrandbits(40)),
        }
    )


SHUFFLE: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "takeoff": _shuffle_takeoff,
    "flight": _shuffle_flight,
    "first-in-flight": _shuffle_fif,
}


def _cases(levels: tuple[str, ...], picks: int, every: int) -> list[tuple[str, str, int, int]]:
    """(game, level, seed, state index) combinations."""
    return [
        (gid, level, seed, i)
        for gid in GAMES
        for level in levels
        for seed in range(2)
        for i in range(picks)
    ]


def _state(gid: str, seed: int, index: int, picks: int, every: int) -> Any:
    """One mid-game state (skips when random play ended the game sooner)."""
    states = _states(gid, seed, picks, every)
    if index >= len(states):
        pytest.skip("the game ended before this point")
    return states[index]


@pytest.mark.parametrize(("gid", "level", "seed", "index"), _cases(CHEAP, 4, 9))
def test_cheap_levels_choose_legal_deterministic_and_blind(
    gid: str, level: str, seed: int, index: int
) -> None:
    """Easy and normal: a legal key, the same twice, and the same with hidden facts shuffled."""
    _check(gid, level, _state(gid, seed, index, 4, 9))


@pytest.mark.parametrize(("gid", "seed"), [(g, s) for g in GAMES for s in range(2)])
def test_hard_chooses_legal_deterministic_and_blind(gid: str, seed: int) -> None:
    """Hard (search): the same checks on one mid-game state per game and seed."""
    _check(gid, "hard", _state(gid, seed, 0, 1, 17 + seed))


def _check(gid: str, level: str, state: Any) -> None:
    """Legal, deterministic, and unchanged when every hidden fact is shuffled."""
    game = get_game(gid)
    seat = game.active_players(state)[0]
    legal = {a.key for a in game.legal_actions(state, seat)}
    first = decide(game, state, seat, level, seed=7, actions=3)
    assert first in legal
    assert decide(game, state, seat, level, seed=7, actions=3) == first
    hidden = SHUFFLE[gid](state, seat, random.Random(99))
    assert hidden != state, "the shuffle must change a hidden fact"
    assert game.view(hidden, seat) == game.view(state, seat), "the seat must not see the shuffle"
    assert decide(game, hidden, seat, level, seed=7, actions=3) == first


@pytest.mark.parametrize("gid", list(GAMES))
def test_determinisation_matches_the_seats_view(gid: str) -> None:
    """A sampled state looks exactly like the real one from the seat's chair."""
    game = get_game(gid)
    resample = game_ai(gid).resample
    for state in _states(gid, 5, 6, 7):
        seat = game.active_players(state)[0]
        sampled = resample(state, seat, random.Random(1))
        assert game.view(sampled, seat) == game.view(state, seat)
        assert {a.key for a in game.legal_actions(sampled, seat)} == {
            a.key for a in game.legal_actions(state, seat)
        }


def test_unknown_level_is_refused() -> None:
    """A level that does not exist is an error that names the levels."""
    with pytest.raises(ValueError, match="easy, normal, hard"):
        for_level("takeoff", "grandmaster")
    assert set(LEVELS) == {"easy", "normal", "hard"}


def test_normal_beats_easy_at_takeoff_most_of_the_time() -> None:
    """Normal plays for points: it wins most of a few short games against random moves."""
    from bench.arena import run

    tally = run("takeoff", ["normal", "easy"], games=4, seed=0, jobs=1, options={})
    assert tally.wins["normal"] >= 3


@pytest.mark.parametrize("gid", list(GAMES))
def test_a_planned_ai_turn_plays_until_the_turn_passes(gid: str) -> None:
    """The timeout helper: legal keys, the same plan twice, and the seat's turn is over after."""
    game = get_game(gid)
    state = _states(gid, 3, 1, 5)[0]
    seat = game.active_players(state)[0]
    keys = plan_ai_turn(game, state, seat)
    assert keys and plan_ai_turn(game, state, seat) == keys
    for key in keys:
        state = game.apply(state, seat, key).state
    assert tuple(game.active_players(state)) != (seat,)


class _Broken:
    """A level with a bug: it raises, or it names a move that does not exist."""

    def __init__(self, fail: str) -> None:
        self.fail = fail

    def choose(self, seen: object, rng: random.Random) -> str:
        """Fail the way this instance was made to."""
        if self.fail == "raise":
            raise IndexError("a bug in the search")
        return "no-such-move"


@pytest.mark.parametrize("fail", ["raise", "illegal"])
def test_a_failing_level_hands_the_decision_to_the_next_one(
    fail: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If hard breaks (an exception or an illegal key), the seat still moves: normal decides,
    exactly as normal would have; the table never stalls on an AI."""
    from rules.core import ai as core_ai

    game = GAMES["takeoff"]
    state = next(s for s in _states("takeoff", 5, 12, 3) if len(game.legal_actions(s, 0)) > 1)
    seat = game.active_players(state)[0]
    expected = core_ai.decide(game, state, seat, "normal", seed=5, actions=9)
    players = dict(core_ai.game_ai("takeoff").players)
    players["hard"] = _Broken(fail)
    broken = core_ai.GameAI(resample=core_ai.game_ai("takeoff").resample, players=players)
    monkeypatch.setattr(core_ai, "game_ai", lambda game_id: broken)
    assert core_ai.decide(game, state, seat, "hard", seed=5, actions=9) == expected
