"""What each viewer may see: the public table, plus a seat's own hand (and a Pinch look)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from rules.core import Frozen
from rules.core.words import Text
from rules.takeoff import board as b
from rules.takeoff.data import EVENTS, SEAT_CARDS, card_name, card_text
from rules.takeoff.scoring import scores
from rules.takeoff.state import TakeoffState
from rules.takeoff.targets import targets
from rules.takeoff.turns import told_reason


class CardView(Frozen):
    """A card face: id, name, category and effect text."""

    id: str
    name: Text
    category: Literal["seat", "business", "event"]
    seat_type: str | None = None
    area: str | None = None
    check: bool = False
    text: Text


class RowView(Frozen):
    """One numbered row: owners of seats A–F (-1 = free) and which single rows are protected."""

    number: int
    business: bool
    seats: tuple[int, ...]
    protected: tuple[bool, bool]


class PendingView(Frozen):
    """The public part of a half-built play."""

    card: str
    card_name: Text
    picks: tuple[str, ...]
    row: int | None


class TakeoffView(Frozen):
    """The Takeoff! table as one viewer sees it (viewer None = public)."""

    players: int = 2
    viewer: int | None
    rows: tuple[RowView, ...]
    business_rows: int
    scoring: str
    row_rule: str
    scores: tuple[int, int]
    hand_sizes: tuple[int, int]
    deck_count: int
    discard_count: int
    top_discard: CardView | None
    pass_number: int
    tickets_left: tuple[int, int]
    turn: int | None
    turn_no: int
    final_round: bool
    final_turns_left: int
    changed_last: tuple[bool, bool]
    rows_used: tuple[int, ...]
    pending: PendingView | None
    last_seats: tuple[str, ...]
    over: bool
    end_reason: Text
    hand: tuple[CardView, ...] = ()
    shown_hand: tuple[CardView, ...] = ()
    # Seats ("7A") the card being played can take next: only in the player's own view.
    targets: tuple[str, ...] = ()


def card_view(card: str) -> CardView:
    """The face of one card."""
    if card in SEAT_CARDS:
        spec = SEAT_CARDS[card]
        category: Literal["seat", "business", "event"] = "seat" if spec.seat_type else "business"
        return CardView(
            id=card,
            name=card_name(card),
            category=category,
            seat_type=spec.seat_type,
            text=card_text(card),
        )
    event = EVENTS[card]
    return CardView(
        id=card,
        name=card_name(card),
        category="event",
        area=event.area,
        check=event.check,
        text=card_text(card),
    )


@lru_cache(maxsize=64)
def _rows(board: b.Board, business_rows: int) -> tuple[RowView, ...]:
    """The board row by row (kept for the last boards: every view of a move shows the same)."""
    return tuple(
        RowView(
            number=r,
            business=b.is_business_row(r, business_rows),
            seats=board[(r - 1) * b.WIDTH : r * b.WIDTH],
            protected=(b.is_protected(board, r, 0), b.is_protected(board, r, 1)),
        )
        for r in range(1, b.ROWS + 1)
    )


def build_view(state: TakeoffState, viewer: int | None) -> TakeoffView:
    """Redacted view: hands only for their owner, the Pinch look only for the pincher."""
    pending = state.pending
    hand: tuple[CardView, ...] = ()
    shown: tuple[CardView, ...] = ()
    target_labels: tuple[str, ...] = ()
    if viewer is not None:
        hand = tuple(card_view(c) for c in state.hands[viewer])
        if pending is not None and pending.card == "pinch" and viewer == state.turn:
            shown = tuple(card_view(c) for c in state.hands[1 - viewer])
        if (
            pending is not None
            and pending.card != "pinch"
            and viewer == state.turn
            and not state.over
        ):
            found = targets(state, viewer, pending.card, pending.picks)
            chosen = sorted({s for t in found for s in t.seats})
            target_labels = tuple(b.seat_label(s) for s in chosen)
    return TakeoffView(
        viewer=viewer,
        rows=_rows(state.board, state.options.business_rows),
        business_rows=state.options.business_rows,
        scoring=state.options.scoring,
        row_rule=state.options.row_rule,
        scores=scores(state.board, state.options.scoring, state.options.business_rows),
        hand_sizes=(len(state.hands[0]), len(state.hands[1])),
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        top_discard=card_view(state.discard[-1]) if state.discard else None,
        pass_number=state.pass_number,
        tickets_left=state.tickets,
        turn=None if state.over else state.turn,
        turn_no=state.turn_no,
        final_round=state.final_round,
        final_turns_left=state.final_turns_left,
        changed_last=state.changed_last,
        rows_used=state.rows_used,
        pending=None
        if pending is None
        else PendingView(
            card=pending.card,
            card_name=card_name(pending.card),
            picks=pending.picks,
            row=pending.row,
        ),
        last_seats=tuple(b.seat_label(s) for s in state.last_seats),
        over=state.over,
        end_reason=told_reason(state.end_reason),
        hand=hand,
        shown_hand=shown,
        targets=target_labels,
    )
