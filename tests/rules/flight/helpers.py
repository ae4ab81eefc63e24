"""Rigging helpers for Flight scenario tests: build exact hands, packs and tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules.core import Event
from rules.flight import GAME
from rules.flight.data import route_ids, sort_cards
from rules.flight.state import Flight, FlightOptions, FlightState, Obstacle, Step, Stop
from tests.support.scenario import apply_keys


def flight(
    route: str,
    upto: int = 0,
    *,
    alternative: Iterable[int] = (),
    obstacles: Sequence[Obstacle] = (),
    started: bool = True,
) -> Flight:
    """A flight with positions 1..upto filled (those in `alternative` by an Alternative Route)."""
    alt = set(alternative)
    stops = tuple(
        Stop(number=n, by="alternative" if n in alt else "route") for n in range(1, upto + 1)
    )
    return Flight(route=route, started=started, stops=stops, obstacles=tuple(obstacles))


def rig(
    hands: Sequence[Sequence[str]],
    *,
    pack: Sequence[str] = ("FOG", "FOG", "FOG"),
    discards: Sequence[str] = ("PAS",),
    flights: Sequence[Flight] = (),
    turn: int = 0,
    dealer: int | None = None,
    phase: str = "draw",
    first_out: int | None = None,
    scores: Sequence[int] | None = None,
    options: dict[str, Any] | None = None,
    hand_number: int = 1,
) -> FlightState:
    """A state with exactly these cards (the rest of the deck is simply absent)."""
    players = len(hands)
    base = GAME.new_game(7, players, options)
    table = {f.route: f for f in flights}
    return base.model_copy(
        update={
            "hands": tuple(sort_cards(list(h)) for h in hands),
            "pack": tuple(pack),
            "discards": tuple(discards),
            "flights": tuple(table.get(r, Flight(route=r)) for r in route_ids()),
            "turn": turn,
            "dealer": (turn - 1) % players if dealer is None else dealer,
            "step": Step(phase=phase),  # type: ignore[arg-type]
            "first_out": first_out,
            "scores": tuple(scores) if scores is not None else (0,) * players,
            "options": FlightOptions.model_validate(options or {}),
            "hand_number": hand_number,
        }
    )


def act(state: FlightState, seat: int, *keys: str) -> tuple[FlightState, list[Event]]:
    """Apply keys in order for `seat`; return the final state and all events."""
    return apply_keys(GAME, state, seat, *keys)


def keys(state: FlightState, seat: int | None = None) -> list[str]:
    """The legal action keys of `seat` (default: the seat to play)."""
    return [a.key for a in GAME.legal_actions(state, state.turn if seat is None else seat)]


def kinds(events: Sequence[Event]) -> list[str]:
    """Event kinds in order."""
    return [e.kind for e in events]
