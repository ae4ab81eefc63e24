"""What a viewer may see: the table and scores for everyone, plus one seat's own hand."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from rules.core import Frozen
from rules.core.words import Said, Text
from rules.flight.data import card, route_data, route_name, stand_in_note
from rules.flight.plays import playable_cards
from rules.flight.state import Flight, FlightState, HandResult, ObstacleKind, Phase

# Card names are Said (card data, in the catalogue): pictures say them in the reader's language.
OBSTACLE_NAMES = {"fog": Said("Fog"), "customs": Said("Customs")}
REMEDY_NAMES = {"fog": Said("Alternative Route"), "customs": Said("Passport")}


class CardView(Frozen):
    """One card face: what it is and what it costs if left in hand."""

    code: str
    kind: str
    name: Text
    points: int
    route: str | None = None
    number: int | None = None
    town: str | None = None
    colour: str | None = None


class StopView(Frozen):
    """Position 1–5 of a flight: its town and how it was filled (None = not yet)."""

    number: int
    town: str
    filled: Literal["route", "alternative"] | None


class ObstacleView(Frozen):
    """A Fog or Customs beside a Route card, and the card that cancelled it (if any)."""

    kind: ObstacleKind
    name: Text
    beside: int
    cancelled: bool
    cancelled_by: Text | None


class FlightView(Frozen):
    """One route's row on the table."""

    route: str
    name: Text
    colour: str
    colour_name: str
    started: bool
    landed: bool
    stops: tuple[StopView, ...]
    obstacles: tuple[ObstacleView, ...]
    next_number: int
    blocked: bool


class SeatView(Frozen):
    """What everyone knows about one player."""

    seat: int
    hand_size: int
    score: int
    is_dealer: bool
    first_out: bool


class FlightGameView(Frozen):
    """The view of a Flight match; `hand`, `playable` and `pending` only for the seat itself."""

    players: int
    viewer: int | None
    hand_number: int
    dealer: int
    turn: int | None
    phase: Phase
    played_this_turn: int
    special_played: bool
    route_flight: str | None
    match: Literal["target", "hands"]
    target: int
    hands_to_play: int
    flights: tuple[FlightView, ...]
    exposed_discard: CardView | None
    discard_size: int
    pack_size: int
    seats: tuple[SeatView, ...]
    scores: tuple[int, ...]
    first_out: int | None
    results: tuple[HandResult, ...]
    winners: tuple[int, ...]
    over: bool
    stand_in_note: Text
    hand: tuple[CardView, ...] | None = None
    playable: tuple[str, ...] = ()
    pending: CardView | None = None


@lru_cache(maxsize=64)
def card_view(code: str) -> CardView:
    """The face of one card."""
    info = card(code)
    colour = route_data(info.route).colour if info.route else None
    return CardView(
        code=code,
        kind=info.kind,
        name=info.name,
        points=info.points,
        route=info.route,
        number=info.number,
        town=info.town,
        colour=colour,
    )


@lru_cache(maxsize=1024)
def flight_view(flight: Flight) -> FlightView:
    """One flight as the table shows it."""
    data = route_data(flight.route)
    filled = {stop.number: stop.by for stop in flight.stops}
    stops = tuple(
        StopView(number=s.number, town=s.town, filled=filled.get(s.number)) for s in data.stops
    )
    obstacles = tuple(
        ObstacleView(
            kind=o.kind,
            name=OBSTACLE_NAMES[o.kind],
            beside=o.beside,
            cancelled=o.cancelled,
            cancelled_by=REMEDY_NAMES[o.kind] if o.cancelled else None,
        )
        for o in flight.obstacles
    )
    return FlightView(
        route=flight.route,
        name=route_name(flight.route),
        colour=data.colour,
        colour_name=data.colour_name,
        started=flight.started,
        landed=flight.landed,
        stops=stops,
        obstacles=obstacles,
        next_number=flight.next_number,
        blocked=flight.open_obstacle is not None,
    )


def _seats(state: FlightState) -> tuple[SeatView, ...]:
    """Hand sizes and scores of every seat."""
    return tuple(
        SeatView(
            seat=s,
            hand_size=len(hand),
            score=state.scores[s],
            is_dealer=s == state.dealer,
            first_out=state.first_out == s,
        )
        for s, hand in enumerate(state.hands)
    )


def build_view(state: FlightState, viewer: int | None) -> FlightGameView:
    """The public view, plus the viewer's own hand when a seat is given."""
    step = state.step
    own = viewer is not None and 0 <= viewer < state.players
    mine = own and viewer == state.turn and not state.over
    assert viewer is None or own, viewer  # a seat of this table, or the public view
    return FlightGameView(
        players=state.players,
        viewer=viewer,
        hand_number=state.hand_number,
        dealer=state.dealer,
        turn=None if state.over else state.turn,
        phase=step.phase,
        played_this_turn=step.played,
        special_played=step.special,
        route_flight=step.route_flight,
        match=state.options.match,
        target=state.options.target,
        hands_to_play=state.options.hands,
        flights=tuple(flight_view(f) for f in state.flights),
        exposed_discard=card_view(state.discards[-1]) if state.discards else None,
        discard_size=len(state.discards),
        pack_size=len(state.pack),
        seats=_seats(state),
        scores=state.scores,
        first_out=state.first_out,
        results=state.results,
        winners=state.winners,
        over=state.over,
        stand_in_note=stand_in_note(),
        hand=tuple(card_view(c) for c in state.hands[viewer]) if viewer is not None else None,
        playable=playable_cards(state, viewer) if mine and viewer is not None else (),
        pending=card_view(step.pending) if mine and step.pending else None,
    )
