"""What each Flight move does under the 1954 rules, in players' words (rules/core/explain.py)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Action
from rules.core.explain import Explainer, rule
from rules.core.words import Said, joined, said
from rules.flight.data import card, hand_points, route_name
from rules.flight.keys import Cancel, Discard, Done, Draw, Key, Play, To, parse_key
from rules.flight.phrases import listing, n_points
from rules.flight.plays import targets
from rules.flight.scoring import BOTH_BONUS, FIRST_LANDING, FIRST_OUT
from rules.flight.state import FlightState


def points(state: FlightState, seat: int) -> int:
    """The seat's match total less the cards it holds: its score if the hand ended now."""
    return state.scores[seat] - hand_points(state.hands[seat])


def building(state: FlightState) -> bool:
    """True while a card is chosen and its flight is not."""
    return state.step.phase == "target"


def _held(state: FlightState, seat: int) -> Said:
    """'Your hand now holds 23 points of cards.' — what they would cost if someone landed now."""
    held = n_points(hand_points(state.hands[seat]))
    return said("Your hand now holds {points} of cards.", points=held)


def _landing(state: FlightState, seat: int) -> Said:
    """What a Safe Landing scores for this seat now."""
    if state.first_out == seat:
        return said(
            "Ends the hand at once: you score +{gain} (with +{out} for going out first and the "
            "+{bonus} bonus), and every other player loses the points of the cards left in "
            "their hand.",
            gain=FIRST_LANDING + FIRST_OUT + BOTH_BONUS,
            out=FIRST_OUT,
            bonus=BOTH_BONUS,
        )
    return said(
        "Ends the hand at once: you score +{gain}, and every other player loses the points of "
        "the cards left in their hand.",
        gain=FIRST_LANDING,
    )


def _effect(state: FlightState, seat: int, code: str) -> tuple[Said, str]:
    """(what playing this card does, without its points, the rules topic)."""
    info = card(code)
    match info.kind:
        case "aeroplane":
            return said(
                "Starts the {route} flight; while you hold an Aeroplane you must play one and "
                "nothing else that turn.",
                route=route_name(info.route or ""),
            ), "turn"
        case "route":
            return said(
                "Adds stop {number} ({town}) to the {route} flight, in number order; in one turn "
                "Route cards go on one flight only.",
                number=info.number,
                town=info.town,
                route=route_name(info.route or ""),
            ), "cards"
        case "landing":
            return _landing(state, seat), "landing"
        case "fog":
            return said(
                "Lays Fog beside a flight's last stop: no Route card may follow until an "
                "Alternative Route covers it. One of Fog, Customs, Alternative Route or Passport "
                "per turn."
            ), "obstacles"
        case "customs":
            return said(
                "Lays Customs beside a flight's last stop: no Route card may follow until a "
                "Passport covers it. One of these four special cards per turn."
            ), "obstacles"
        case "alt":
            return said(
                "Covers a Fog: the Alternative Route takes the place of the next stop, so that "
                "number is skipped. One special card per turn."
            ), "obstacles"
    return said(
        "Covers a Customs: the flight goes on in number order. One special card per turn."
    ), "obstacles"


def _card_effect(state: FlightState, seat: int, code: str) -> tuple[Said, str]:
    """(what playing this card does, the rules topic)."""
    what, topic = _effect(state, seat, code)
    info = card(code)
    if info.kind == "landing":
        return what, topic
    lay = said("It lays down {points} you would otherwise lose.", points=n_points(info.points))
    return joined(what, lay), topic


def _explain(state: FlightState, seat: int, action: Action, key: Key) -> Said:
    """One option's explanation."""
    match key:
        case Draw("pack"):
            return joined(
                said(
                    "Draw the top card of the pack — unknown until you see it. Then you play and "
                    "discard."
                ),
                rule("turn"),
            )
        case Draw("discard"):
            top = card(state.discards[-1])
            return joined(
                said(
                    "Take the exposed {card} ({points} if still in your hand when someone "
                    "lands); everyone saw you take it.",
                    card=top.name,
                    points=n_points(top.points),
                ),
                rule("turn"),
            )
        case Draw(source):
            if source == "pack3":
                empty = said("Your hand is empty, so you draw 3 from the pack (rule 9).")
            else:
                empty = said(
                    "Your hand is empty, so you draw 2 from the pack and the discard (rule 9)."
                )
            return joined(empty, rule("turn"))
        case Play(code):
            what, topic = _card_effect(state, seat, code)
            spots = targets(state, code)
            more = ""
            if len(spots) > 1:
                where = listing([route_name(r) for r in spots])
                more = said("You then choose the flight ({routes}).", routes=where)
            return joined(what, more, rule(topic))
        case To(route):
            what, topic = _card_effect(state, seat, state.step.pending or "")
            on = said("On the {route} flight:", route=route_name(route))
            return joined(on, what, rule(topic))
        case Cancel():
            return joined(
                said("Puts the chosen card back in your hand; choose another."), rule("turn")
            )
        case Done():
            return joined(
                said("Stop playing and discard one card to end your turn."),
                _held(state, seat),
                rule("turn"),
            )
        case Discard(code):
            info = card(code)
            last = len(state.hands[seat]) == 1
            out = ""
            if last and state.first_out is None:
                out = said(
                    "It is your last card: you go out (+{points} if you are the first).",
                    points=FIRST_OUT,
                )
            return joined(
                said(
                    "Discard {card} face up: it no longer costs you {points} when someone lands, "
                    "but the next player may take it.",
                    card=info.name,
                    points=n_points(info.points),
                ),
                out,
                rule("scoring"),
            )
    return joined(said("{label}.", label=action.label), rule("turn"))


def shown(state: FlightState, seat: int) -> int:
    """The match total everyone sees."""
    return state.scores[seat]


def why(before: FlightState, after: FlightState, seat: int) -> str:
    """The hand that ended, as rule 11 scored it for this seat."""
    if len(after.results) <= len(before.results):
        return ""
    result = after.results[len(before.results)]
    parts: list[Said] = []
    if result.lander == seat:
        parts.append(said("+{points} for the first Safe Landing", points=FIRST_LANDING))
    if result.first_out == seat:
        parts.append(said("+{points} for going out first", points=FIRST_OUT))
        if result.lander == seat:
            parts.append(said("+{points} bonus for both", points=BOTH_BONUS))
    if result.penalties[seat]:
        parts.append(said("−{points} for the cards left in hand", points=result.penalties[seat]))
    ended = said("hand {number} ended: {parts}.", number=result.number, parts=listing(parts))
    return joined(ended, rule("scoring"))


def options(state: FlightState, seat: int, legal: Sequence[Action]) -> dict[str, str]:
    """Every legal action's explanation."""
    return {a.key: _explain(state, seat, a, parse_key(a.key)) for a in legal}


EXPLAIN = Explainer(
    options=options,
    points=points,
    building=building,
    seats=lambda state: state.players,
    measure=said("by the end of this turn (your score if someone landed then)"),
    shown=shown,
    why=why,
)
