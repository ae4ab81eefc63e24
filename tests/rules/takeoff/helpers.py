"""Scenario helpers: rig a Takeoff! state (board, hands, deck) and play keys on it."""

from __future__ import annotations

from typing import Any

from rules.core import Event
from rules.takeoff import GAME, Options, TakeoffState
from rules.takeoff import board as b
from rules.takeoff.data import sort_cards
from tests.support.scenario import apply_keys

Y, BL = 0, 1  # yellow = seat 0, blue = seat 1


def rig(
    *,
    stones: dict[str, int] | None = None,
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    deck: tuple[str, ...] = ("window",) * 10,
    discard: tuple[str, ...] = (),
    turn: int = 0,
    options: dict[str, Any] | None = None,
    **updates: Any,
) -> TakeoffState:
    """A state with the given stones ({'4A': 0}), hands, draw pile and turn."""
    state = GAME.new_game(7, 2, options)
    board = list(b.empty_board())
    for label, owner in (stones or {}).items():
        seat = b.parse_seat(label)
        assert seat is not None, label
        board[seat] = owner
    fields: dict[str, Any] = {
        "board": tuple(board),
        "hands": (sort_cards(hands[0]), sort_cards(hands[1])),
        "deck": deck,
        "discard": discard,
        "turn": turn,
        "options": Options.model_validate(options or {}),
    }
    fields.update(updates)
    return TakeoffState.model_validate({**state.model_dump(), **fields})


def fill_row(row: int, owner: int, letters: str = "ABCDEF") -> dict[str, int]:
    """Stones for `letters` of one numbered row."""
    return {f"{row}{letter}": owner for letter in letters}


def play(state: TakeoffState, seat: int, *keys: str) -> tuple[TakeoffState, list[Event]]:
    """Apply keys in order for `seat`; return the final state and all events."""
    return apply_keys(GAME, state, seat, *keys)


def keys(state: TakeoffState, seat: int | None = None) -> list[str]:
    """The legal keys of the player to move (or of `seat`)."""
    return [a.key for a in GAME.legal_actions(state, state.turn if seat is None else seat)]


def owner(state: TakeoffState, label: str) -> int:
    """Who sits on a seat (-1 = free)."""
    seat = b.parse_seat(label)
    assert seat is not None
    return state.board[seat]


def occupied(state: TakeoffState) -> dict[str, int]:
    """All stones as label → owner."""
    return {b.seat_label(s): o for s, o in enumerate(state.board) if o != b.EMPTY}
