"""The legal actions of each turn step: draw source → plays one by one → discard."""

from __future__ import annotations

from rules.core import Action
from rules.core.messages import plural
from rules.flight.data import card, route_data
from rules.flight.deck import pack_available
from rules.flight.keys import Cancel, Discard, Done, Draw, Play, To, format_key
from rules.flight.plays import playable_cards, targets
from rules.flight.state import FlightState

PLAY_GROUP = "Play a card"
DISCARD_GROUP = "Discard a card to end your turn"


def _points(code: str) -> str:
    """'10 pts' for select descriptions."""
    return f"{plural(card(code).points, 'pt')} in hand"


def draw_actions(state: FlightState, seat: int) -> list[Action]:
    """Rule 2 (and rule 9 for an empty hand): where to draw from."""
    available = pack_available(state)
    top = card(state.discards[-1]).name
    actions: list[Action] = []
    if state.hands[seat]:
        if available:
            actions.append(
                Action(key=format_key(Draw("pack")), label="Draw from the pack", style="primary")
            )
        actions.append(Action(key=format_key(Draw("discard")), label=f"Take the exposed {top}"))
        return actions
    if available:
        count = min(3, available)
        actions.append(
            Action(
                key=format_key(Draw("pack3")), label=f"Draw {count} from the pack", style="primary"
            )
        )
    two = min(2, available)
    actions.append(
        Action(key=format_key(Draw("pack2+discard")), label=f"Draw {two} from the pack + {top}")
    )
    return actions


def play_actions(state: FlightState, seat: int) -> list[Action]:
    """Rules 3–8: each playable card, plus 'done' once at least one card is down."""
    actions = [
        Action(
            key=format_key(Play(code)),
            label=f"Play {card(code).name}",
            group=PLAY_GROUP,
            description=_play_description(state, code),
        )
        for code in playable_cards(state, seat)
    ]
    if state.step.played:
        actions.append(
            Action(key=format_key(Done()), label="Done playing — discard", style="success")
        )
    return actions


def _play_description(state: FlightState, code: str) -> str:
    """Where the card would go (select option text)."""
    spots = targets(state, code)
    names = ", ".join(route_data(r).name for r in spots)
    return f"Onto: {names}"[:100]


def target_actions(state: FlightState) -> list[Action]:
    """Which flight the chosen card goes on, or cancel the half-chosen play."""
    pending = state.step.pending
    assert pending is not None
    name = card(pending).name
    actions = [
        Action(
            key=format_key(To(route)),
            label=f"{name} → {route_data(route).name} flight",
            style="primary",
        )
        for route in targets(state, pending)
    ]
    actions.append(
        Action(key=format_key(Cancel()), label="Cancel (choose another card)", style="danger")
    )
    return actions


def discard_actions(state: FlightState, seat: int) -> list[Action]:
    """Rule 2: discard any one card face up."""
    seen: list[str] = []
    for code in state.hands[seat]:
        if code not in seen:
            seen.append(code)
    return [
        Action(
            key=format_key(Discard(code)),
            label=f"Discard {card(code).name}",
            group=DISCARD_GROUP,
            description=_points(code),
        )
        for code in seen
    ]


def legal_actions(state: FlightState, seat: int) -> list[Action]:
    """All legal actions of `seat` now ([] when it is not their turn)."""
    if state.over or seat != state.turn:
        return []
    phase = state.step.phase
    if phase == "draw":
        return draw_actions(state, seat)
    if phase == "play":
        return play_actions(state, seat)
    if phase == "target":
        return target_actions(state)
    return discard_actions(state, seat)
