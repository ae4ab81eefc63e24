"""Helpers shared by the games' scenario tests."""

from __future__ import annotations

from typing import Any, TypeVar

from rules.core import Event, Game

S = TypeVar("S")


def apply_keys(game: Game, state: S, seat: int, *keys: str) -> tuple[S, list[Event]]:
    """Apply action keys in order for `seat`; return the final state and every event."""
    events: list[Event] = []
    current: Any = state
    for key in keys:
        transition = game.apply(current, seat, key)
        assert isinstance(transition.state, type(state)), "apply changed the state's type"
        current = transition.state
        events.extend(transition.events)
    return current, events
