"""Where a card may act: the targets of every step of a play, and what the play does.

Rulebook "1. Play a seat-/eventcard": placements go to free seats in rows not yet used this turn
(except seats an event just freed); events act only in their class and only when their action
can be carried out; single rows filled by one colour are protected from events without ✔.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from rules.core.words import said
from rules.takeoff import board as b
from rules.takeoff.data import BUSINESS_CARD, EVENTS, SEAT_CARDS, EventSpec
from rules.takeoff.keys import Spot, format_key
from rules.takeoff.state import TakeoffState
from rules.takeoff.vocab import cabin, seat_type


class Target(NamedTuple):
    """One choice in a targeting step: its action key, label and the seats it covers."""

    key: str
    label: str  # a Said: the menu option players read
    seats: tuple[int, ...]


class Effect(NamedTuple):
    """What a completed play does to the board (all seats are indices)."""

    placed: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    turned: tuple[int, ...] = ()


def steps(card: str) -> int:
    """How many targets a card needs (0 = it acts at once)."""
    if card == "ticket" or card in SEAT_CARDS:
        return 1
    spec = EVENTS[card]
    if spec.kind == "move_turn":
        return 2
    return 0 if spec.shape in ("column", "none") else 1


def can_place(state: TakeoffState, seats: tuple[int, ...]) -> bool:
    """Different-rows rule, with the re-seat exception for seats freed by this turn's events."""
    rule = state.options.row_rule
    return all(s in state.freed or b.row_key(s, rule) not in state.rows_used for s in seats)


def _biz(state: TakeoffState) -> int:
    """Number of Business rows in this game."""
    return state.options.business_rows


def _free(state: TakeoffState, seat: int) -> bool:
    """Whether a seat is empty."""
    return state.board[seat] == b.EMPTY


@lru_cache(maxsize=4 * b.SEATS)
def _seat_target(seat: int, business_rows: int) -> Target:
    """A single-seat choice with a descriptive label (the same for every game: memoised)."""
    label = said(
        "Seat {seat} — {kind}, {cabin}",
        seat=b.seat_label(seat),
        kind=seat_type(b.seat_type(seat)),
        cabin=cabin(b.is_business_row(b.row_of(seat), business_rows)),
    )
    return Target(format_key(Spot("seat", b.seat_label(seat))), label, (seat,))


SeatRule = Callable[[int], bool]


def _seats_where(state: TakeoffState, keep: SeatRule) -> list[Target]:
    """Single-seat targets for every seat passing `keep`, front to back."""
    return [_seat_target(s, _biz(state)) for s in range(b.SEATS) if keep(s)]


def _placement_rule(state: TakeoffState, player: int, seat_type: str | None) -> SeatRule:
    """Seat card / ticket: free, allowed row, Business only with a Business-Class card."""
    has_red = BUSINESS_CARD in state.hands[player]

    def keep(s: int) -> bool:
        if not _free(state, s) or (seat_type is not None and b.seat_type(s) != seat_type):
            return False
        if b.is_business_row(b.row_of(s), _biz(state)) and not has_red:
            return False
        return can_place(state, (s,))

    return keep


def _breakable(state: TakeoffState, spec: EventSpec, seats: tuple[int, ...]) -> bool:
    """Events without ✔ may not touch a seat of a protected single row."""
    return spec.check or not any(b.in_protected_row(state.board, s) for s in seats)


def _pairs(state: TakeoffState, spec: EventSpec) -> list[Target]:
    """Neighbouring pairs in the card's class: both free (place) or any occupied (remove)."""
    out: list[Target] = []
    for row in b.area_rows(spec.area, _biz(state)):
        for pair in b.neighbour_pairs(row, across_aisle=spec.aisle_pairs):
            if spec.kind == "place":
                ok = all(_free(state, s) for s in pair) and can_place(state, pair)
            else:
                ok = any(not _free(state, s) for s in pair) and _breakable(state, spec, pair)
            if ok:
                letters = "".join(b.letter_of(s) for s in pair)
                label = said(
                    "Seats {first} + {second}",
                    first=b.seat_label(pair[0]),
                    second=b.seat_label(pair[1]),
                )
                out.append(Target(format_key(Spot("pair", f"{row}{letters}")), label, pair))
    return out


def _single_rows(state: TakeoffState, spec: EventSpec) -> list[Target]:
    """Single rows in the card's class: completely free (place) or holding a stone (remove)."""
    out: list[Target] = []
    for row in b.area_rows(spec.area, _biz(state)):
        for side in (0, 1):
            seats = b.single_row(row, side)
            if spec.kind == "place":
                ok = all(_free(state, s) for s in seats) and can_place(state, seats)
            else:
                ok = any(not _free(state, s) for s in seats) and _breakable(state, spec, seats)
            if ok:
                name = b.single_row_label(row, side)
                label = said("Row {row} {seats}", row=row, seats=" ".join(name[-3:]))
                out.append(Target(format_key(Spot("side", name)), label, seats))
    return out


def _blocks(state: TakeoffState, spec: EventSpec) -> list[Target]:
    """Stretcher: the same two seats in `block_rows` consecutive rows of the class."""
    rows = b.area_rows(spec.area, _biz(state))
    out: list[Target] = []
    for start in rows[: len(rows) - spec.block_rows + 1]:
        span = range(start, start + spec.block_rows)
        for cols in spec.column_sets:
            seats = tuple(b.seat_index(r, c) for r in span for c in cols)
            if any(not _free(state, s) for s in seats) and _breakable(state, spec, seats):
                last = start + spec.block_rows - 1
                label = said(
                    "Rows {first}–{last}, seats {seats}",
                    first=start,
                    last=last,
                    seats="+".join(cols),
                )
                out.append(Target(format_key(Spot("block", f"{start}{cols}")), label, seats))
    return out


def column_seats(state: TakeoffState, spec: EventSpec) -> tuple[int, ...]:
    """Middle seats blocked: every seat of the class in the listed columns."""
    rows = b.area_rows(spec.area, _biz(state))
    return tuple(
        sorted(b.seat_index(r, c) for r in rows for cols in spec.column_sets for c in cols)
    )


def _free_rule(state: TakeoffState, area: str) -> SeatRule:
    """Free seats of an area that the different-rows rule allows (event placements)."""
    biz = _biz(state)
    return lambda s: b.in_area(s, area, biz) and _free(state, s) and can_place(state, (s,))


def _removable_rule(state: TakeoffState, spec: EventSpec) -> SeatRule:
    """Occupied seats of the card's area outside protected rows (unless ✔)."""
    biz = _biz(state)
    return lambda s: (
        b.in_area(s, spec.area, biz) and not _free(state, s) and _breakable(state, spec, (s,))
    )


def _opponent_rule(state: TakeoffState, player: int, spec: EventSpec) -> SeatRule:
    """Opponent stones of the card's area outside protected rows (turning breaks a row)."""
    biz = _biz(state)
    return lambda s: (
        b.in_area(s, spec.area, biz)
        and state.board[s] == 1 - player
        and not b.in_protected_row(state.board, s)
    )


def _free_seats_in(state: TakeoffState, area: str) -> list[Target]:
    """Free seats of an area that the different-rows rule allows (event placements)."""
    return _seats_where(state, _free_rule(state, area))


def _seat_rule(state: TakeoffState, player: int, card: str) -> SeatRule | None:
    """The rule of a card whose one step picks a single seat: seat cards, tickets and the
    one-seat events (None for pairs, rows, blocks, the two-step move and Business-Class)."""
    if card == "ticket":
        return _placement_rule(state, player, None)
    if card in SEAT_CARDS:
        seat_type = SEAT_CARDS[card].seat_type
        return None if seat_type is None else _placement_rule(state, player, seat_type)
    spec = EVENTS[card]
    if spec.shape in ("pair", "single_row", "block"):
        return None
    if spec.kind == "place":
        return _free_rule(state, spec.area)
    if spec.kind == "remove":
        return _removable_rule(state, spec)
    if spec.kind == "turn":
        return _opponent_rule(state, player, spec)
    return None


def _event_targets(
    state: TakeoffState, player: int, spec: EventSpec, picks: tuple[str, ...]
) -> list[Target]:
    """Targets of the next step of an event card that does not pick one seat (`_seat_rule`):
    pairs, single rows, blocks, and the two-step move."""
    if spec.shape == "pair":
        return _pairs(state, spec)
    if spec.shape == "single_row":
        return _single_rows(state, spec)
    if spec.shape == "block":
        return _blocks(state, spec)
    # move_turn: first the opponent's stone, then a free seat in the other class for it
    destinations = _free_seats_in(state, spec.to_area or "any")
    if picks:
        return destinations
    return _seats_where(state, _opponent_rule(state, player, spec)) if destinations else []


def targets(state: TakeoffState, player: int, card: str, picks: tuple[str, ...]) -> list[Target]:
    """The choices for the next targeting step of `card` after `picks`."""
    rule = _seat_rule(state, player, card)
    if rule is not None:
        return _seats_where(state, rule)
    if card in SEAT_CARDS:  # Business-Class is never played alone
        return []
    return _event_targets(state, player, EVENTS[card], picks)


def can_play(state: TakeoffState, player: int, card: str) -> bool:
    """Whether `card` (or 'ticket') can be carried out now (hand and ticket count not checked)."""
    if card == "business":
        return False
    if card in EVENTS and EVENTS[card].kind == "pinch":
        return bool(state.hands[1 - player])
    if card in EVENTS and EVENTS[card].shape == "column":
        spec = EVENTS[card]
        seats = column_seats(state, spec)
        return any(not _free(state, s) for s in seats) and _breakable(state, spec, seats)
    rule = _seat_rule(state, player, card)
    if rule is not None:  # one seat is enough: no need to list (and label) them all
        return any(rule(s) for s in range(b.SEATS))
    return bool(targets(state, player, card, ()))


def pick_seats(
    state: TakeoffState, player: int, card: str, picks: tuple[str, ...]
) -> list[tuple[int, ...]]:
    """The seats each pick stands for (re-derived from the targets, so they stay consistent)."""
    out: list[tuple[int, ...]] = []
    for i, key in enumerate(picks):
        match = next(t for t in targets(state, player, card, picks[:i]) if t.key == key)
        out.append(match.seats)
    return out


def effect(state: TakeoffState, player: int, card: str, picks: tuple[str, ...]) -> Effect:
    """What a play with all its picks does to the board."""
    chosen = pick_seats(state, player, card, picks)
    if card == "ticket" or card in SEAT_CARDS:
        return Effect(placed=chosen[0])
    spec = EVENTS[card]
    if spec.shape == "column":
        return Effect(removed=column_seats(state, spec))
    if spec.kind == "place":
        return Effect(placed=chosen[0])
    if spec.kind == "remove":
        return Effect(removed=chosen[0])
    if spec.kind == "turn":
        return Effect(turned=chosen[0])
    return Effect(removed=chosen[0], placed=chosen[1])
