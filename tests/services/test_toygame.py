"""The toy game used by these tests keeps the rules contract, and stays out of the registry."""

from __future__ import annotations

import random

import pytest

import rules
from tests.rules.test_contract import _check_step, _check_views_serialise
from tests.support.toygame import TOY


def test_toy_game_is_not_registered() -> None:
    """Players never see the test game in /game new."""
    assert TOY.id not in rules.GAMES


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(5))
def test_toy_game_keeps_the_contract(players: int, seed: int) -> None:
    """Random play checks the generic per-step invariants and hides hands from the public."""
    state = TOY.new_game(seed, players, None)
    chooser = random.Random(seed)
    while TOY.active_players(state):
        _check_step(TOY, state)
        _check_views_serialise(TOY, state)
        assert '"hand":null' in TOY.view(state, None).model_dump_json()
        seat = TOY.active_players(state)[0]
        state = TOY.apply(state, seat, chooser.choice(TOY.legal_actions(state, seat))).state
    _check_step(TOY, state)
    outcome = TOY.outcome(state)
    assert outcome is not None and len(outcome.scores) == players
