"""Playing cards and tickets: starting a play, picking targets, completing or cancelling it.

Rulebook "1. Play a seat-/eventcard" and "4. Play the captains ticket"; event cards per the
appendix. A card stays in the hand until its play completes, so a cancel leaves no trace.
"""

from __future__ import annotations

from functools import reduce

from rules.core import Event, IllegalActionError, seat_ref
from rules.core.words import Said, said
from rules.takeoff import board as b
from rules.takeoff.data import BUSINESS_CARD, SEAT_CARDS, card_name
from rules.takeoff.keys import Back, Cancel, MainKey, Row, Spot, Take, TargetKey, format_key
from rules.takeoff.state import Pending, TakeoffState
from rules.takeoff.targets import Effect, effect, steps
from rules.takeoff.turns import FULL, Step, finish, is_full, set_hand, without
from rules.takeoff.vocab import in_turn

PINCH = "pinch"


def start(state: TakeoffState, player: int, card: str) -> Step:
    """Begin playing `card` (or 'ticket'); cards without targets act at once."""
    if card == PINCH:
        return _start_pinch(state, player)
    if steps(card) == 0:
        return complete(state, player, card, ())
    return state.model_copy(update={"pending": Pending(card=card)}), ()


def choose(state: TakeoffState, player: int, key: TargetKey | MainKey) -> Step:
    """Apply one targeting choice of the half-built play."""
    pending = state.pending
    assert pending is not None  # only called while a play is being built
    match key:
        case Cancel():
            return state.model_copy(update={"pending": None}), ()
        case Back():
            narrowed = pending.model_copy(update={"row": None})
            return state.model_copy(update={"pending": narrowed}), ()
        case Row(row):
            narrowed = pending.model_copy(update={"row": int(row)})
            return state.model_copy(update={"pending": narrowed}), ()
        case Take(card):
            return _take(state, player, card)
        case Spot():
            picks = (*pending.picks, format_key(key))
            if len(picks) == steps(pending.card):
                return complete(state, player, pending.card, picks)
            return state.model_copy(update={"pending": Pending(card=pending.card, picks=picks)}), ()
        case _:
            raise IllegalActionError(said("Finish or cancel the play in progress first."))


def complete(state: TakeoffState, player: int, card: str, picks: tuple[str, ...]) -> Step:
    """Carry out a fully targeted play: move stones, discard the cards, log it."""
    eff = effect(state, player, card, picks)
    before = state.board
    board = b.with_owner(before, eff.removed, b.EMPTY)
    board = b.with_owner(board, eff.placed + eff.turned, player)
    freed = {s for s in eff.removed if before[s] != b.EMPTY} | set(state.freed)
    rule = state.options.row_rule
    used = set(state.rows_used) | {b.row_key(s, rule) for s in eff.placed}
    red = _needs_red(state, card, eff)
    state = _pay(state, player, card, red)
    touched = tuple(sorted(set(eff.placed + eff.removed + eff.turned)))
    if state.last_seats_turn == state.turn_no:
        touched = tuple(sorted(set(state.last_seats) | set(touched)))
    state = state.model_copy(
        update={
            "board": board,
            "freed": tuple(sorted(freed - set(eff.placed))),
            "rows_used": tuple(sorted(used)),
            "played": True,
            "pending": None,
            "last_seats": touched,
            "last_seats_turn": state.turn_no,
        }
    )
    event = Event(kind="card_played", text=describe(player, card, eff, red))
    if is_full(state):
        return finish(state, FULL), (event,)
    return state, (event,)


def _needs_red(state: TakeoffState, card: str, eff: Effect) -> bool:
    """Seat cards and tickets need a Business-Class card for a Business seat."""
    if card != "ticket" and card not in SEAT_CARDS:
        return False
    business = state.options.business_rows
    return any(b.is_business_row(b.row_of(s), business) for s in eff.placed)


def _pay(state: TakeoffState, player: int, card: str, red: bool) -> TakeoffState:
    """Move the played card (and a Business-Class card) to the discard pile, or spend a ticket."""
    hand = state.hands[player]
    spent: list[str] = []
    if red:
        hand = without(hand, BUSINESS_CARD)
        spent.append(BUSINESS_CARD)
    if card == "ticket":
        tickets = list(state.tickets)
        tickets[player] -= 1
        state = state.model_copy(update={"tickets": (tickets[0], tickets[1]), "ticket_used": True})
    else:
        hand = without(hand, card)
        spent.append(card)
    state = set_hand(state, player, hand)
    return state.model_copy(update={"discard": (*state.discard, *spent)})


def describe(player: int, card: str, eff: Effect, red: bool) -> Said:
    """The public log line for a completed play."""
    who = seat_ref(player)
    parts: list[Said] = []
    if eff.removed:
        parts.append(said("emptied {seats}", seats=_labels(eff.removed)))
    if eff.turned:
        parts.append(said("turned over {seats}", seats=_labels(eff.turned)))
    if eff.placed:
        parts.append(said("seated a passenger on {seats}", seats=_labels(eff.placed)))
    what = in_turn(parts)
    if card == "ticket" and red:
        return said(
            "{who} used a captain's ticket with a Business-Class card: {what}.", who=who, what=what
        )
    if card == "ticket":
        return said("{who} used a captain's ticket: {what}.", who=who, what=what)
    name = card_name(card)
    if red:
        return said(
            "{who} played {card} with a Business-Class card: {what}.", who=who, card=name, what=what
        )
    return said("{who} played {card}: {what}.", who=who, card=name, what=what)


def _labels(seats: tuple[int, ...]) -> str:
    """Seat codes, as they are in every language: '7A, 7B'."""
    return ", ".join(b.seat_label(s) for s in seats)


def _start_pinch(state: TakeoffState, player: int) -> Step:
    """Pinch a card: discard it at once and see the opponent's hand (private to the player)."""
    opponent = 1 - player
    state = set_hand(state, player, without(state.hands[player], PINCH))
    state = state.model_copy(
        update={
            "discard": (*state.discard, PINCH),
            "pending": Pending(card=PINCH),
            "played": True,
        }
    )
    shown = _names(state.hands[opponent])
    who, other = seat_ref(player), seat_ref(opponent)
    played = Event(
        kind="card_played", text=said("{who} played {card}.", who=who, card=card_name(PINCH))
    )
    reveal = Event(
        kind="hand_shown",
        text=said("{other} showed their hand to {who}.", other=other, who=who),
        visible_to=(player,),
        private_text=said(
            "{other} showed their hand to {who}: {cards}.", other=other, who=who, cards=shown
        ),
        reveals=True,
    )
    return state, (played, reveal)


def _take(state: TakeoffState, player: int, card: str) -> Step:
    """Take the chosen card from the opponent's hand into one's own."""
    opponent = 1 - player
    state = set_hand(state, opponent, without(state.hands[opponent], card))
    state = set_hand(state, player, (*state.hands[player], card))
    state = state.model_copy(update={"pending": None})
    who, other = seat_ref(player), seat_ref(opponent)
    event = Event(
        kind="card_taken",
        text=said("{who} took a card from {other}'s hand.", who=who, other=other),
        visible_to=(player, opponent),
        private_text=said(
            "{who} took {card} from {other}'s hand.", who=who, card=card_name(card), other=other
        ),
    )
    return state, (event,)


def _names(cards: tuple[str, ...]) -> Said:
    """Card names in a list ('Window seat, Stretcher'), each translated on its own."""
    if not cards:
        return Said("")
    return reduce(
        lambda head, name: said("{head}, {name}", head=head, name=name), map(card_name, cards)
    )
