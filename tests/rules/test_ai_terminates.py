"""Every game ends when every seat is an AI (issue 26), by the game's own rules.

Tables where each seat is an AI of one level, or where every seat's move comes from the clock's
timeout policy (`plan_ai_turn`, level normal, seeded from the state's own generator), play to
the end. Before the progress guards, the timeout AI took the exposed Safe Landing and discarded
it again at Flight for ever, and ended Takeoff! turns with a full hand and nothing played for
ever; the same seeds are among the cases below.

The move bounds are only this test's detector of a game that never ends, not a rule: each is
about ten times the longest all-AI game (or Flight hand) seen over several hundred games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules import get_game
from rules.core import Game
from rules.core.ai import decide, plan_ai_turn
from rules.flight.data import full_deck
from rules.flight.state import FlightState
from rules.takeoff import board as b

TIMEOUT = "timeout"  # the clock's policy for a late seat: `plan_ai_turn(..., "normal")`
CHEAP = ("easy", "normal", TIMEOUT)
GUARDED = ("normal", "hard")  # easy stays uniformly random: its stalls end by chance

# Longest games seen with every seat an AI (270 Takeoff! games, 120 First in Flight games per
# player count, over 1 000 Flight hands): Takeoff! 521 moves, First in Flight 428 (1 039 for one
# all-hard 4-player game, see the hard test), a Flight hand 180. A Flight match ends after at
# most 15 hands by default (the house rule), so Flight is bounded per hand.
GAME_BOUND = {"takeoff": 5000, "first-in-flight": 5000}
HAND_BOUND = 2000

Stop = Callable[[Any], bool]


def _moves(game: Game, state: Any, seat: int, level: str, seed: int, done: int) -> list[str]:
    """The keys one AI decision plays: one move, or a whole turn for the timeout policy."""
    if level == TIMEOUT:
        return plan_ai_turn(game, state, seat, "normal") or []
    # As the bot asks: the game's seed and the number of moves so far.
    return [decide(game, state, seat, level, seed, done)]


def _marker(state: Any) -> int:
    """What counts as progress for the bound: a new Flight hand; the game itself elsewhere."""
    return state.hand_number if isinstance(state, FlightState) else 0


def play(gid: str, players: int, level: str, seed: int, options: Any, stop: Stop) -> Any:
    """Every seat played by `level` until `stop`; fails when the bound passes without progress."""
    game = get_game(gid)
    state = game.new_game(seed, players, options)
    bound = HAND_BOUND if gid == "flight" else GAME_BOUND[gid]
    done, since, marker = 0, 0, _marker(state)
    while not stop(state):
        seat = game.active_players(state)[0]
        for key in _moves(game, state, seat, level, seed, done):
            state = game.apply(state, seat, key).state
            done += 1
            since += 1
        if _marker(state) != marker:
            since, marker = 0, _marker(state)
        assert since <= bound, f"{gid} {players}p {level} seed {seed}: no end after {done} moves"
    return state


def _over(gid: str) -> Stop:
    """Stop when the game has its outcome."""
    game = get_game(gid)
    return lambda state: game.outcome(state) is not None


def _cases(levels: tuple[str, ...], seeds: range) -> list[tuple[str, int, str, int]]:
    """(game, players, level, seed) for every game and player count."""
    counts = {"takeoff": (2,), "flight": (2, 3, 4, 5), "first-in-flight": (1, 2, 3, 4)}
    return [
        (gid, n, level, seed)
        for gid, players in counts.items()
        for n in players
        for level in levels
        for seed in seeds
    ]


@pytest.mark.parametrize(("gid", "players", "level", "seed"), _cases(CHEAP, range(3)))
def test_an_all_ai_table_plays_to_the_end(gid: str, players: int, level: str, seed: int) -> None:
    """Easy, normal and the timeout policy in every seat: the game reaches its outcome."""
    state = play(gid, players, level, seed, None, _over(gid))
    assert get_game(gid).outcome(state) is not None


@pytest.mark.parametrize(("gid", "players", "level", "seed"), _cases(("hard",), range(0, 1)))
def test_an_all_hard_table_plays_to_the_end(gid: str, players: int, level: str, seed: int) -> None:
    """Hard in every seat (slow: one seed; Flight plays a one-hand match)."""
    # Seed 0: its 4-player First in Flight game once took 1 039 moves, 306 of them hard opening
    # a Skill menu in its Flight and backing out again; the menu is now judged by the same
    # rollouts that opened it (386 moves).
    options = {"match": "hands", "hands": 1} if gid == "flight" else None
    state = play(gid, players, level, seed, options, _over(gid))
    assert get_game(gid).outcome(state) is not None


@pytest.mark.parametrize("level", CHEAP)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_flight_matches_by_hands_end(players: int, level: str) -> None:
    """Flight's other match mode: a fixed number of hands."""
    state = play("flight", players, level, 3, {"match": "hands", "hands": 2}, _over("flight"))
    assert len(state.results) == 2


@pytest.mark.parametrize("level", CHEAP)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_flight_hand_ends_in_the_rulebook_match(players: int, level: str) -> None:
    """Without the house rule (`max_hands:0`) every hand still ends with a Safe Landing."""
    # The match itself need not: to 100 points, the scores of four or five players drift down
    # (a hand gives 25 to one player and costs the others their cards), which is why the house
    # rule exists. So this plays the first three hands.
    game = get_game("flight")

    def three_hands(state: Any) -> bool:
        """True once three hands are over (or the match)."""
        return state.hand_number > 3 or game.outcome(state) is not None

    state = play("flight", players, level, 0, {"max_hands": 0}, three_hands)
    assert len(state.results) >= 3 or game.outcome(state) is not None


# --- the two loops of issue 26, move by move ----------------------------------------------


def _flight_of_landings(top: str) -> FlightState:
    """Two players holding only Safe Landings, nothing on the table, `top` exposed, seat 0 to
    draw: the position the timeout AI repeated for ever."""
    state = get_game("flight").new_game(1, 2, None)
    hands = (("SL",), ("SL", "SL")) if top == "SL" else (("SL",), ("SL", "SL", "SL"))
    pack = list(full_deck())
    for code in (*hands[0], *hands[1], top):
        pack.remove(code)
    return state.model_copy(
        update={"hands": hands, "pack": tuple(pack), "discards": (top,), "turn": 0}
    )


@pytest.mark.parametrize("level", GUARDED)
@pytest.mark.parametrize("top", ["SL", "CAN.3"])
def test_flight_ai_draws_from_the_pack_when_the_discard_would_only_go_back(
    top: str, level: str
) -> None:
    """No flight can land and no Route card can follow: taking the exposed card could only be
    followed by a discard, so normal and hard draw from the pack."""
    game = get_game("flight")
    state = _flight_of_landings(top)
    assert {a.key for a in game.legal_actions(state, 0)} == {"draw:pack", "draw:discard"}
    for seed in range(6):
        assert decide(game, state, 0, level, seed, 0) == "draw:pack"
    assert (plan_ai_turn(game, state, 0) or [""])[0] == "draw:pack"


def test_flight_normal_still_takes_a_discard_it_can_play() -> None:
    """The guard leaves useful takes alone: an exposed Aeroplane is taken and played."""
    game = get_game("flight")
    state = _flight_of_landings("CAN.A")
    assert decide(game, state, 0, "normal", 0, 0) == "draw:discard"


def _takeoff_stuck_hand(changed: bool) -> Any:
    """Seat 0 to start a turn with five Window and Aisle cards (the hand limit), every Window
    and Aisle seat taken and no tickets left: it can only change a card or end its turn without
    drawing. The timeout AI ended that turn for ever (both seats held such hands)."""
    state = get_game("takeoff").new_game(0, 2, None)
    board = tuple(b.EMPTY if b.seat_type(s) == "middle" else s % 2 for s in range(len(state.board)))
    hand = ("window", "window", "aisle", "aisle", "aisle")
    pool = [*state.hands[0], *state.hands[1], *state.deck]
    for card in hand:
        pool.remove(card)
    return state.model_copy(
        update={
            "board": board,
            "hands": (hand, tuple(sorted(pool[:3]))),
            "deck": tuple(pool[3:]),
            "tickets": (0, 0),
            "turn": 0,
            "changed_last": (changed, False),
        }
    )


@pytest.mark.parametrize("level", GUARDED)
def test_takeoff_ai_changes_a_card_rather_than_end_an_idle_turn_with_a_full_hand(
    level: str,
) -> None:
    """Ending would play nothing and draw nothing: normal and hard change a card instead."""
    game = get_game("takeoff")
    state = _takeoff_stuck_hand(changed=False)
    assert {a.key for a in game.legal_actions(state, 0)} == {
        "change:window",
        "change:aisle",
        "end",
    }
    # Before the guard, normal ended it at about one seed in three (a tie broken at random):
    # thirty seeds leave no doubt.
    for seed in range(30):
        assert decide(game, state, 0, level, seed, 0).startswith("change:")
    assert plan_ai_turn(game, state, 0) != ["end"]


def test_takeoff_ai_passes_after_a_change() -> None:
    """After a change the rules allow only a play or a pass: the guard leaves the pass."""
    game = get_game("takeoff")
    state = _takeoff_stuck_hand(changed=True)
    assert [a.key for a in game.legal_actions(state, 0)] == ["end"]
    assert plan_ai_turn(game, state, 0) == ["end"]
