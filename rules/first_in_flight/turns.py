"""The turn loop: whose turn, the turn step, Recover, Year end, Michelin Cup, the end game."""

from __future__ import annotations

from rules.core import Action, Event
from rules.core.words import said
from rules.first_in_flight import gustave
from rules.first_in_flight.actions import begin, move_targets
from rules.first_in_flight.board import (
    current_actor,
    enter_start_area,
    occupant,
    order,
    reset_for_new_year,
    set_pawn,
    time_available,
    time_target,
)
from rules.first_in_flight.common import (
    add_coins,
    data_of,
    ev,
    is_peltier,
    katharine_source,
    pop,
    push,
    shuffled,
    source_name,
    who,
)
from rules.first_in_flight.flight import finish_flight, is_over, start_flight
from rules.first_in_flight.keys import (
    Key,
    Move,
    OpenMenu,
    Recover,
    StartArea,
    format_key,
    unexpected,
)
from rules.first_in_flight.labels import space_does, space_label
from rules.first_in_flight.menus import menu_sources
from rules.first_in_flight.state import DEV_TYPES, Owned, State, Step, gustave_actor
from rules.first_in_flight.words import coins


def turn_actions(state: State, step: Step) -> list[Action]:
    """Move to a space, go to the start area, Recover, or use an ability."""
    seat = step.seat
    acts = []
    if not state.pawns[seat].standing:
        acts.append(
            Action(key=format_key(Recover()), label=said("Recover (pay 2 Time)"), style="primary")
        )
    else:
        acts += [
            Action(
                key=format_key(Move(p)),
                label=_move_label(state, seat, p),
                group=said("Move to"),
                description=space_does(state, p),
            )
            for p in move_targets(state, seat)
        ]
        acts.append(Action(key=format_key(StartArea()), label=said("Go to the start area")))
    if menu_sources(state, seat, "other"):
        acts.append(
            Action(key=format_key(OpenMenu("other")), label=said("Use a Friend or Pilot ability…"))
        )
    return acts


def _move_label(state: State, seat: int, pos: int) -> str:
    """The space; an occupied one reached through Peltier's copy of Katharine Wright says so."""
    label = space_label(state, pos)
    if occupant(state, pos, seat) is None:
        return label
    src = katharine_source(state, seat)
    if not is_peltier(src):
        return label
    return said("{space} ({source})", space=label, source=source_name(state, src))


def handle_turn(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Resolve a turn decision."""
    seat = step.seat
    match key:
        case Recover():
            return recover(pop(state), seat)
        case StartArea():
            state = enter_start_area(pop(state), seat)
            return state, [ev("start_area", said("{who} moved to the start area.", who=who(seat)))]
        case OpenMenu():
            return push(state, Step(kind="abilities", seat=seat, dest="other")), []
        case Move(pos):
            via = "katharine" if occupant(state, pos, seat) is not None else "move"
            return begin(state, Step(kind="space", seat=seat, space=pos, via=via))
    raise unexpected(key, step.kind)


def recover(state: State, seat: int) -> tuple[State, list[Event]]:
    """Pay 2 Time (as far as the Year allows, ruling 3) and stand up."""
    pos = state.pawns[seat].pos
    t = min(2, time_available(state, pos))
    target = time_target(state, pos, t)
    assert target is not None
    from rules.first_in_flight.board import move_pawn

    if t:
        state = move_pawn(state, seat, target)
    state = set_pawn(state, seat, standing=True)
    return state, [ev("recovered", said("{who} recovered (paid {n} Time).", who=who(seat), n=t))]


def settle(state: State) -> tuple[State, list[Event]]:
    """After a decision: score a finished Flight, then run the game until someone must decide."""
    events: list[Event] = []
    while not state.over:
        top = state.steps[-1] if state.steps else None
        if top is not None and top.kind == "flight" and is_over(state):
            state, more = finish_flight(state)
            events += more
            continue
        if top is not None:
            return state, events
        state, more = _advance(state)
        events += more
    return state, events


def _advance(state: State) -> tuple[State, list[Event]]:
    """Nobody is deciding: start the next turn, Gustave's move, a Year end or a final Flight."""
    if state.final_queue is None and state.end_trigger != -2:
        return _start_final_flights(state)
    if state.final_queue is not None:
        return _next_final_flight(state)
    actor = current_actor(state)
    if actor is None:
        return end_year(state)
    if actor == gustave_actor(state):
        return gustave.take_turn(state)
    state = state.model_copy(update={"turns": state.turns + 1})
    return push(state, Step(kind="turn", seat=actor)), []


def _start_final_flights(state: State) -> tuple[State, list[Event]]:
    """Everyone flies once more, in current turn order (ruling 8)."""
    queue = tuple(order(state))
    state = state.model_copy(update={"final_queue": queue})
    return state, [ev("final_flights", said("The final Flights begin."))]


def _next_final_flight(state: State) -> tuple[State, list[Event]]:
    """Fly the next pawn in the final queue, or end the game."""
    queue = state.final_queue or ()
    if not queue:
        return state.model_copy(update={"over": True, "steps": ()}), [
            ev("game_over", said("The game is over."))
        ]
    actor, rest = queue[0], queue[1:]
    state = state.model_copy(update={"final_queue": rest})
    if actor == gustave_actor(state):
        return gustave.final_flight(state)
    return start_flight(state, actor, final=True)


def end_year(state: State) -> tuple[State, list[Event]]:
    """All pawns are in the start area (rulebook: Ending the Year)."""
    events = [ev("year_end", said("Year {year} ended.", year=state.year))]
    # Ruling (../shared/docs/games/first-in-flight.md, "End"): at the end of Year 4 "the Game
    # will immediately end" — no Year-end steps, so no Cup and no Gustave Year gain (he still
    # takes his final Flight). Tested in test_gustave_gains_nothing_at_the_end_of_year_4.
    if state.gustave and state.year < 4:
        state, more = gustave.year_end(state)
        events += more
    if state.year >= 4:
        state = state.model_copy(
            update={"end_trigger": -1 if state.end_trigger == -2 else state.end_trigger}
        )
        return state, events
    if state.end_trigger != -2:
        return state, events
    state, more = michelin_cup(state)
    events += more
    state = _note_year_records(state).model_copy(update={"year": state.year + 1})
    state, more = redeal(state)
    state = refresh(reset_for_new_year(state))
    events += more
    return state, [*events, ev("year_start", said("Year {year} began.", year=state.year))]


def _note_year_records(state: State) -> State:
    """Remember every record at the end of a finished Year (for the end-of-game chart)."""
    seats = tuple(
        m.model_copy(update={"record_by_year": (*m.record_by_year, m.record)}) for m in state.seats
    )
    gustave = state.gustave_record_by_year
    if state.gustave:
        gustave = (*gustave, state.gustave_record)
    return state.model_copy(update={"seats": seats, "gustave_record_by_year": gustave})


def cup_ranking(state: State) -> list[int]:
    """Actors who have flown, best record first; ties to the earlier record (ruling 9)."""
    records = [(m.record, m.record_seq, a) for a, m in enumerate(state.seats)]
    if state.gustave:
        records.append((state.gustave_record, state.gustave_record_seq, gustave_actor(state)))
    flown = [r for r in records if r[1] > 0]
    return [a for _, _, a in sorted(flown, key=lambda r: (-r[0], r[1]))]


def michelin_cup(state: State) -> tuple[State, list[Event]]:
    """Pay 7 / 5 / 4 by record rank; Gustave's prize is not paid; never flown → 4."""
    prizes = data_of(state).cup
    ranking = cup_ranking(state)
    events = []
    for seat in range(state.players):
        rank = ranking.index(seat) if seat in ranking else len(prizes) - 1
        prize = prizes[min(rank, len(prizes) - 1)]
        state = add_coins(state, seat, prize)
        events.append(
            ev(
                "cup",
                said(
                    "{who} received {coins} from the Michelin Cup.",
                    who=who(seat),
                    coins=coins(prize),
                ),
            )
        )
    return state, events


def redeal(state: State) -> tuple[State, list[Event]]:
    """Discard the face-up Development cards and deal new ones."""
    sizes = data_of(state).display
    decks, discards, display = list(state.dev_decks), list(state.dev_discards), list(state.display)
    for i, kind in enumerate(DEV_TYPES):
        discards[i] = (*discards[i], *display[i])
        need = sizes.get(kind, 0)
        if len(decks[i]) < need and discards[i]:
            fresh, state = shuffled(state, discards[i])
            decks[i], discards[i] = (*decks[i], *fresh), ()
        display[i], decks[i] = decks[i][:need], decks[i][need:]
    state = state.model_copy(
        update={
            "dev_decks": tuple(decks),
            "dev_discards": tuple(discards),
            "display": tuple(display),
        }
    )
    return state, [ev("redealt", said("New Development cards were dealt face up."), reveals=True)]


def refresh(state: State) -> State:
    """Refresh exhausted Pilots, Friends, Skills and once-per-Year triggers."""
    seats = tuple(
        m.model_copy(
            update={
                "cards": tuple(Owned(card=o.card) for o in m.cards),
                "pilot_used": 0,
            }
        )
        for m in state.seats
    )
    return state.model_copy(update={"seats": seats})
