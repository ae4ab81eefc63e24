"""The Fly Action as a sequence of decisions (rulebook: Fly Action, Example Flight)."""

from __future__ import annotations

from rules.core import Action, Event
from rules.core.words import said
from rules.first_in_flight.board import set_pawn
from rules.first_in_flight.common import (
    abilities,
    card_name,
    card_short,
    data_of,
    ev,
    exhaust,
    is_ready,
    next_seq,
    player,
    pop,
    push,
    set_player,
    shuffled,
    who,
)
from rules.first_in_flight.data import Distance, DistancePer
from rules.first_in_flight.effects import apply_effects
from rules.first_in_flight.keys import (
    Done,
    Garage,
    Key,
    format_key,
    unexpected,
)
from rules.first_in_flight.row import draw_into_flight, flight_of, set_flight
from rules.first_in_flight.scoring import flight_distance
from rules.first_in_flight.state import FlightState, Owned, State, Step


def start_flight(state: State, seat: int, *, final: bool) -> tuple[State, list[Event]]:
    """Shuffle deck and Garage flaws (not Descend), reset Skills, begin drawing."""
    mat = player(state, seat)
    data = data_of(state)
    deck, state = shuffled(state, (*mat.deck, *(g for g in mat.garage if g)))
    cards = tuple(
        Owned(card=o.card, exhausted=o.exhausted and data.dev(o.card).type != "skill")
        for o in mat.cards
    )
    pilot_used = mat.pilot_used
    if any(a.limit == "flight" for src, a in abilities(state, seat) if src == "pilot"):
        pilot_used = 0
    state = set_player(
        state, seat, deck=deck, garage=("", ""), known_top=(), cards=cards, pilot_used=pilot_used
    )
    state = state.model_copy(update={"flight": FlightState(seat=seat, final=final)})
    state = push(state, Step(kind="flight", seat=seat))
    if final:
        text = said("{who} shuffled their deck and began a final Flight.", who=who(seat))
    else:
        text = said("{who} shuffled their deck and began a Flight.", who=who(seat))
    return state, [ev("flight_started", text, reveals=True)]


def descend(state: State) -> tuple[State, list[Event]]:
    """Play Descend: shuffle the rest, draw exactly 2 (rulebook: Fly step 4; ruling 4)."""
    f = flight_of(state)
    seat = f.seat
    flaws = sum(1 for rc in f.row if data_of(state).flight(rc.card).kind == "flaw")
    # the Descend card is the next card added: a pending Elevator Control no longer scraps
    state = set_flight(
        state,
        descended=True,
        descend_at=len(f.row),
        pitch=False,
        elevator=False,
        flaws_at_descend=flaws,
        landing_left=2,
    )
    deck, state = shuffled(state, player(state, seat).deck)
    state = set_player(state, seat, deck=deck, known_top=())
    text = said("{who} played Descend and shuffled the rest.", who=who(seat))
    events = [ev("descended", text, reveals=True)]
    while (
        flight_of(state).landing_left and player(state, seat).deck and not flight_of(state).crashed
    ):
        state = set_flight(state, landing_left=flight_of(state).landing_left - 1)
        state, more = draw_into_flight(state)
        events += more
    if not flight_of(state).crashed:
        state = set_flight(state, landed=True)
        events.append(ev("landed", said("{who} landed safely.", who=who(seat))))
    return state, events


def is_over(state: State) -> bool:
    """True when the Flight has crashed or landed and waits to be scored."""
    f = state.flight
    return f is not None and not f.done and (f.crashed or f.landed)


def finish_flight(state: State) -> tuple[State, list[Event]]:
    """Triggers, Distance, record, Famous, 40 trigger, then cleanup (rulebook: Fly 5–6)."""
    f = flight_of(state)
    seat = f.seat
    state = pop(state)
    state, events = _landing_triggers(state, seat)
    distance, parts = flight_distance(state)
    state = set_flight(state, distance=distance, done=True)
    values = {"who": who(seat), "distance": distance, "parts": parts}
    if f.crashed:
        text = said("{who}'s Flight crashed: {distance} Distance ({parts}).", **values)
    else:
        text = said("{who}'s Flight landed: {distance} Distance ({parts}).", **values)
    events.append(ev("scored", text))
    if f.crashed and not f.no_lie_down and not f.final:
        state = set_pawn(state, seat, standing=False)
    state, more = set_record(state, seat, distance)
    events += more
    state = set_player(state, seat, flights=player(state, seat).flights + 1)
    flaws = [
        rc.card for rc in flight_of(state).row if data_of(state).flight(rc.card).kind == "flaw"
    ]
    if flaws and not f.final:
        return push(state, Step(kind="cleanup", seat=seat)), events
    return end_flight(state, ()), events


def _landing_triggers(state: State, seat: int) -> tuple[State, list[Event]]:
    """On-crash and on-land abilities (only Distance counts in a final Flight)."""
    f = flight_of(state)
    when = "on_crash" if f.crashed else "on_land"
    events: list[Event] = []
    for src, ability in abilities(state, seat):
        if ability.when != when or not is_ready(state, seat, src, ability):
            continue
        effects = ability.effects
        if f.final:
            effects = tuple(e for e in effects if isinstance(e, (Distance, DistancePer)))
        if ability.limit != "none":
            state = exhaust(state, seat, src)
        state, more = apply_effects(state, seat, effects, src)
        events += more
    return state, events


def set_record(state: State, seat: int, distance: int) -> tuple[State, list[Event]]:
    """Move the record tracker, become Famous at 15+, trigger the end at 40+."""
    data = data_of(state)
    mat = player(state, seat)
    if distance <= mat.record:
        return state, []
    seq, state = next_seq(state)
    state = set_player(state, seat, record=distance, record_seq=seq, record_year=state.year)
    events = [ev("record", said("{who} set a new record of {n}!", who=who(seat), n=distance))]
    final = flight_of(state).final
    for src, ability in abilities(state, seat):
        if ability.when == "on_record" and not final:
            state, more = apply_effects(state, seat, ability.effects, src)
            events += more
    if distance >= data.famous_at and not mat.famous:
        state = set_player(state, seat, famous=True, pilot_used=0)
        events.append(ev("famous", said("{who} became Famous!", who=who(seat))))
        if not final:
            benefit = data.pilot(mat.pilot).fame_benefit
            state, more = apply_effects(state, seat, benefit, "pilot")
            events += more
    if distance >= data.end_at and state.end_trigger == -2:
        state = state.model_copy(update={"end_trigger": seat})
        events.append(
            ev(
                "end_triggered",
                said("{who} flew {n}: everyone takes a final Flight!", who=who(seat), n=distance),
            )
        )
    return state, events


def cleanup_actions(state: State, step: Step) -> list[Action]:
    """Choose up to 2 revealed Design Flaws for the Garage, left slot first."""
    left = list(_revealed_flaws(state))
    for k in step.kept:
        left.remove(k)
    acts = [
        Action(
            key=format_key(Garage(c)),
            label=_to_garage(card_name(state, c), left_slot=not step.kept),
            group=said("Garage"),
            description=card_short(state, c),
        )
        for c in dict.fromkeys(left)
    ]
    if len(step.kept) < 2 and acts:
        return [*acts, Action(key=format_key(Done()), label=said("Done"), style="primary")]
    return [Action(key=format_key(Done()), label=said("Done"), style="primary")]


def _to_garage(card: str, *, left_slot: bool) -> str:
    """'Power Failure → left Garage'."""
    if left_slot:
        return said("{card} → left Garage", card=card)
    return said("{card} → right Garage", card=card)


def _revealed_flaws(state: State) -> tuple[str, ...]:
    """Design Flaws in the Flight row."""
    data = data_of(state)
    return tuple(rc.card for rc in flight_of(state).row if data.flight(rc.card).kind == "flaw")


def handle_cleanup(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Put a flaw in the Garage, or finish cleanup."""
    if isinstance(key, Done):
        return end_flight(pop(state), step.kept), []
    if not isinstance(key, Garage):
        raise unexpected(key, step.kind)
    card = key.card
    kept = (*step.kept, card)
    state = pop(state)
    values = {"who": who(step.seat), "card": card_name(state, card)}
    if len(kept) == 1:
        text = said("{who} put {card} in the left Garage slot.", **values)
    else:
        text = said("{who} put {card} in the right Garage slot.", **values)
    event = ev("garage", text)
    if len(kept) == 2:
        return end_flight(state, kept), [event]
    return push(state, step.model_copy(update={"kept": kept})), [event]


def end_flight(state: State, garaged: tuple[str, ...]) -> State:
    """Return the Flight's cards to the deck (flaws chosen go to the Garage)."""
    f = flight_of(state)
    rest = [rc.card for rc in f.row]
    for card in garaged:
        rest.remove(card)
    mat = player(state, f.seat)
    garage = (garaged[0] if garaged else "", garaged[1] if len(garaged) > 1 else "")
    state = set_player(state, f.seat, deck=(*mat.deck, *rest), garage=garage)
    return state.model_copy(update={"flight": None})
