"""Why an action is illegal, in words a player understands (the engine's explain_illegal)."""

from __future__ import annotations

from rules.core import IllegalActionError
from rules.takeoff import board as b
from rules.takeoff.actions import can_change
from rules.takeoff.data import BUSINESS_CARD, EVENTS, SEAT_CARDS, card_name
from rules.takeoff.keys import (
    Back,
    Change,
    Decline,
    End,
    Key,
    MainKey,
    Play,
    Row,
    Spot,
    Take,
    TargetKey,
    Ticket,
    parse_key,
)
from rules.takeoff.state import TakeoffState
from rules.takeoff.targets import can_place, targets
from rules.takeoff.turns import HAND_LIMIT

_ROWS_RULE = "different-rows rule"


def _parsed(key: str) -> Key | None:
    """The typed key, or None for text that is no Takeoff! key."""
    try:
        return parse_key(key)
    except IllegalActionError:
        return None


def explain(state: TakeoffState, player: int, key: str) -> str:
    """The reason `key` is not legal for `player` now."""
    pending = state.pending
    parsed = _parsed(key)
    is_main = isinstance(parsed, MainKey)
    if pending is not None and is_main:
        return f"Finish or cancel your {card_name(pending.card)} play first."
    if pending is None and isinstance(parsed, TargetKey):
        return "No play is in progress: start by playing a card or a captain's ticket."
    if pending is not None:
        return _explain_target(state, player, key, parsed)
    match parsed:
        case Play(card):
            return _explain_play(state, player, card)
        case Change(card):
            return _explain_change(state, player, card)
        case Ticket():
            return _explain_ticket(state)
        case End():
            return "Nothing was played in your last turn: decline it instead (that ends the game)."
        case Decline():
            if state.final_round:
                return "You already played in your last turn: finish it instead."
            return "Declining is only possible in the last turns after the third pass of the pile."
    return ""  # an unknown key: the shared refusal (rules.core.messages) says all there is


def _explain_play(state: TakeoffState, player: int, card: str) -> str:
    """Why a card cannot be played."""
    if card not in SEAT_CARDS and card not in EVENTS:
        return f"There is no card called {card!r} in Takeoff!."
    name = card_name(card)
    if card not in state.hands[player]:
        return f"You do not hold {name}."
    if card == BUSINESS_CARD:
        return (
            "A Business-Class card is never played alone: play a seat card or a captain's "
            "ticket and choose a Business seat — the red card goes with it."
        )
    if card == "pinch":
        return "Your opponent has no cards in hand, so there is nothing to pinch."
    return f"{name} cannot be carried out now: {_blocked(state, card)}."


def _blocked(state: TakeoffState, card: str) -> str:
    """What stops a card (rulebook: events only when their action can be carried out)."""
    rows = "in a row you have not used this turn" if state.rows_used else ""
    if card in SEAT_CARDS:
        kind = SEAT_CARDS[card].seat_type
        free = [s for s in range(b.SEATS) if state.board[s] == b.EMPTY and b.seat_type(s) == kind]
        if not free:
            return f"no {kind} seat is free"
        if not any(can_place(state, (s,)) for s in free):
            return f"every free {kind} seat is in a row you already used this turn ({_ROWS_RULE})"
        return f"the free {kind} seats are in Business and you hold no Business-Class card"
    spec = EVENTS[card]
    area = "Business" if spec.area == "business" else "Economy"
    if spec.kind == "place":
        what = {"seat": "free seat", "pair": "two free neighbouring seats"}.get(
            spec.shape, "completely free single row"
        )
        return f"there is no {what} in {area} {rows}".strip()
    if spec.kind == "turn":
        return "your opponent has no passenger in Economy outside protected single rows"
    if spec.kind == "move_turn":
        return (
            "it needs an opponent passenger in Economy outside protected single rows and a free "
            f"Business seat {rows or 'anywhere'}"
        )
    if spec.check:
        return f"there is no passenger to remove there in {area}"
    return f"there is no passenger in {area} outside single rows filled by one colour (protected)"


def _explain_change(state: TakeoffState, player: int, card: str) -> str:
    """Why changing a card is not allowed (rulebook "3. Change a card")."""
    hand = state.hands[player]
    if state.final_round:
        return "No changing in the last turns: the pile is used up."
    if state.played:
        return "A change replaces your whole move — you already played this turn."
    if len(hand) != HAND_LIMIT:
        return f"You may change a card only when holding exactly 5 cards (you hold {len(hand)})."
    if state.changed_last[player]:
        return "You changed a card last turn: this turn you must play or pass."
    if card not in hand or not can_change(state, player):
        return (
            f"You do not hold {card_name(card) if card in EVENTS or card in SEAT_CARDS else card}."
        )
    return "You cannot change that card now."


def _explain_ticket(state: TakeoffState) -> str:
    """Why no ticket may be used (rulebook "4. Play the captains ticket")."""
    if state.tickets[state.turn] == 0:
        return "You have no captain's tickets left."
    if state.ticket_used:
        return "Only one captain's ticket may be used per turn."
    return (
        "No free seat is open to a ticket now: the free seats are in rows you already used this "
        "turn, or in Business without a Business-Class card in your hand."
    )


def _explain_target(state: TakeoffState, player: int, key: str, parsed: Key | None) -> str:
    """Why a targeting choice is not offered."""
    pending = state.pending
    assert pending is not None
    name = card_name(pending.card)
    if pending.card == "pinch":
        if isinstance(parsed, Take):
            return "Their hand holds no such card."
        return "The hand has been shown: a Pinch cannot be cancelled — take one of the cards."
    match parsed:
        case Spot("seat", label):
            seat = b.parse_seat(label)
            if seat is None:
                return f"{label!r} is not a seat (rows 1–{b.ROWS}, seats A–F)."
            return _explain_seat(state, player, pending.card, seat)
        case Row(row):
            return f"Row {row} holds no possible choice for {name}."
        case Back():
            return "You are not narrowing to a row right now."
    offered = [t.key for t in targets(state, player, pending.card, pending.picks)]
    if offered and key in offered:
        return "Choose a row first: there are too many choices for one list."
    return f"That is not a possible choice for {name} now — pick one of the offered targets."


def _explain_seat(state: TakeoffState, player: int, card: str, seat: int) -> str:
    """Why one seat is not a target of the current play."""
    label = b.seat_label(seat)
    owner = state.board[seat]
    business = b.is_business_row(b.row_of(seat), state.options.business_rows)
    places = card == "ticket" or card in SEAT_CARDS or _places(card, state)
    if places and owner != b.EMPTY:
        return f"Seat {label} is taken."
    if card in SEAT_CARDS and SEAT_CARDS[card].seat_type != b.seat_type(seat):
        return (
            f"Seat {label} is a {b.seat_type(seat)} seat, not a {SEAT_CARDS[card].seat_type} seat."
        )
    seat_play = card == "ticket" or card in SEAT_CARDS
    if seat_play and business and BUSINESS_CARD not in state.hands[player]:
        return f"Seat {label} is in Business: you need a Business-Class card in hand."
    if places and not can_place(state, (seat,)):
        return f"You already seated a passenger in that row this turn ({_ROWS_RULE})."
    if card in EVENTS:
        return _explain_event_seat(state, player, card, seat, label)
    return f"Seat {label} is not a possible choice now."


def _places(card: str, state: TakeoffState) -> bool:
    """Whether the current step of an event places a stone."""
    spec = EVENTS[card]
    pending = state.pending
    return spec.kind == "place" or (spec.kind == "move_turn" and bool(pending and pending.picks))


def _explain_event_seat(state: TakeoffState, player: int, card: str, seat: int, label: str) -> str:
    """Why an event cannot target one seat."""
    spec = EVENTS[card]
    pending = state.pending
    area = spec.to_area if spec.kind == "move_turn" and pending and pending.picks else spec.area
    if not b.in_area(seat, area or "any", state.options.business_rows):
        return f"{spec.name} acts only in {'Business' if area == 'business' else 'Economy'}."
    owner = state.board[seat]
    if spec.kind == "remove" and owner == b.EMPTY:
        return f"Seat {label} is empty."
    if spec.kind in ("turn", "move_turn") and owner != 1 - player:
        return f"Seat {label} does not hold one of your opponent's passengers."
    if not spec.check and b.in_protected_row(state.board, seat):
        return (
            f"Seat {label} is in a single row filled by one colour: it is protected from events "
            "(only ✔ cards may break it)."
        )
    return f"Seat {label} is not a possible choice for {spec.name} now."
