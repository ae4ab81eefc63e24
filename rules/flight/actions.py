"""The legal actions of each turn step: draw source → plays one by one → discard."""

from __future__ import annotations

from functools import lru_cache

from rules.core import Action
from rules.core.words import Said, said
from rules.flight.data import card, route_name
from rules.flight.deck import pack_available
from rules.flight.keys import Cancel, Discard, Done, Draw, Play, To, format_key
from rules.flight.phrases import listing, n_pts
from rules.flight.plays import playable_cards, targets
from rules.flight.state import FlightState

# Select menu titles. `Action.group` is a plain str (it also groups the menu), so the bot looks
# the title up as a message id: said here, it is in the catalogue.
PLAY_GROUP = said("Play a card")
DISCARD_GROUP = said("Discard a card to end your turn")
DRAW_PACK = said("Draw from the pack")
DONE_PLAYING = said("Done playing — discard")
CANCEL = said("Cancel (choose another card)")


# The labels are cached by what they say: legal moves are listed on every step of the AI's
# searches, and a sentence is the same every time.
@lru_cache(maxsize=64)
def _points(code: str) -> Said:
    """'10 pts in hand' for select descriptions."""
    return n_pts(card(code).points)


@lru_cache(maxsize=64)
def _play_label(code: str) -> Said:
    """'Play Fog'."""
    return said("Play {card}", card=card(code).name)


@lru_cache(maxsize=64)
def _discard_label(code: str) -> Said:
    """'Discard Fog'."""
    return said("Discard {card}", card=card(code).name)


@lru_cache(maxsize=64)
def _onto(routes: tuple[str, ...]) -> Said:
    """'Onto: Canada, India' (select option text; four names at most, well within 100)."""
    return said("Onto: {routes}", routes=listing([route_name(r) for r in routes]))


@lru_cache(maxsize=256)
def _target_label(code: str, route: str) -> Said:
    """'Fog → Canada flight'."""
    return said("{card} → {route} flight", card=card(code).name, route=route_name(route))


def draw_actions(state: FlightState, seat: int) -> list[Action]:
    """Rule 2 (and rule 9 for an empty hand): where to draw from."""
    available = pack_available(state)
    top = card(state.discards[-1]).name
    actions: list[Action] = []
    if state.hands[seat]:
        if available:
            actions.append(Action(key=format_key(Draw("pack")), label=DRAW_PACK, style="primary"))
        label = said("Take the exposed {card}", card=top)
        actions.append(Action(key=format_key(Draw("discard")), label=label))
        return actions
    if available:
        label = said("Draw {count} from the pack", count=min(3, available))
        actions.append(Action(key=format_key(Draw("pack3")), label=label, style="primary"))
    label = said("Draw {count} from the pack + {card}", count=min(2, available), card=top)
    actions.append(Action(key=format_key(Draw("pack2+discard")), label=label))
    return actions


def play_actions(state: FlightState, seat: int) -> list[Action]:
    """Rules 3–8: each playable card, plus 'done' once at least one card is down."""
    actions = [
        Action(
            key=format_key(Play(code)),
            label=_play_label(code),
            group=PLAY_GROUP,
            description=_onto(targets(state, code)),
        )
        for code in playable_cards(state, seat)
    ]
    if state.step.played:
        actions.append(Action(key=format_key(Done()), label=DONE_PLAYING, style="success"))
    return actions


def target_actions(state: FlightState) -> list[Action]:
    """Which flight the chosen card goes on, or cancel the half-chosen play."""
    pending = state.step.pending
    assert pending is not None
    actions = [
        Action(
            key=format_key(To(route)),
            label=_target_label(pending, route),
            style="primary",
        )
        for route in targets(state, pending)
    ]
    actions.append(Action(key=format_key(Cancel()), label=CANCEL, style="danger"))
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
            label=_discard_label(code),
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
