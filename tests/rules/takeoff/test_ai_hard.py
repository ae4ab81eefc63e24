"""Takeoff! hard AI: the resources its value keeps (Business-Class cards, tickets) and its end."""

from __future__ import annotations

import random

import pytest

from rules.core.ai import decide
from rules.takeoff import GAME
from rules.takeoff import board as b
from rules.takeoff.ai import HARD, evaluate, evaluate_hard

from .helpers import Y, play, rig


def _row_chosen(card: str, seed: int) -> int:
    """The numbered row where hard seats `card` while holding a Business-Class card too."""
    state, _ = play(rig(hands=((card, "business"), ())), Y, f"play:{card}")
    key = decide(GAME, state, Y, "hard", seed=seed, actions=1)
    assert key.startswith("seat:")
    seat = b.parse_seat(key.removeprefix("seat:"))
    assert seat is not None
    return b.row_of(seat)


@pytest.mark.parametrize("seed", range(3))
def test_hard_keeps_the_business_class_card_off_a_middle_seat(seed: int) -> None:
    """A Business middle seat earns what an Economy one does: hard keeps the red card."""
    assert _row_chosen("middle", seed) > GAME.new_game(0, 2, None).options.business_rows


@pytest.mark.parametrize("seed", range(3))
def test_hard_spends_the_business_class_card_on_a_business_aisle(seed: int) -> None:
    """A Business aisle seat earns 5 points instead of 2: worth the red card."""
    assert _row_chosen("aisle", seed) <= GAME.new_game(0, 2, None).options.business_rows


def test_kept_resources_count_mid_game_and_not_in_the_last_round() -> None:
    """Tickets and red cards add value while the game goes on, nothing in the last turns."""
    state = rig(hands=(("business",), ()))
    assert evaluate_hard(state, Y) > evaluate(state, Y)
    last = state.model_copy(update={"final_round": True, "final_turns_left": 2})
    assert evaluate_hard(last, Y) == evaluate(last, Y)


def test_hard_values_a_plain_end_of_turn_as_the_state_before_it() -> None:
    """The draw after ending is a sampled guess, so ending scores the state as it stands."""
    state = rig(hands=(("window",), ()), deck=("business",) * 10)
    base = evaluate_hard(state, Y)
    assert HARD.value(state, Y, "end", base, random.Random(1)) == base
