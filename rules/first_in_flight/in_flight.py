"""The Flight step: draw, Descend, the ability menus, and Pitch Instability's exhaust-or-Descend.

Kept apart from flight.py (the Flight's mechanics) so that the menus, which need the choice
chain in actions.py, are not imported by the module actions.py uses to start a Flight.
"""

from __future__ import annotations

from rules.core import Action, Event
from rules.core.words import said
from rules.first_in_flight.common import (
    card_name,
    card_short,
    data_of,
    ev,
    exhaust,
    player,
    push,
    who,
)
from rules.first_in_flight.flight import descend
from rules.first_in_flight.keys import (
    Descend,
    Draw,
    Exhaust,
    Key,
    OpenMenu,
    format_key,
    unexpected,
)
from rules.first_in_flight.menus import menu_sources
from rules.first_in_flight.row import draw_into_flight, flight_of, set_flight
from rules.first_in_flight.state import State, Step


def ready_skills(state: State, seat: int) -> list[str]:
    """This seat's Skill cards that are not exhausted."""
    data = data_of(state)
    return [
        o.card
        for o in player(state, seat).cards
        if not o.exhausted and data.dev(o.card).type == "skill"
    ]


def flight_actions(state: State, step: Step) -> list[Action]:
    """Draw, Descend, or open an ability menu; Pitch Instability forces exhaust-or-Descend."""
    f = flight_of(state)
    seat = step.seat
    if f.pitch:
        acts = [
            Action(
                key=format_key(Exhaust(c)),
                label=said("Exhaust {card}", card=card_name(state, c)),
                group=said("Pitch Instability: exhaust a Skill"),
                description=card_short(state, c),
            )
            for c in ready_skills(state, seat)
        ]
        return [*acts, Action(key=format_key(Descend()), label=said("Descend"), style="danger")]
    acts = []
    if player(state, seat).deck:
        acts.append(
            Action(key=format_key(Draw()), label=said("Draw a card"), style="primary", emoji="🃏")
        )
    if f.row:
        acts.append(
            Action(key=format_key(Descend()), label=said("Descend"), style="success", emoji="🛬")
        )
    if menu_sources(state, seat, "skill"):
        acts.append(Action(key=format_key(OpenMenu("skill")), label=said("Use a Skill…")))
    if menu_sources(state, seat, "other"):
        acts.append(
            Action(key=format_key(OpenMenu("other")), label=said("Use a Friend or Pilot ability…"))
        )
    if not acts:
        acts.append(Action(key=format_key(Descend()), label=said("Descend"), style="success"))
    return acts


def handle_flight(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Resolve a Flight decision."""
    seat = step.seat
    match key:
        case Draw():
            return draw_into_flight(state)
        case Descend():
            return descend(state)
        case Exhaust(card):
            state = set_flight(exhaust(state, seat, card), pitch=False)
            return state, [
                ev(
                    "exhausted",
                    said(
                        "{who} exhausted {card} for Pitch Instability.",
                        who=who(seat),
                        card=card_name(state, card),
                    ),
                )
            ]
        case OpenMenu(menu):
            return push(state, Step(kind="abilities", seat=seat, dest=menu)), []
    raise unexpected(key, step.kind)
