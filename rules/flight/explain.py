"""What each Flight move does under the 1954 rules, in players' words (rules/core/explain.py)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Action
from rules.core.explain import Explainer, rule
from rules.core.messages import plural
from rules.flight.data import card, hand_points, route_data
from rules.flight.keys import Cancel, Discard, Done, Draw, Key, Play, To, parse_key
from rules.flight.plays import targets
from rules.flight.scoring import BOTH_BONUS, FIRST_LANDING, FIRST_OUT
from rules.flight.state import FlightState


def points(state: FlightState, seat: int) -> int:
    """The seat's match total less the cards it holds: its score if the hand ended now."""
    return state.scores[seat] - hand_points(state.hands[seat])


def building(state: FlightState) -> bool:
    """True while a card is chosen and its flight is not."""
    return state.step.phase == "target"


def _held(state: FlightState, seat: int) -> str:
    """'Your hand holds 23 points' — what the cards held would cost if someone landed now."""
    return f"Your hand now holds {plural(hand_points(state.hands[seat]), 'point')} of cards"


def _landing(state: FlightState, seat: int) -> str:
    """What a Safe Landing scores for this seat now."""
    gain = FIRST_LANDING
    extra = ""
    if state.first_out == seat:
        gain += FIRST_OUT + BOTH_BONUS
        extra = f" (with +{FIRST_OUT} for going out first and the +{BOTH_BONUS} bonus)"
    return (
        f"Ends the hand at once: you score +{gain}{extra}, and every other player loses the "
        "points of the cards left in their hand."
    )


def _card_effect(state: FlightState, seat: int, code: str) -> tuple[str, str]:
    """(what playing this card does, the rules topic)."""
    info = card(code)
    lay = f"lays down {plural(info.points, 'point')} you would otherwise lose"
    match info.kind:
        case "aeroplane":
            return (
                f"Starts the {route_data(info.route or '').name} flight; while you hold an "
                f"Aeroplane you must play one and nothing else that turn. It {lay}.",
                "turn",
            )
        case "route":
            return (
                f"Adds stop {info.number} ({info.town}) to the "
                f"{route_data(info.route or '').name} flight, in number order; in one turn Route "
                f"cards go on one flight only. It {lay}.",
                "cards",
            )
        case "landing":
            return _landing(state, seat), "landing"
        case "fog":
            return (
                "Lays Fog beside a flight's last stop: no Route card may follow until an "
                f"Alternative Route covers it. One of Fog, Customs, Alternative Route or Passport "
                f"per turn. It {lay}.",
                "obstacles",
            )
        case "customs":
            return (
                "Lays Customs beside a flight's last stop: no Route card may follow until a "
                f"Passport covers it. One of these four special cards per turn. It {lay}.",
                "obstacles",
            )
        case "alt":
            return (
                "Covers a Fog: the Alternative Route takes the place of the next stop, so that "
                f"number is skipped. One special card per turn. It {lay}.",
                "obstacles",
            )
    return (
        "Covers a Customs: the flight goes on in number order. One special card per turn. "
        f"It {lay}.",
        "obstacles",
    )


def _explain(state: FlightState, seat: int, action: Action, key: Key) -> str:
    """One option's explanation."""
    match key:
        case Draw("pack"):
            return (
                "Draw the top card of the pack — unknown until you see it. Then you play and "
                f"discard. {rule('turn')}"
            )
        case Draw("discard"):
            top = card(state.discards[-1])
            return (
                f"Take the exposed {top.name} ({plural(top.points, 'point')} if still in your "
                "hand when someone lands); everyone saw you take it. "
                f"{rule('turn')}"
            )
        case Draw(source):
            how = "3 from the pack" if source == "pack3" else "2 from the pack and the discard"
            return f"Your hand is empty, so you draw {how} (rule 9). {rule('turn')}"
        case Play(code):
            what, topic = _card_effect(state, seat, code)
            spots = targets(state, code)
            where = ", ".join(route_data(r).name for r in spots)
            more = f" You then choose the flight ({where})." if len(spots) > 1 else ""
            return f"{what}{more} {rule(topic)}"
        case To(route):
            pending = state.step.pending or ""
            what, topic = _card_effect(state, seat, pending)
            return f"On the {route_data(route).name} flight: {what} {rule(topic)}"
        case Cancel():
            return f"Puts the chosen card back in your hand; choose another. {rule('turn')}"
        case Done():
            return (
                f"Stop playing and discard one card to end your turn. {_held(state, seat)}. "
                f"{rule('turn')}"
            )
        case Discard(code):
            info = card(code)
            last = len(state.hands[seat]) == 1
            out = (
                f" It is your last card: you go out (+{FIRST_OUT} if you are the first)."
                if last and state.first_out is None
                else ""
            )
            return (
                f"Discard {info.name} face up: it no longer costs you "
                f"{plural(info.points, 'point')} when someone lands, but the next player may take "
                f"it.{out} {rule('scoring')}"
            )
    return f"{action.label}. {rule('turn')}"


def shown(state: FlightState, seat: int) -> int:
    """The match total everyone sees."""
    return state.scores[seat]


def why(before: FlightState, after: FlightState, seat: int) -> str:
    """The hand that ended, as rule 11 scored it for this seat."""
    if len(after.results) <= len(before.results):
        return ""
    result = after.results[len(before.results)]
    parts = []
    if result.lander == seat:
        parts.append(f"+{FIRST_LANDING} for the first Safe Landing")
    if result.first_out == seat:
        parts.append(f"+{FIRST_OUT} for going out first")
        if result.lander == seat:
            parts.append(f"+{BOTH_BONUS} bonus for both")
    if result.penalties[seat]:
        parts.append(f"−{result.penalties[seat]} for the cards left in hand")
    return f"hand {result.number} ended: {', '.join(parts)}. {rule('scoring')}"


def options(state: FlightState, seat: int, legal: Sequence[Action]) -> dict[str, str]:
    """Every legal action's explanation."""
    return {a.key: _explain(state, seat, a, parse_key(a.key)) for a in legal}


EXPLAIN = Explainer(
    options=options,
    points=points,
    building=building,
    seats=lambda state: state.players,
    measure="by the end of this turn (your score if someone landed then)",
    shown=shown,
    why=why,
)
