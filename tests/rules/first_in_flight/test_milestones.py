"""Milestones: the events after which the bot posts a new board instead of editing the live one."""

from __future__ import annotations

from rules.core import Event
from rules.first_in_flight import GAME
from rules.first_in_flight.state import Pawn
from rules.first_in_flight.turns import settle
from tests.rules.first_in_flight.helpers import END, act, flying, table


def _kinds(events: list[Event]) -> set[str]:
    """Event kinds that are milestones."""
    return {e.kind for e in events} & GAME.milestone_kinds


def test_drawing_without_ending_the_flight_is_not_a_milestone() -> None:
    """A draw mid-Flight edits the live message."""
    _, events = act(flying(table(), 0, ["glide"] * 5), 0, "draw")
    assert not _kinds(events)


def test_a_landing_is_a_milestone() -> None:
    """Descend and land: the result goes out as a new message."""
    _, events = act(flying(table(), 0, ["glide"] * 5), 0, "draw", "descend")
    assert _kinds(events) == {"landed", "scored"}


def test_a_crash_is_a_milestone() -> None:
    """A 4th Problem ends the Flight: also a new message."""
    state = flying(table(), 0, ["basic_problem"] * 4 + ["glide"])
    _, events = act(state, 0, "draw", "draw", "draw")
    assert not _kinds(events)
    _, events = act(act(state, 0, "draw", "draw", "draw")[0], 0, "draw")
    assert _kinds(events) == {"crashed", "scored"}


def test_a_crash_while_landing_is_a_milestone() -> None:
    """A 4th Problem among the landing draws."""
    state = flying(table(), 0, ["basic_problem"] * 5)
    _, events = act(state, 0, "draw", "draw", "draw", "descend")
    assert _kinds(events) == {"crashed", "scored"}


def test_the_year_end_is_a_milestone() -> None:
    """The last pawn entering the start area ends the Year."""
    state = table()
    pawns = tuple(Pawn(pos=END if a else 35, arrival=300 + a) for a in range(len(state.pawns)))
    state = settle(state.model_copy(update={"pawns": pawns, "steps": ()}))[0]
    _, events = act(state, 0, "start")
    assert "year_end" in _kinds(events)
