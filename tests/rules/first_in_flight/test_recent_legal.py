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


def test_each_seat_sees_its_own_cards_over_the_kept_public_view() -> None:
    """A seat's view is the public one kept for this state plus that seat's own looked-at cards:
    equal to a view built afresh for an equal state, and no seat's cards reach another view."""
    rng = random.Random(8)
    state = GAME.new_game(8, 4, None)
    private_seen = 0
    for _ in range(150):
        if GAME.outcome(state) is not None:
            break
        rebuilt = GAME.State.model_validate_json(state.model_dump_json())  # nothing kept for it
        views = {seat: GAME.view(state, seat) for seat in (None, 0, 1, 2, 3)}
        for seat, view in views.items():
            assert view == GAME.view(rebuilt, seat)
            assert view.viewer == seat
            own = state.seats[seat].known_top if seat is not None else ()
            assert len(view.known_top) == len(own)
        assert not views[None].known_top and not views[None].looking_at
        private_seen += sum(bool(v.known_top or v.looking_at) for v in views.values())
        seat = GAME.active_players(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)).key).state
    assert private_seen, "the game reached a look at hidden cards"
