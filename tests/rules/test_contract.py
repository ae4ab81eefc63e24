"""The generic contract test (DESIGN.md §6): every game, every player count, many seeds."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import GAMES, get_game
from rules.core import (
    Game,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    UnknownGameError,
)

SEEDS = range(12)
STEP_BOUND = 5000


def _cases() -> list[tuple[str, int, int]]:
    """(game id, players, seed) for every registered game and allowed player count."""
    return [
        (gid, n, seed)
        for gid, game in GAMES.items()
        for n in range(game.min_players, game.max_players + 1)
        for seed in SEEDS
    ]


def _check_step(game: Game, state: Any) -> None:
    """The per-step invariants: activity, determinism, unique keys, JSON round-trip."""
    active = game.active_players(state)
    over = game.outcome(state) is not None
    assert bool(active) != over, "active players ⇔ not over"
    seats = _seat_count(game, state)
    for seat in range(seats):
        actions = game.legal_actions(state, seat)
        if seat not in active:
            assert actions == [], f"inactive seat {seat} has actions"
            continue
        assert actions, f"active seat {seat} has no action"
        keys = [a.key for a in actions]
        assert len(keys) == len(set(keys)), f"duplicate keys {keys}"
        assert [a.key for a in game.legal_actions(state, seat)] == keys, "non-deterministic"
    raw = json.loads(json.dumps(game.dump_state(state)))
    assert game.load_state(raw) == state, "JSON round-trip changed the state"


def _seat_count(game: Game, state: Any) -> int:
    """Number of seats, read from the public view."""
    return int(game.view(state, None).model_dump()["players"])


def _check_views_serialise(game: Game, state: Any) -> None:
    """Every view serialises to JSON and the public view never carries the RNG."""
    public = game.view(state, None).model_dump_json()
    assert '"rng"' not in public and '"counter"' not in public
    for seat in range(_seat_count(game, state)):
        json.loads(game.view(state, seat).model_dump_json())


def play_random(gid: str, players: int, seed: int) -> tuple[Any, list[tuple[int, str]], Any]:
    """Play a whole game with random legal moves, checking the contract at each step."""
    game = get_game(gid)
    state = game.new_game(seed, players, None)
    initial = state
    chooser = random.Random(seed * 7919 + players)
    log: list[tuple[int, str]] = []
    for _ in range(STEP_BOUND):
        _check_step(game, state)
        active = game.active_players(state)
        if not active:
            break
        seat = active[0]
        action = chooser.choice(game.legal_actions(state, seat))
        before = game.dump_state(state)
        transition = game.apply(state, seat, action)
        assert game.dump_state(state) == before, "apply changed its input"
        state = transition.state
        log.append((seat, action.key))
    else:
        pytest.fail(f"{gid} did not end within {STEP_BOUND} steps")
    return initial, log, state


@pytest.mark.parametrize(("gid", "players", "seed"), _cases())
def test_random_play_keeps_the_contract(gid: str, players: int, seed: int) -> None:
    """Random legal play reaches an outcome and every invariant holds on the way."""
    game = get_game(gid)
    initial, log, final = play_random(gid, players, seed)
    outcome = game.outcome(final)
    assert isinstance(outcome, Outcome)
    assert len(outcome.scores) == len(outcome.ranks) == players
    assert all(outcome.ranks[w] == 1 for w in outcome.winners)
    if not outcome.winners:  # an automa won: it says so, and no seat ranks first
        assert outcome.reason and min(outcome.ranks) > 1
    _check_views_serialise(game, final)
    with pytest.raises(GameOverError):
        game.apply(final, 0, "anything")
    # seed + action log replays to the same final state
    state = initial
    for seat, key in log:
        state = game.apply(state, seat, key).state
    assert state == final


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_wrong_seat_and_unknown_key_are_refused(gid: str) -> None:
    """A seat acting out of turn or a made-up key raises the right error and changes nothing."""
    game = get_game(gid)
    for seed in SEEDS:
        state = game.new_game(seed, game.min_players, None)
        _check_views_serialise(game, state)
        active = game.active_players(state)
        idle = [s for s in range(game.min_players) if s not in active]
        before = game.dump_state(state)
        if idle:
            key = game.legal_actions(state, active[0])[0].key
            with pytest.raises(NotYourTurnError):
                game.apply(state, idle[0], key)
        with pytest.raises(IllegalActionError) as err:
            game.apply(state, active[0], "no-such-action")
        assert str(err.value), "refusals must say why"
        assert game.dump_state(state) == before


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_player_counts_outside_the_range_are_refused(gid: str) -> None:
    """new_game refuses too few or too many players with a readable message."""
    game = get_game(gid)
    from rules.core import InvalidOptionsError

    for bad in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(InvalidOptionsError, match="players"):
            game.new_game(1, bad, None)


def test_unknown_game_is_a_rules_error() -> None:
    """get_game names the known games when asked for an unknown one."""
    with pytest.raises(UnknownGameError, match="known"):
        get_game("chess")
