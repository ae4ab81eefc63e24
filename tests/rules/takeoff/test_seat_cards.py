"""Seat cards, Business-Class cards and captain's tickets (rulebook "1. Play a seat-/eventcard",
"4. Play the captains ticket")."""

from __future__ import annotations

import pytest

from rules.core import IllegalActionError
from rules.takeoff import GAME

from .helpers import BL, Y, keys, occupied, owner, play, rig


@pytest.mark.parametrize(("card", "letters"), [("window", "AF"), ("middle", "BE"), ("aisle", "CD")])
def test_seat_card_offers_only_free_economy_seats_of_its_type(card: str, letters: str) -> None:
    """§1: the seat card shows the seat type; Business needs a red card, so without one only
    Economy seats of that type (rows 4–12) are offered."""
    state = rig(hands=((card,), ()), stones={f"5{letters[0]}": BL})
    state, _ = play(state, Y, f"play:{card}")
    offered = {k for k in keys(state) if k.startswith("seat:")}
    expected = {f"seat:{r}{c}" for r in range(4, 13) for c in letters} - {f"seat:5{letters[0]}"}
    assert offered == expected
    state, events = play(state, Y, f"seat:6{letters[1]}")
    assert owner(state, f"6{letters[1]}") == Y
    assert state.hands[Y] == () and state.discard == (card,)
    assert "6" + letters[1] in events[0].text


def test_business_seat_needs_a_business_class_card_played_with_it() -> None:
    """§1: for Business seats play a red Business-Class card in addition; both are discarded."""
    state = rig(hands=(("window", "business"), ()))
    assert "play:business" not in keys(state)
    state, _ = play(state, Y, "play:window")
    assert "seat:1A" in keys(state)
    state, events = play(state, Y, "seat:1A")
    assert owner(state, "1A") == Y
    assert state.hands[Y] == ()
    assert sorted(state.discard) == ["business", "window"]
    assert "Business-Class" in events[0].text


def test_business_class_card_alone_is_refused_with_a_reason() -> None:
    """§1: the red card only goes with a seat card or ticket."""
    state = rig(hands=(("business",), ()))
    with pytest.raises(IllegalActionError, match="never played alone"):
        GAME.apply(state, Y, "play:business")


def test_business_seat_refused_without_red_card() -> None:
    """§1: a Business seat without a Business-Class card is refused, saying why."""
    state, _ = play(rig(hands=(("aisle",), ())), Y, "play:aisle")
    with pytest.raises(IllegalActionError, match="Business-Class card"):
        GAME.apply(state, Y, "seat:2C")


def test_taken_and_wrong_type_seats_are_explained() -> None:
    """§1: the seat must be free and of the card's type."""
    state, _ = play(rig(hands=(("window",), ()), stones={"5A": BL}), Y, "play:window")
    with pytest.raises(IllegalActionError, match="taken"):
        GAME.apply(state, Y, "seat:5A")
    with pytest.raises(IllegalActionError, match="aisle seat, not a window"):
        GAME.apply(state, Y, "seat:5C")


def test_cancel_restores_the_state_before_the_play() -> None:
    """A half-built play can be cancelled: cards back in hand, nothing placed."""
    start = rig(hands=(("window", "business", "child_alone"), ()))
    state, _ = play(start, Y, "play:child_alone", "row:5", "cancel")
    assert state == start
    state, _ = play(start, Y, "play:window", "cancel")
    assert state == start


def test_ticket_takes_any_free_seat_in_two_steps() -> None:
    """§4: a ticket seats a passenger anywhere; 72 seats are split into row → seat."""
    state = rig(hands=(("business",), ()))
    state, _ = play(state, Y, "ticket")
    rows = [k for k in keys(state) if k.startswith("row:")]
    assert rows == [f"row:{r}" for r in range(1, 13)]
    state, _ = play(state, Y, "row:2")
    assert [k for k in keys(state) if k.startswith("seat:")] == [f"seat:2{c}" for c in "ABCDEF"]
    state, events = play(state, Y, "seat:2B")
    assert owner(state, "2B") == Y and state.tickets == (3, 4)
    assert state.hands[Y] == () and state.discard == ("business",)
    assert "captain's ticket with a Business-Class card" in events[0].text


def test_ticket_business_seat_needs_red_card() -> None:
    """§4: for a seat in the Business-Class you also need a red Business-Class card."""
    state, _ = play(rig(), Y, "ticket")
    assert [k for k in keys(state) if k.startswith("row:")] == [f"row:{r}" for r in range(4, 13)]


def test_only_one_ticket_per_turn_and_four_in_all() -> None:
    """§4: a ticket may only be played once per move; each player has four."""
    state, _ = play(rig(), Y, "ticket", "row:4", "seat:4A")
    assert "ticket" not in keys(state)
    with pytest.raises(IllegalActionError, match="one captain's ticket"):
        GAME.apply(state, Y, "ticket")
    none_left = rig(tickets=(0, 4))
    assert "ticket" not in keys(none_left)
    with pytest.raises(IllegalActionError, match="no captain's tickets left"):
        GAME.apply(none_left, Y, "ticket")


def test_ticket_may_come_between_cards() -> None:
    """§4: a ticket may be played in open sequence with the cards."""
    state = rig(hands=(("window", "aisle"), ()))
    state, _ = play(state, Y, "play:window", "seat:4A", "ticket", "row:5", "seat:5B")
    state, _ = play(state, Y, "play:aisle", "seat:6C")
    assert occupied(state) == {"4A": Y, "5B": Y, "6C": Y}


def test_back_returns_from_a_row_to_the_row_list() -> None:
    """Long target lists are narrowed row by row; 'back' undoes only the narrowing."""
    state, _ = play(rig(), Y, "ticket")
    rows = keys(state)
    narrowed, _ = play(state, Y, "row:7")
    assert "back" in keys(narrowed) and "cancel" in keys(narrowed)
    back, _ = play(narrowed, Y, "back")
    assert keys(back) == rows


def test_public_view_shows_the_play_in_progress_and_last_move_but_no_hand() -> None:
    """The half-built play and the seats of the last move are public; the hand is not."""
    state = rig(hands=(("window", "aisle"), ("middle",)))
    state, _ = play(state, Y, "play:window", "seat:4A", "play:aisle")
    public = GAME.view(state, None)
    assert public.pending is not None and public.pending.card_name == "Aisle seat"
    assert public.last_seats == ("4A",) and public.hand == ()
    assert [c.id for c in GAME.view(state, Y).hand] == ["aisle"]
    state, _ = play(state, Y, "seat:5C", "end")
    assert GAME.view(state, None).last_seats == ("4A", "5C")
    state, _ = play(state, BL, "play:middle", "seat:6B")
    assert GAME.view(state, None).last_seats == ("6B",)
