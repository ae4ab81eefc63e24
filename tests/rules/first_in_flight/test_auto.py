"""The automatic player makes the plays a competent human would."""

from __future__ import annotations

import random

from rules.first_in_flight import GAME
from rules.first_in_flight.auto import choose
from rules.first_in_flight.board import spaces
from rules.first_in_flight.state import State
from tests.rules.first_in_flight.helpers import SMALL, act, place, table, with_seat

STRONG = ("upgrade_4",) * 10 + ("glide",) * 6 + ("basic_problem",) * 4


def _choice(state: State, seat: int = 0) -> str:
    """The automatic player's key for `seat` now."""
    return choose(state, seat, GAME.legal_actions(state, seat), random.Random(0))


def test_with_a_strong_deck_in_year_3_it_flies_for_the_record() -> None:
    """Ten 4-point Upgrades and few Problems against a record of 20: it goes to fly."""
    state = table(3).model_copy(update={"year": 3})
    state = with_seat(state, 0, deck=STRONG, record=20, record_seq=1, coins=3)
    state = place(state, -1, SMALL[16], SMALL[15])
    key = _choice(state)
    assert key.startswith("move:")
    assert "fly" in [o.action for o in spaces(state)[int(key[5:])].options]


def test_with_spare_coins_it_pays_for_a_bigger_upgrade_look() -> None:
    """Rich in coins, it pays Money to look at 5 or more Upgrade cards rather than 2."""
    state = with_seat(table(3), 0, coins=20)
    state = place(state, -1, SMALL[16], SMALL[15])
    state, _ = act(state, 0, f"move:{SMALL[5]}")
    key = _choice(state)
    money, rest = key.split(":")[1][1:].split("t")
    assert int(money) >= 5 and int(rest.split("x")[1]) >= 5
