"""Why an action is illegal, in words a player understands (the engine's explain_illegal)."""

from __future__ import annotations

from rules.core import IllegalActionError
from rules.core.words import Said, said
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
from rules.takeoff.vocab import cabin, seat_type


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
        return said("Finish or cancel your {card} play first.", card=card_name(pending.card))
    if pending is None and isinstance(parsed, TargetKey):
        return said("No play is in progress: start by playing a card or a captain's ticket.")
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
            return said(
                "Nothing was played in your last turn: decline it instead (that ends the game)."
            )
        case Decline():
            if state.final_round:
                return said("You already played in your last turn: finish it instead.")
            return said(
                "Declining is only possible in the last turns after the third pass of the pile."
            )
    return ""  # an unknown key: the shared refusal (rules.core.messages) says all there is


def _explain_play(state: TakeoffState, player: int, card: str) -> str:
    """Why a card cannot be played."""
    if card not in SEAT_CARDS and card not in EVENTS:
        return said("There is no card called {card} in Takeoff!.", card=repr(card))
    name = card_name(card)
    if card not in state.hands[player]:
        return said("You do not hold {card}.", card=name)
    if card == BUSINESS_CARD:
        return said(
            "A Business-Class card is never played alone: play a seat card or a captain's "
            "ticket and choose a Business seat — the red card goes with it."
        )
    if card == "pinch":
        return said("Your opponent has no cards in hand, so there is nothing to pinch.")
    return said("{card} cannot be carried out now: {why}.", card=name, why=_blocked(state, card))


def _blocked(state: TakeoffState, card: str) -> Said:
    """What stops a card (rulebook: events only when their action can be carried out)."""
    if card in SEAT_CARDS:
        return _seat_blocked(state, card)
    spec = EVENTS[card]
    area = cabin(spec.area == "business")
    if spec.kind == "place":
        return _no_place(state, spec.shape, area)
    if spec.kind == "turn":
        return said("your opponent has no passenger in Economy outside protected single rows")
    if spec.kind == "move_turn" and state.rows_used:
        return said(
            "it needs an opponent passenger in Economy outside protected single rows and a free "
            "Business seat in a row you have not used this turn"
        )
    if spec.kind == "move_turn":
        return said(
            "it needs an opponent passenger in Economy outside protected single rows and a free "
            "Business seat anywhere"
        )
    if spec.check:
        return said("there is no passenger to remove there in {area}", area=area)
    return said(
        "there is no passenger in {area} outside single rows filled by one colour (protected)",
        area=area,
    )


def _seat_blocked(state: TakeoffState, card: str) -> Said:
    """What stops a seat card: no seat of its type free, or none open to it."""
    kind = SEAT_CARDS[card].seat_type or ""
    free = [s for s in range(b.SEATS) if state.board[s] == b.EMPTY and b.seat_type(s) == kind]
    if not free:
        return said("no {kind} seat is free", kind=seat_type(kind))
    if not any(can_place(state, (s,)) for s in free):
        return said(
            "every free {kind} seat is in a row you already used this turn (different-rows rule)",
            kind=seat_type(kind),
        )
    return said(
        "the free {kind} seats are in Business and you hold no Business-Class card",
        kind=seat_type(kind),
    )


def _no_place(state: TakeoffState, shape: str, area: Said) -> Said:
    """What stops a placing event: no free seat, pair or single row (in a row still open)."""
    if state.rows_used and shape == "seat":
        return said(
            "there is no free seat in {area} in a row you have not used this turn", area=area
        )
    if shape == "seat":
        return said("there is no free seat in {area}", area=area)
    if state.rows_used and shape == "pair":
        return said(
            "there is no two free neighbouring seats in {area} in a row you have not used "
            "this turn",
            area=area,
        )
    if shape == "pair":
        return said("there is no two free neighbouring seats in {area}", area=area)
    if state.rows_used:
        return said(
            "there is no completely free single row in {area} in a row you have not used this turn",
            area=area,
        )
    return said("there is no completely free single row in {area}", area=area)


def _explain_change(state: TakeoffState, player: int, card: str) -> str:
    """Why changing a card is not allowed (rulebook "3. Change a card")."""
    hand = state.hands[player]
    if state.final_round:
        return said("No changing in the last turns: the pile is used up.")
    if state.played:
        return said("A change replaces your whole move — you already played this turn.")
    if len(hand) != HAND_LIMIT:
        return said(
            "You may change a card only when holding exactly 5 cards (you hold {count}).",
            count=len(hand),
        )
    if state.changed_last[player]:
        return said("You changed a card last turn: this turn you must play or pass.")
    if card not in hand or not can_change(state, player):
        known = card in EVENTS or card in SEAT_CARDS
        return said("You do not hold {card}.", card=card_name(card) if known else card)
    return said("You cannot change that card now.")


def _explain_ticket(state: TakeoffState) -> str:
    """Why no ticket may be used (rulebook "4. Play the captains ticket")."""
    if state.tickets[state.turn] == 0:
        return said("You have no captain's tickets left.")
    if state.ticket_used:
        return said("Only one captain's ticket may be used per turn.")
    return said(
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
            return said("Their hand holds no such card.")
        return said("The hand has been shown: a Pinch cannot be cancelled — take one of the cards.")
    match parsed:
        case Spot("seat", label):
            seat = b.parse_seat(label)
            if seat is None:
                return said(
                    "{seat} is not a seat (rows 1–{rows}, seats A–F).",
                    seat=repr(label),
                    rows=b.ROWS,
                )
            return _explain_seat(state, player, pending.card, seat)
        case Row(row):
            return said("Row {row} holds no possible choice for {card}.", row=row, card=name)
        case Back():
            return said("You are not narrowing to a row right now.")
    offered = [t.key for t in targets(state, player, pending.card, pending.picks)]
    if offered and key in offered:
        return said("Choose a row first: there are too many choices for one list.")
    return said(
        "That is not a possible choice for {card} now — pick one of the offered targets.", card=name
    )


def _explain_seat(state: TakeoffState, player: int, card: str, seat: int) -> str:
    """Why one seat is not a target of the current play."""
    label = b.seat_label(seat)
    owner = state.board[seat]
    business = b.is_business_row(b.row_of(seat), state.options.business_rows)
    places = card == "ticket" or card in SEAT_CARDS or _places(card, state)
    if places and owner != b.EMPTY:
        return said("Seat {seat} is taken.", seat=label)
    wanted = SEAT_CARDS[card].seat_type if card in SEAT_CARDS else None
    if wanted and wanted != b.seat_type(seat):
        return said(
            "Seat {seat} is a {kind} seat, not a {wanted} seat.",
            seat=label,
            kind=seat_type(b.seat_type(seat)),
            wanted=seat_type(wanted),
        )
    seat_play = card == "ticket" or card in SEAT_CARDS
    if seat_play and business and BUSINESS_CARD not in state.hands[player]:
        return said(
            "Seat {seat} is in Business: you need a Business-Class card in hand.", seat=label
        )
    if places and not can_place(state, (seat,)):
        return said("You already seated a passenger in that row this turn (different-rows rule).")
    if card in EVENTS:
        return _explain_event_seat(state, player, card, seat, label)
    return said("Seat {seat} is not a possible choice now.", seat=label)


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
    name = card_name(card)
    if not b.in_area(seat, area or "any", state.options.business_rows):
        return said("{card} acts only in {area}.", card=name, area=cabin(area == "business"))
    owner = state.board[seat]
    if spec.kind == "remove" and owner == b.EMPTY:
        return said("Seat {seat} is empty.", seat=label)
    if spec.kind in ("turn", "move_turn") and owner != 1 - player:
        return said("Seat {seat} does not hold one of your opponent's passengers.", seat=label)
    if not spec.check and b.in_protected_row(state.board, seat):
        return said(
            "Seat {seat} is in a single row filled by one colour: it is protected from events "
            "(only ✔ cards may break it).",
            seat=label,
        )
    return said("Seat {seat} is not a possible choice for {card} now.", seat=label, card=name)
