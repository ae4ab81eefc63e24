"""The Flight row: drawing, adding cards, Problems, crash, and the flaw effects (rulebook: Fly)."""

from __future__ import annotations

from rules.core import Event
from rules.core.words import Said, said
from rules.first_in_flight.common import (
    card_name,
    data_of,
    ev,
    has_mod,
    modifiers,
    player,
    set_player,
    who,
)
from rules.first_in_flight.data import ExhaustOrDescend, Gain, ReduceLargest, ScrapNext
from rules.first_in_flight.state import SUPPLY, FlightState, RowCard, State


def flight_of(state: State) -> FlightState:
    """The Flight in progress (an invariant: only called while one is)."""
    assert state.flight is not None
    return state.flight


def set_flight(state: State, **changes: object) -> State:
    """A copy with the Flight changed."""
    return state.model_copy(update={"flight": flight_of(state).model_copy(update=changes)})


def problem_count(state: State) -> int:
    """Problems counting in the Flight now (Delicate Wing doubling, ignored icons, Tetrahedral)."""
    flight = flight_of(state)
    data = data_of(state)
    seat = flight.seat
    free_kinds = [m.card for m in modifiers(state, seat, "first_no_problem")]
    total, first_seen = 0, False
    for rc in flight.row:
        spec = data.flight(rc.card)
        if spec.problems == 0:
            continue
        if spec.id in free_kinds:
            free_kinds.remove(spec.id)
            continue
        if rc.ignored:
            continue
        n = spec.problems
        doubles = spec.first_problem_counts and not has_mod(state, seat, "flaw_single", spec.id)
        if not first_seen and doubles:
            n = spec.first_problem_counts
        first_seen = True
        total += n
    return total


def is_pending(state: State, kind: str) -> bool:
    """True when an uncancelled flaw of this kind still has its effect in this Flight."""
    flight = flight_of(state)
    spec = data_of(state).flight(kind)
    if any(isinstance(e, ScrapNext) for e in spec.on_draw) and flight.elevator:
        return True
    if any(isinstance(e, ExhaustOrDescend) for e in spec.on_draw) and flight.pitch:
        return True
    if any(isinstance(e, ReduceLargest) for e in spec.at_scoring):
        return any(rc.card == kind and not rc.cancelled for rc in flight.row)
    return False


def draw_top(state: State, seat: int) -> tuple[str, State]:
    """Take the top card of a seat's deck (its known order shifts by one)."""
    mat = player(state, seat)
    card = mat.deck[0]
    state = set_player(state, seat, deck=mat.deck[1:], known_top=mat.known_top[1:])
    return card, state


def take_supply(state: State, name: str) -> tuple[bool, State]:
    """Take one Glide/Experience/Basic Flight Problem from the limited supply."""
    i = SUPPLY.index(name)
    if state.supply[i] <= 0:
        return False, state
    supply = list(state.supply)
    supply[i] -= 1
    return True, state.model_copy(update={"supply": tuple(supply)})


def return_supply(state: State, name: str) -> State:
    """Put a scrapped supply card back."""
    supply = list(state.supply)
    supply[SUPPLY.index(name)] += 1
    return state.model_copy(update={"supply": tuple(supply)})


def add_to_flight(state: State, card: str, *, drawn: bool) -> tuple[State, list[Event]]:
    """Add a card to the Flight row: Elevator scrap, Throttle Up, crash check, on-draw effects."""
    flight = flight_of(state)
    seat = flight.seat
    spec = data_of(state).flight(card)
    name = Said(spec.name)
    if flight.elevator:
        state = set_flight(state, elevator=False)
        if spec.kind == "glide":
            state = return_supply(state, spec.id)
            return state, [
                ev(
                    "scrapped",
                    said("{who}'s Unreliable Elevator Control scrapped a Glide.", who=who(seat)),
                )
            ]
    bonus = 0
    if spec.kind == "upgrade" and flight.next_upgrade_bonus:
        bonus = flight.next_upgrade_bonus
        state = set_flight(state, next_upgrade_bonus=0)
    row = (*flight_of(state).row, RowCard(card=spec.id, bonus=bonus))
    state = set_flight(state, row=row)
    if drawn:
        text = said("{who} drew {card} into the Flight.", who=who(seat), card=name)
    else:
        text = said("{who} added {card} into the Flight.", who=who(seat), card=name)
    events = [ev("card_added", text, reveals=drawn)]
    crash_at = data_of(state).crash_at
    if problem_count(state) >= crash_at:
        state = set_flight(state, crashed=True)
        text = said("{who} revealed a {n}th Problem and crashed!", who=who(seat), n=crash_at)
        events.append(ev("crashed", text))
        return state, events
    for effect in spec.on_draw if drawn else ():
        state, more = _on_draw(state, effect, spec.id)
        events += more
        if flight_of(state).crashed:
            break
    return state, events


def _on_draw(state: State, effect: object, card: str) -> tuple[State, list[Event]]:
    """One on-draw effect of a card just drawn into the Flight."""
    flight = flight_of(state)
    seat = flight.seat
    if isinstance(effect, Gain) and effect.card in SUPPLY:
        ok, state = take_supply(state, effect.card)
        if ok:
            return add_to_flight(state, effect.card, drawn=False)
        text = said("No {card} left to gain.", card=card_name(state, effect.card))
        return state, [ev("supply_empty", text)]
    if isinstance(effect, ExhaustOrDescend):
        if flight.descended or has_mod(state, seat, "flaw_immune", card):
            return state, []
        return set_flight(state, pitch=True), []
    if isinstance(effect, ScrapNext):
        return set_flight(state, elevator=True), []
    return state, []


def draw_into_flight(state: State) -> tuple[State, list[Event]]:
    """Draw the top card of the flyer's deck into the Flight."""
    seat = flight_of(state).seat
    card, state = draw_top(state, seat)
    return add_to_flight(state, card, drawn=True)


def count_per(state: State, per: str) -> int:
    """How many things a per-thing Distance bonus counts in the Flight (or play area)."""
    f = flight_of(state)
    data = data_of(state)
    kinds = [data.flight(rc.card) for rc in f.row]
    if per == "upgrade":
        return sum(1 for k in kinds if k.kind == "upgrade")
    if per == "upgrade_ge4":
        return sum(1 for k in kinds if k.kind == "upgrade" and k.distance >= 4)
    if per == "glides_per3":
        return sum(1 for k in kinds if k.kind == "glide") // 3
    if per == "recent_glides":
        return sum(1 for k in kinds[-3:] if k.kind == "glide")
    mat = player(state, f.seat)
    return sum(1 for o in mat.cards if data.dev(o.card).type == "friend")
