"""The legal actions kept by state identity: the same answers as computing them afresh, and a
caller changing its list changes no one else's."""

from __future__ import annotations

import random

from rules.first_in_flight.engine import FirstInFlight

GAME = FirstInFlight()


def test_kept_answers_equal_fresh_ones_along_a_game() -> None:
    rng = random.Random(5)
    state = GAME.new_game(5, 3, None)
    for _ in range(60):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.active_players(state)[0]
        first = GAME.legal_actions(state, seat)
        assert first == list(GAME._legal_actions(state, seat))
        first.clear()  # a caller's own list
        again = GAME.legal_actions(state, seat)
        assert again == list(GAME._legal_actions(state, seat)) and again
        # an equal state rebuilt from JSON is another object: computed, and the same
        rebuilt = GAME.State.model_validate_json(state.model_dump_json())
        assert GAME.legal_actions(rebuilt, seat) == again
        state = GAME.apply(state, seat, rng.choice(again).key).state


def test_a_seat_that_may_not_act_has_no_actions() -> None:
    state = GAME.new_game(1, 3, None)
    idle = next(s for s in range(3) if s not in GAME.active_players(state))
    assert GAME.legal_actions(state, idle) == []
