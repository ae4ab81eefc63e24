"""Gustave, the automa of the 2-player and solo games (rulebook: 2-Player Rules; ruling 10)."""

from __future__ import annotations

from rules.core import Event
from rules.core.words import Said, said
from rules.first_in_flight.board import action_spaces, enter_start_area, move_pawn, occupant, spaces
from rules.first_in_flight.common import data_of, ev, next_seq
from rules.first_in_flight.data import GustaveLevel
from rules.first_in_flight.labels import space_name
from rules.first_in_flight.state import DEV_TYPES, State, gustave_actor


def level(state: State) -> GustaveLevel:
    """Gustave's gains: Standard/Advanced in 2 players; Advanced (or expert) in solo."""
    data = data_of(state)
    if state.players == 1:
        return data.gustave["expert" if state.options.solo_expert else "advanced"]
    return data.gustave[state.options.gustave]


def raise_record(state: State, n: int, why: str) -> tuple[State, list[Event]]:
    """Increase Gustave's record; reaching 40 triggers the end of the game."""
    seq, state = next_seq(state)
    record = state.gustave_record + n
    state = state.model_copy(update={"gustave_record": record, "gustave_record_seq": seq})
    events = [ev("gustave_record", _rose(why, record))]
    if record >= data_of(state).end_at and state.end_trigger == -2:
        state = state.model_copy(update={"end_trigger": gustave_actor(state)})
        text = said("Gustave reached 40: everyone takes a final Flight!")
        events.append(ev("end_triggered", text))
    return state, events


def _rose(why: str, record: int) -> Said:
    """'Gustave flew: his record rose to 23.' — why: "year", "flew" or "final"."""
    if why == "year":
        return said("Gustave ended the Year: his record rose to {n}.", n=record)
    if why == "final":
        return said("Gustave took his final Flight: his record rose to {n}.", n=record)
    return said("Gustave flew: his record rose to {n}.", n=record)


def take_turn(state: State) -> tuple[State, list[Event]]:
    """Move to the next available Action Space and act there (or enter the start area)."""
    me = gustave_actor(state)
    here = state.pawns[me].pos
    free = [p for p in action_spaces(state) if p > here and occupant(state, p, me) is None]
    if not free:
        return enter_start_area(state, me), [
            ev("gustave_moved", said("Gustave moved to the start area."))
        ]
    pos = free[0]
    state = move_pawn(state, me, pos)
    events = [ev("gustave_moved", said("Gustave moved to {space}.", space=space_name(state, pos)))]
    actions = [o.action for o in spaces(state)[pos].options]
    if "fly" in actions or "any" in actions:
        state, more = raise_record(state, level(state).fly, "flew")
        return state, events + more
    for kind in ("technology", "friend", "skill"):  # Technology over Friend (rulebook)
        if kind in actions and state.display[DEV_TYPES.index(kind)]:
            return _remove_card(state, kind, events)
    return state, events


def _remove_card(state: State, kind: str, events: list[Event]) -> tuple[State, list[Event]]:
    """Take the bottommost face-up card of that type (ruling 6: the last dealt)."""
    i = DEV_TYPES.index(kind)
    display = list(state.display)
    card = display[i][-1]
    display[i] = display[i][:-1]
    name = Said(data_of(state).dev(card).name)
    state = state.model_copy(
        update={"display": tuple(display), "gustave_cards": (*state.gustave_cards, card)}
    )
    return state, [*events, ev("gustave_card", said("Gustave took {card}.", card=name))]


def year_end(state: State) -> tuple[State, list[Event]]:
    """Before the Michelin Cup, Gustave's record rises by his Year value."""
    return raise_record(state, level(state).year, "year")


def final_flight(state: State) -> tuple[State, list[Event]]:
    """Gustave's final Fly."""
    return raise_record(state, level(state).fly, "final")
