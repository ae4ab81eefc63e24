"""What each Takeoff! move does under the rules, in players' words (rules/core/explain.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.core import Action
from rules.core.explain import Explainer, rule, signed
from rules.core.words import Said, joined, said
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
from rules.takeoff.vocab import (
    cabin,
    cards,
    in_turn,
    passengers,
    single_rows,
)

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


def _worth(change: tuple[int, int] | None, *, best: bool) -> Said:
    """'Worth +3 points to you now.' (with the opponent's loss when there is one)."""
    if change is None:
        return Said("")
    own, theirs = change
    mine, yours = signed(own), signed(theirs)
    if best and theirs:
        return said(
            "At best worth {own} to you and {theirs} to your opponent now.", own=mine, theirs=yours
        )
    if best:
        return said("At best worth {own} to you now.", own=mine)
    if theirs:
        return said("Worth {own} to you and {theirs} to your opponent now.", own=mine, theirs=yours)
    return said("Worth {own} to you now.", own=mine)


def _explain(state: TakeoffState, seen: TakeoffState, seat: int, action: Action, key: Key) -> str:
    """One option's explanation (numbers from the determinisation `seen`)."""
    match key:
        case Play(card) if card in SEAT_CARDS:
            return joined(
                card_text(card),
                said(
                    "Costs this card from your hand; every passenger you seat this turn must go "
                    "into a different numbered row."
                ),
                _worth(_gain(seen, seat, action.key), best=True),
                rule("turn"),
            )
        case Play(card):
            return joined(
                said("Event: {text}", text=card_text(card)),
                said(
                    "It may only be played when it can be carried out; it can hit your own "
                    "passengers too, and never breaks a single row filled by one colour unless "
                    "marked ✔."
                ),
                _worth(_gain(seen, seat, action.key), best=True),
                rule("events"),
            )
        case Ticket():
            return joined(
                said(
                    "A captain's ticket seats one of your passengers on any free seat you choose "
                    "(a Business seat still needs a Business-Class card). You have {left} left "
                    "and may use one per turn.",
                    left=state.tickets[seat],
                ),
                _worth(_gain(seen, seat, action.key), best=True),
                rule("tickets"),
            )
        case Change(card):
            return joined(
                said(
                    "Discard {card} face up and draw a new card instead of playing: your turn "
                    "ends, and your next turn cannot be another change.",
                    card=card_name(card),
                ),
                rule("turn"),
            )
        case End() if state.final_round:
            return joined(said("Ends your last turn; nothing is drawn now."), rule("end"))
        case End() if len(state.hands[seat]) < HAND_LIMIT:
            return joined(said("Ends your turn: you draw 1 card."), rule("turn"))
        case End():
            full = said(
                "Ends your turn: your hand is full ({cards}), so you draw nothing.",
                cards=cards(HAND_LIMIT),
            )
            return joined(full, rule("turn"))
        case Decline():
            return joined(
                said("Skips your last turn, and the game ends at once — scores as they stand now."),
                rule("end"),
            )
        case Spot():
            return _spot(state, seen, seat, action)
        case Row(row):
            return joined(
                said(
                    "Narrows the choice to row {row}: {choices}; you can go back to the other "
                    "rows.",
                    row=row,
                    choices=action.description or said("its seats"),
                ),
                rule("turn"),
            )
        case Back():
            return joined(said("Back to the list of rows; the play stays chosen."), rule("turn"))
        case Cancel():
            return joined(
                said(
                    "Takes the half-built play back: the card returns to your hand and nothing "
                    "changes."
                ),
                rule("turn"),
            )
        case Take(card):
            return joined(
                said(
                    "Pinch: take {card} from your opponent's hand into yours (you may play it "
                    "this turn).",
                    card=card_name(card),
                ),
                rule("events"),
            )
    return joined(said("{move}.", move=action.label), rule("turn"))


def _spot(state: TakeoffState, seen: TakeoffState, seat: int, action: Action) -> str:
    """A target of the chosen card: what it does here and what it scores."""
    pending = state.pending
    card = "ticket" if pending is None else pending.card
    ticket = card == "ticket"
    what = card_name(card)
    change = _gain(seen, seat, action.key)
    worth = _worth(change, best=False) or said("It scores only once the play is complete.")
    if change is not None and change == (0, 0):
        worth = said("It changes no score now, but may set up a row.")
    topic = "tickets" if ticket else "scoring"
    if not ticket and card not in SEAT_CARDS:
        topic = "events"
    return joined(
        said("{card}: {move}.", card=what, move=action.label),
        worth,
        said("Single rows all in one colour earn a bonus."),
        rule(topic),
    )


def why(before: TakeoffState, after: TakeoffState, seat: int) -> str:
    """What moved a seat's score: seats gained or lost and one-colour rows, by class."""
    opts = after.options
    old = score_parts(before.board, seat, opts.scoring, opts.business_rows)
    new = score_parts(after.board, seat, opts.scoring, opts.business_rows)
    told: list[Said] = []
    for cls in ("business", "economy"):
        seats = new[f"{cls}_seats"] - old[f"{cls}_seats"]
        seat_pts = new[f"{cls}_seat_points"] - old[f"{cls}_seat_points"]
        rows = new[f"{cls}_rows"] - old[f"{cls}_rows"]
        row_pts = new[f"{cls}_row_points"] - old[f"{cls}_row_points"]
        where = cabin(cls == "business")
        if seats or seat_pts:
            told.append(_seated(seats, where, signed(seat_pts)))
        if rows or row_pts:
            told.append(_rows_changed(rows, signed(row_pts)))
    return joined(in_turn(told), rule("scoring")) if told else ""


def _seated(seats: int, where: Said, points: str) -> Said:
    """'2 passengers seated in Economy (+4 points)'."""
    if seats > 0:
        return said(
            "{passengers} seated in {cabin} ({points})",
            passengers=passengers(seats),
            cabin=where,
            points=points,
        )
    if seats < 0:
        return said(
            "{passengers} removed from {cabin} ({points})",
            passengers=passengers(-seats),
            cabin=where,
            points=points,
        )
    return said("passengers moved within {cabin} ({points})", cabin=where, points=points)


def _rows_changed(rows: int, points: str) -> Said:
    """'1 one-colour single row completed (+2 points bonus)'."""
    if rows >= 0:
        return said("{rows} completed ({points} bonus)", rows=single_rows(rows), points=points)
    return said("{rows} broken ({points} bonus)", rows=single_rows(-rows), points=points)


def options(state: TakeoffState, seat: int, legal: Sequence[Action]) -> dict[str, str]:
    """Every legal action's explanation."""
    seen = resample(state, seat, random.Random(0))  # numbers only from what the seat sees
    return {a.key: _explain(state, seen, seat, a, parse_key(a.key)) for a in legal}


EXPLAIN = Explainer(
    options=options, points=points, building=building, seats=lambda state: 2, why=why
)
