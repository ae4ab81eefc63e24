"""What each Takeoff! move does under the rules, in players' words (rules/core/explain.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.core import Action
from rules.core.explain import Explainer, rule, signed
from rules.core.messages import plural
from rules.takeoff.ai import resample
from rules.takeoff.data import SEAT_CARDS, card_name, card_text
from rules.takeoff.engine import TakeoffGame
from rules.takeoff.keys import (
    Back,
    Cancel,
    Change,
    Decline,
    End,
    Key,
    Play,
    Row,
    Spot,
    Take,
    Ticket,
    parse_key,
)
from rules.takeoff.scoring import score, score_parts
from rules.takeoff.state import TakeoffState
from rules.takeoff.turns import HAND_LIMIT

ENGINE = TakeoffGame()


def points(state: TakeoffState, seat: int) -> int:
    """The seat's score on the board now."""
    opts = state.options
    return score(state.board, seat, opts.scoring, opts.business_rows)


def building(state: TakeoffState) -> bool:
    """True while a card or ticket is chosen and its targets are not."""
    return state.pending is not None


def _gain(seen: TakeoffState, seat: int, key: str) -> tuple[int, int] | None:
    """(own, opponent) score change of a move and its best completion, on a determinisation
    (`seen`: what the seat sees, its hidden facts redrawn)."""
    before = (points(seen, seat), points(seen, 1 - seat))
    best = _best(seen, seat, key, 2)
    if best is None:
        return None
    return best[0] - before[0], best[1] - before[1]


def _best(state: TakeoffState, seat: int, key: str, depth: int) -> tuple[int, int] | None:
    """Scores after `key` once the play is complete (its best completion for the seat)."""
    after = ENGINE.apply(state, seat, key).state
    if not building(after):
        return points(after, seat), points(after, 1 - seat)
    if depth == 0:
        return None
    found = [
        _best(after, seat, a.key, depth - 1)
        for a in ENGINE.legal_actions(after, seat)
        if a.key not in ("cancel", "back")
    ]
    kept = [f for f in found if f is not None]
    return max(kept, key=lambda f: (f[0] - f[1], f[0])) if kept else None


def _worth(change: tuple[int, int] | None, *, best: bool) -> str:
    """' Worth +3 points to you now.' (with the opponent's loss when there is one)."""
    if change is None:
        return ""
    own, theirs = change
    head = "At best worth" if best else "Worth"
    text = f" {head} {signed(own)} to you"
    if theirs:
        text += f" and {signed(theirs)} to your opponent"
    return text + " now."


def _explain(state: TakeoffState, seen: TakeoffState, seat: int, action: Action, key: Key) -> str:
    """One option's explanation (numbers from the determinisation `seen`)."""
    match key:
        case Play(card) if card in SEAT_CARDS:
            return (
                f"{card_text(card)} Costs this card from your hand; every passenger you seat this "
                "turn must go into a different numbered row."
                + _worth(_gain(seen, seat, action.key), best=True)
                + f" {rule('turn')}"
            )
        case Play(card):
            return (
                f"Event: {card_text(card)} It may only be played when it can be carried out; it "
                "can hit your own passengers too, and never breaks a single row filled by one "
                "colour unless marked ✔."
                + _worth(_gain(seen, seat, action.key), best=True)
                + f" {rule('events')}"
            )
        case Ticket():
            left = state.tickets[seat]
            return (
                "A captain's ticket seats one of your passengers on any free seat you choose "
                f"(a Business seat still needs a Business-Class card). You have {left} left and "
                "may use one per turn."
                + _worth(_gain(seen, seat, action.key), best=True)
                + f" {rule('tickets')}"
            )
        case Change(card):
            return (
                f"Discard {card_name(card)} face up and draw a new card instead of playing: your "
                "turn ends, and your next turn cannot be another change. "
                f"{rule('turn')}"
            )
        case End() if state.final_round:
            return f"Ends your last turn; nothing is drawn now. {rule('end')}"
        case End():
            hand = len(state.hands[seat])
            draw = (
                "you draw 1 card"
                if hand < HAND_LIMIT
                else f"your hand is full ({plural(HAND_LIMIT, 'card')}), so you draw nothing"
            )
            return f"Ends your turn: {draw}. {rule('turn')}"
        case Decline():
            return (
                "Skips your last turn, and the game ends at once — scores as they stand now. "
                f"{rule('end')}"
            )
        case Spot():
            return _spot(state, seen, seat, action)
        case Row(row):
            return (
                f"Narrows the choice to row {row}: {action.description or 'its seats'}; you can "
                f"go back to the other rows. {rule('turn')}"
            )
        case Back():
            return f"Back to the list of rows; the play stays chosen. {rule('turn')}"
        case Cancel():
            return (
                "Takes the half-built play back: the card returns to your hand and nothing "
                f"changes. {rule('turn')}"
            )
        case Take(card):
            return (
                f"Pinch: take {card_name(card)} from your opponent's hand into yours (you may "
                f"play it this turn). {rule('events')}"
            )
    return f"{action.label}. {rule('turn')}"


def _spot(state: TakeoffState, seen: TakeoffState, seat: int, action: Action) -> str:
    """A target of the chosen card: what it does here and what it scores."""
    pending = state.pending
    what = card_name(pending.card) if pending and pending.card != "ticket" else "Captain's ticket"
    change = _gain(seen, seat, action.key)
    worth = _worth(change, best=False) or " It scores only once the play is complete."
    if change is not None and change == (0, 0):
        worth = " It changes no score now, but may set up a row."
    topic = "tickets" if what == "Captain's ticket" else "turn"
    if pending is not None and pending.card not in SEAT_CARDS and pending.card != "ticket":
        topic = "events"
    return f"{what}: {action.label}.{worth} Single rows all in one colour earn a bonus. " + rule(
        topic if topic != "turn" else "scoring"
    )


def why(before: TakeoffState, after: TakeoffState, seat: int) -> str:
    """What moved a seat's score: seats gained or lost and one-colour rows, by class."""
    opts = after.options
    old = score_parts(before.board, seat, opts.scoring, opts.business_rows)
    new = score_parts(after.board, seat, opts.scoring, opts.business_rows)
    said = []
    for cls in ("business", "economy"):
        seats = new[f"{cls}_seats"] - old[f"{cls}_seats"]
        seat_pts = new[f"{cls}_seat_points"] - old[f"{cls}_seat_points"]
        rows = new[f"{cls}_rows"] - old[f"{cls}_rows"]
        row_pts = new[f"{cls}_row_points"] - old[f"{cls}_row_points"]
        if seats or seat_pts:
            where = cls.capitalize()
            if seats > 0:
                what = f"{plural(seats, 'passenger')} seated in {where}"
            elif seats < 0:
                what = f"{plural(-seats, 'passenger')} removed from {where}"
            else:
                what = f"passengers moved within {where}"
            said.append(f"{what} ({signed(seat_pts)})")
        if rows or row_pts:
            verb = "completed" if rows >= 0 else "broken"
            said.append(
                f"{plural(abs(rows), 'one-colour single row')} {verb} ({signed(row_pts)} bonus)"
            )
    return "; ".join(said) + f" {rule('scoring')}" if said else ""


def options(state: TakeoffState, seat: int, legal: Sequence[Action]) -> dict[str, str]:
    """Every legal action's explanation."""
    seen = resample(state, seat, random.Random(0))  # numbers only from what the seat sees
    return {a.key: _explain(state, seen, seat, a, parse_key(a.key)) for a in legal}


EXPLAIN = Explainer(
    options=options, points=points, building=building, seats=lambda state: 2, why=why
)
