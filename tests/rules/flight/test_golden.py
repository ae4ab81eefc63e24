"""Golden replays: fixed seeds and moves must keep giving the same match (catches regressions)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from rules.flight import GAME

GOLDEN = [
    # seed, players, options, moves, scores, winners, (lander, route, first out) per hand, log hash
    (
        101,
        2,
        {"match": "hands", "hands": 2},
        286,
        (35, 45),
        (1,),
        [(1, "CAN", 0), (0, "CAN", 1)],
        "3f49c3e3983146a3",
    ),
    (
        202,
        3,
        {"match": "target", "target": 40},
        141,
        (75, -4, -9),
        (0,),
        [(0, "AUS", None), (0, "SAF", 0)],
        "27cdea5bebb03641",
    ),
    (
        303,
        5,
        {"match": "hands", "hands": 1},
        134,
        (-3, 25, 15, -3, -10),
        (1,),
        [(1, "SAF", 2)],
        "8d6a05b8c018bf36",
    ),
]


@pytest.mark.parametrize(
    ("seed", "players", "options", "moves", "scores", "winners", "hands", "digest"), GOLDEN
)
def test_golden_match(
    seed: int,
    players: int,
    options: dict[str, Any],
    moves: int,
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    hands: list[tuple[int, str, int | None]],
    digest: str,
) -> None:
    """Seeded deal + seeded move choice → the recorded moves, hand results and final scores."""
    state = GAME.new_game(seed, players, options)
    chooser = random.Random(seed)
    log: list[str] = []
    while GAME.active_players(state):
        seat = GAME.active_players(state)[0]
        action = chooser.choice(GAME.legal_actions(state, seat))
        log.append(action.key)
        state = GAME.apply(state, seat, action).state
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert len(log) == moves
    assert hashlib.sha256("\n".join(log).encode()).hexdigest()[:16] == digest
    assert (outcome.scores, outcome.winners) == (scores, winners)
    assert [(r.lander, r.route, r.first_out) for r in state.results] == hands
