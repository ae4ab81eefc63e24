"""Rulings: different rows, the re-seat exception, protected rows, changing a card
(rulebook "The game", "1. Play a seat-/eventcard", "3. Change a card")."""

from __future__ import annotations

import pytest

from rules.core import IllegalActionError
from rules.takeoff import GAME

from .helpers import BL, Y, keys, occupied, play, rig


def test_numbered_row_rule_refuses_a_second_placement_in_the_same_row() -> None:
    """The game: within one move passengers go into different rows (default: numbered row)."""
    state = rig(hands=(("aisle", "aisle"), ()))
    state, _ = play(state, Y, "play:aisle", "seat:5C", "play:aisle")
    assert "seat:5D" not in keys(state) and "seat:6D" in keys(state)
    with pytest.raises(IllegalActionError, match="different-rows rule"):
        GAME.apply(state, Y, "seat:5D")


def test_single_row_option_counts_each_side_separately() -> None:
    """Option row_rule=single: D E F is another row than A B C of the same number."""
    state = rig(hands=(("aisle", "middle"), ()), options={"row_rule": "single"})
    state, _ = play(state, Y, "play:aisle", "seat:5C", "play:middle")
    offered = keys(state)
    assert "seat:5E" in offered and "seat:5B" not in offered


def test_multi_stone_event_counts_as_one_placement_but_needs_unused_rows() -> None:
    """A card that places several stones counts once; its row must still be unused."""
    state = rig(hands=(("window", "old_friends"), ()))
    state, _ = play(state, Y, "play:window", "seat:6A", "play:old_friends")
    assert not [k for k in keys(state) if k.startswith("pair:6")]
    state, _ = play(state, Y, "row:7", "pair:7CD")
    assert state.rows_used == (6, 7)


def test_seat_freed_by_an_event_may_be_refilled_at_once_in_a_used_row() -> None:
    """The game: if an event card removes a passenger you may seat yours there right afterwards,
    even in a row already used this turn — but only that freed seat."""
    state = rig(hands=(("aisle", "drunk"), ()), stones={"5E": BL})
    state, _ = play(state, Y, "play:aisle", "seat:5C", "play:drunk", "seat:5E", "ticket", "row:5")
    assert [k for k in keys(state) if k.startswith("seat:")] == ["seat:5E"]
    state, _ = play(state, Y, "seat:5E")
    assert occupied(state) == {"5C": Y, "5E": Y}


def test_protected_row_is_safe_from_plain_events_but_not_from_check_cards() -> None:
    """§1: a single row of one colour may not be destroyed by an event, except ✔ cards."""
    stones = {"4A": BL, "4B": BL, "4C": BL}
    state = rig(hands=(("drunk", "honeymooners", "food", "tired_captain"), ()), stones=stones)
    assert keys(state)[:1] == ["play:tired_captain"]
    assert "play:drunk" not in keys(state) and "play:food" not in keys(state)
    state, _ = play(state, Y, "play:tired_captain", "side:4ABC")
    assert occupied(state) == {}


def test_change_a_card_needs_exactly_five_and_replaces_the_move() -> None:
    """§3: only with five cards, instead of playing: discard one face up, draw one; turn over."""
    hand = ("window", "window", "middle", "aisle", "business")
    state = rig(hands=(hand, ()), deck=("drunk", "window"))
    assert "change:window" in keys(state) and "change:business" in keys(state)
    state, events = play(state, Y, "change:business")
    assert state.turn == BL and state.discard == ("business",)
    assert sorted(state.hands[Y]) == sorted(("window", "window", "middle", "aisle", "drunk"))
    assert any(e.kind == "card_drawn" and e.reveals for e in events)
    four = rig(hands=(hand[:4], ()))
    with pytest.raises(IllegalActionError, match="exactly 5"):
        GAME.apply(four, Y, "change:window")
    played, _ = play(rig(hands=(hand, ())), Y, "play:aisle", "seat:4C")
    with pytest.raises(IllegalActionError, match="already played"):
        GAME.apply(played, Y, "change:window")


def test_no_second_change_in_a_row() -> None:
    """§3: after a change the following move must be a play or a pause."""
    hand = ("window", "window", "middle", "aisle", "business")
    state = rig(hands=(hand, ("aisle",)), deck=("drunk", "window", "middle"))
    state, _ = play(state, Y, "change:business")
    state, _ = play(state, BL, "end")
    assert not [k for k in keys(state) if k.startswith("change:")]
    with pytest.raises(IllegalActionError, match="changed a card last turn"):
        GAME.apply(state, Y, "change:window")
    state, _ = play(state, Y, "end")
    state, _ = play(state, BL, "end")
    assert "change:window" in keys(state)


def test_end_turn_draws_one_card_only_below_five() -> None:
    """§2: after the move take one card; with five cards in hand take none."""
    state, events = play(rig(hands=(("window",), ()), deck=("aisle", "middle")), Y, "end")
    assert state.hands[Y] == ("window", "aisle") and state.deck == ("middle",)
    drawn = [e for e in events if e.kind == "card_drawn"]
    assert drawn[0].visible_to == (Y,) and "Aisle" in (drawn[0].private_text or "")
    assert "Aisle" not in drawn[0].text
    full = ("window",) * 5
    state, _ = play(rig(hands=(full, ()), deck=("aisle",)), Y, "end")
    assert state.hands[Y] == full and state.deck == ("aisle",)


def test_explain_names_the_pending_play_for_main_actions() -> None:
    """A half-built play must be finished or cancelled before anything else."""
    state, _ = play(rig(hands=(("window", "aisle"), ())), Y, "play:window")
    with pytest.raises(IllegalActionError, match="Finish or cancel your Window seat play"):
        GAME.apply(state, Y, "end")
