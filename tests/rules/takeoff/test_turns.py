"""Reshuffles, the third-pass ending with last optional turns, and early ends
(rulebook "2. Take a seat-/eventcard" and "End of the game")."""

from __future__ import annotations

from rules.takeoff import GAME
from rules.takeoff import board as b

from .helpers import BL, Y, keys, play, rig


def test_empty_pile_is_reshuffled_from_the_discards() -> None:
    """§2: once the pile is used it is mixed again (pass 2 of 3)."""
    state = rig(hands=(("window",), ()), deck=("aisle",), discard=("middle", "drunk", "window"))
    state, events = play(state, Y, "end")
    assert state.pass_number == 2 and state.discard == ()
    assert sorted(state.deck) == ["drunk", "middle", "window"]
    reshuffle = next(e for e in events if e.kind == "deck_reshuffled")
    assert reshuffle.reveals
    view = GAME.view(state, None)
    assert view.pass_number == 2 and view.deck_count == 3


def test_third_pass_ends_with_one_last_turn_each_without_drawing() -> None:
    """End of the game: after the third pass each player may do one last move, no drawing."""
    state = rig(
        hands=(("window",), ("aisle", "middle", "window", "window", "window")),
        deck=("aisle",),
        discard=("drunk",),
        pass_number=3,
    )
    state, events = play(state, Y, "end")
    assert state.final_round and state.turn == BL
    assert any(e.kind == "last_round" for e in events)
    offered = keys(state)
    assert "decline" in offered and "end" not in offered
    assert not [k for k in offered if k.startswith("change:")]
    state, _ = play(state, BL, "play:aisle", "seat:4C")
    assert "end" in keys(state) and "decline" not in keys(state)
    state, _ = play(state, BL, "end")
    assert state.turn == Y and len(state.hands[BL]) == 4 and not state.over
    state, events = play(state, Y, "play:window", "seat:5A", "end")
    assert state.over and GAME.active_players(state) == ()
    assert events[-1].kind == "game_ended"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (3, 2) and outcome.winners == (Y,)


def test_declining_the_last_turn_ends_the_game_at_once() -> None:
    """End of the game: if one player does not want to play once more, the game ends at once."""
    state = rig(hands=(("window",), ("aisle",)), deck=("aisle",), pass_number=3)
    state, _ = play(state, Y, "end")
    state, _ = play(state, BL, "decline")
    assert state.over and "declined" in state.end_reason
    assert GAME.legal_actions(state, Y) == [] and GAME.legal_actions(state, BL) == []


def test_game_ends_when_all_seats_are_filled() -> None:
    """End of the game: all seats are occupied — ready for takeoff."""
    stones = {b.seat_label(s): s % 2 for s in range(b.SEATS) if b.seat_label(s) != "12F"}
    state = rig(hands=(("window", "drunk"), ()), stones=stones)
    state, events = play(state, Y, "play:window", "seat:12F")
    assert state.over and "72 seats" in state.end_reason
    assert events[-1].kind == "game_ended"


def test_game_ends_when_neither_player_can_ever_move() -> None:
    """End of the game: despite changing cards no one can play another move."""
    stones = {f"{r}{c}": r % 2 for r in range(1, 13) for c in "AF"}
    state = rig(
        hands=(("window",), ("window",)), deck=("window", "window"), stones=stones, tickets=(0, 0)
    )
    state, _ = play(state, Y, "end")
    assert state.over and "Neither player" in state.end_reason
    with_ticket = rig(
        hands=(("window",), ("window",)), deck=("window", "window"), stones=stones, tickets=(0, 1)
    )
    assert not play(with_ticket, Y, "end")[0].over
