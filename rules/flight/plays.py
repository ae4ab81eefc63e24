"""Which card may go where (rules 3–8), why not, and laying a card on the table."""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Event, seat_ref
from rules.core.words import Said, said
from rules.flight.data import CardInfo, card, route_name
from rules.flight.state import Flight, FlightState, Obstacle, Step, Stop

# A reason a card can't be played, said only when asked: legal moves (and the AI's searches)
# test every card in hand on every step, and most reasons are never read.
Reason = Callable[[], Said]


def holds_aeroplane(hand: tuple[str, ...]) -> bool:
    """Rule 3(a): a player holding an Aeroplane must play one and nothing else."""
    return any(card(code).kind == "aeroplane" for code in hand)


def _obstacle_spots(state: FlightState, kind: str) -> tuple[str, ...]:
    """Rule 5 + ruling: beside the flight's last Route card, one obstacle per flight at a time."""
    spots = []
    for flight in state.flights:
        if not flight.started or flight.landed or flight.open_obstacle is not None:
            continue
        if not flight.stops or flight.stops[-1].by != "route":
            continue
        if kind == "fog" and flight.stops[-1].number >= 5:
            continue
        spots.append(flight.route)
    return tuple(spots)


def _remedy_spots(state: FlightState, obstacle: str) -> tuple[str, ...]:
    """Rule 6(a): a remedy goes on top of an uncancelled obstacle of its kind."""
    return tuple(
        f.route
        for f in state.flights
        if f.open_obstacle is not None and f.open_obstacle.kind == obstacle
    )


def _landing_spots(state: FlightState) -> tuple[str, ...]:
    """Rule 8: positions 1–5 filled and no uncancelled obstacle."""
    return tuple(
        f.route
        for f in state.flights
        if f.started and not f.landed and len(f.stops) == 5 and f.open_obstacle is None
    )


def targets(state: FlightState, code: str) -> tuple[str, ...]:
    """Routes whose flight could take this card now, by the table alone (route order)."""
    info = card(code)
    if info.kind == "aeroplane":
        assert info.route is not None
        return () if state.flight(info.route).started else (info.route,)
    if info.kind == "route":
        assert info.route is not None
        return (info.route,) if _route_reason(state, info) is None else ()
    if info.kind in ("fog", "customs"):
        return _obstacle_spots(state, info.kind)
    if info.kind == "alt":
        return _remedy_spots(state, "fog")
    if info.kind == "passport":
        return _remedy_spots(state, "customs")
    return _landing_spots(state)


def _route_reason(state: FlightState, info: CardInfo) -> Reason | None:
    """Why this Route card cannot extend its flight now (rules 4 and 6), or None."""
    assert info.route is not None and info.number is not None
    flight = state.flight(info.route)
    name = route_name(info.route)
    if not flight.started:
        return lambda: said(
            "The {route} Aeroplane is not on the table yet — Route cards follow it (rule 4).",
            route=name,
        )
    obstacle = flight.open_obstacle
    if obstacle is not None and obstacle.kind == "fog":
        return lambda: said(
            "The {route} flight is held up by Fog until an Alternative Route cancels it (rule 6).",
            route=name,
        )
    if obstacle is not None:
        return lambda: said(
            "The {route} flight is held up by Customs until a Passport cancels it (rule 6).",
            route=name,
        )
    if info.number < flight.next_number:
        return lambda: said(
            "Position {number} of the {route} flight is already filled (rule 6b).",
            number=info.number,
            route=name,
        )
    if info.number > flight.next_number:
        return lambda: said(
            "Route cards go in numerical order: the {route} flight needs {route} {number} next "
            "(rule 4).",
            route=name,
            number=flight.next_number,
        )
    return None


def _table_reason(state: FlightState, info: CardInfo) -> Reason | None:
    """Why the table has no place for this card, or None."""
    if targets(state, info.code):
        return None
    if info.kind == "route":
        return _route_reason(state, info)
    if info.kind == "aeroplane":
        return lambda: said("{card} is already on the table.", card=info.name)
    if info.kind == "fog":
        return lambda: said(
            "Fog goes beside the last Route card of a flight that is not already held up, "
            "and never beside Route 5 (rule 5)."
        )
    if info.kind == "customs":
        return lambda: said(
            "Customs goes beside the last Route card of a flight that is not already held up "
            "(rule 5)."
        )
    if info.kind == "alt":
        return lambda: said(
            "An Alternative Route can only be played on an uncancelled Fog (rule 6a)."
        )
    if info.kind == "passport":
        return lambda: said("A Passport can only be played on an uncancelled Customs (rule 6a).")
    return lambda: said(
        "A Safe Landing needs a flight with positions 1–5 all filled and no uncancelled "
        "Fog or Customs (rule 8)."
    )


def _turn_reason(state: FlightState, seat: int, info: CardInfo) -> Reason | None:
    """Why this turn no longer allows this card (rules 2, 3, 4 and 7), or None."""
    step = state.step
    hand = state.hands[seat]
    if step.aeroplane:
        return lambda: said(
            "You played an Aeroplane this turn, so you may play nothing else (rule 3a)."
        )
    if info.kind != "aeroplane" and holds_aeroplane(hand):
        return lambda: said(
            "You hold an Aeroplane: you must play it and nothing else this turn (rule 3a)."
        )
    if info.kind != "landing" and len(hand) < 2:
        return lambda: said(
            "You can't play your last card — it must be discarded. Only a Safe Landing may be "
            "played as your last card (rule 2)."
        )
    if info.kind in ("fog", "customs", "alt", "passport") and step.special:
        return lambda: said(
            "Only one Fog, Customs, Alternative Route or Passport may be played per turn (rule 7)."
        )
    if info.kind == "route" and step.route_flight not in (None, info.route):
        assert step.route_flight is not None
        return lambda: said(
            "You already played Route cards on the {route} flight this turn; Route cards go on "
            "only one flight per turn (rule 4).",
            route=route_name(step.route_flight),
        )
    return None


def why_unplayable(state: FlightState, seat: int, code: str) -> Said | None:
    """Why `seat` cannot play card `code` now, or None when it is playable."""
    reason = _why_not(state, seat, code)
    return None if reason is None else reason()


def _why_not(state: FlightState, seat: int, code: str) -> Reason | None:
    """Why `seat` cannot play card `code` now (to be said), or None when it is playable."""
    if code not in state.hands[seat]:
        return lambda: said("You don't hold that card.")
    if state.over:
        return lambda: said("The match is over.")
    if state.turn != seat:
        return lambda: said("It is not your turn.")
    phase = state.step.phase
    if phase == "draw":
        return lambda: said("Draw first (from the pack or the exposed discard), then play.")
    if phase == "target":
        return lambda: said("Finish placing the card you chose (or cancel it) first.")
    info = card(code)
    reason = _turn_reason(state, seat, info) or _table_reason(state, info)
    if phase == "discard":
        # Say why the card could not be played, else that the player chose to stop.
        return reason or (
            lambda: said("You finished playing this turn: discard one card to end it.")
        )
    return reason


def playable_cards(state: FlightState, seat: int) -> tuple[str, ...]:
    """Distinct cards in the hand that may be played now, in hand order."""
    seen: list[str] = []
    for code in state.hands[seat]:
        if code not in seen and _why_not(state, seat, code) is None:
            seen.append(code)
    return tuple(seen)


def _lay_on_flight(flight: Flight, info: CardInfo) -> Flight:
    """The flight after `info` is laid on it (rules 4, 5, 6 and 8)."""
    if info.kind == "aeroplane":
        return flight.model_copy(update={"started": True})
    if info.kind == "route":
        assert info.number is not None
        return flight.model_copy(
            update={"stops": (*flight.stops, Stop(number=info.number, by="route"))}
        )
    if info.kind in ("fog", "customs"):
        beside = flight.stops[-1].number
        obstacle = Obstacle(kind="fog" if info.kind == "fog" else "customs", beside=beside)
        return flight.model_copy(update={"obstacles": (*flight.obstacles, obstacle)})
    if info.kind in ("alt", "passport"):
        return _cancel_obstacle(flight, info)
    return flight.model_copy(update={"landed": True})


def _cancel_obstacle(flight: Flight, info: CardInfo) -> Flight:
    """Rule 6: cover the open obstacle; an Alternative Route also fills the next position."""
    obstacles = tuple(
        o.model_copy(update={"cancelled": True}) if not o.cancelled else o for o in flight.obstacles
    )
    stops = flight.stops
    if info.kind == "alt":
        stops = (*stops, Stop(number=flight.next_number, by="alternative"))
    return flight.model_copy(update={"obstacles": obstacles, "stops": stops})


def _step_after(step: Step, info: CardInfo) -> Step:
    """The turn's bookkeeping after one more card is played."""
    update: dict[str, object] = {"played": step.played + 1, "pending": None, "phase": "play"}
    if info.kind == "aeroplane":
        update["aeroplane"] = True
    elif info.kind == "route":
        update["route_flight"] = info.route
    elif info.kind != "landing":
        update["special"] = True
    return step.model_copy(update=update)


def lay_card(state: FlightState, seat: int, code: str, route: str) -> tuple[FlightState, Event]:
    """Move `code` from the seat's hand onto `route`'s flight; the caller checked legality."""
    info = card(code)
    hand = list(state.hands[seat])
    hand.remove(code)
    flight = state.flight(route)
    new = state.with_hand(seat, tuple(hand)).with_flight(_lay_on_flight(flight, info))
    new = new.model_copy(update={"step": _step_after(state.step, info)})
    return new, Event(kind="card_played", text=_play_text(seat, info, flight))


def _play_text(seat: int, info: CardInfo, flight: Flight) -> Said:
    """The public log line for one play."""
    who = seat_ref(seat)
    route = route_name(flight.route)
    if info.kind == "aeroplane":
        return said(
            "{who} played {card}: the {route} flight has taken off.",
            who=who,
            card=info.name,
            route=route,
        )
    if info.kind == "route":
        return said(
            "{who} played {card} on the {route} flight.", who=who, card=info.name, route=route
        )
    if info.kind in ("fog", "customs"):
        return said(
            "{who} laid {card} beside Route {number} of the {route} flight.",
            who=who,
            card=info.name,
            number=flight.stops[-1].number,
            route=route,
        )
    if info.kind == "alt":
        return said(
            "{who} played an Alternative Route on the Fog of the {route} flight: it replaces "
            "Route {number}.",
            who=who,
            route=route,
            number=flight.next_number,
        )
    if info.kind == "passport":
        return said(
            "{who} played a Passport on the Customs of the {route} flight.", who=who, route=route
        )
    return said("{who} played a Safe Landing on the {route} flight!", who=who, route=route)
