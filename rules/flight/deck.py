"""The pack and the discards: dealing a hand, drawing and reshuffling (rules 1, 2 and 9)."""

from __future__ import annotations

from rules.core import Event, Rng, seat_ref
from rules.core.words import said
from rules.flight.data import card, full_deck, load_data, route_ids, sort_cards
from rules.flight.phrases import listing, n_cards, n_discards
from rules.flight.state import Flight, FlightOptions, FlightState, Step


def deal(
    players: int, dealer: int, rng: Rng
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...], Rng]:
    """Rule 1: shuffle all 44 cards, deal 7 each from the dealer's left, turn up the next card."""
    cards, rng = rng.shuffled(full_deck())
    size = load_data().hand_size
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: list[tuple[str, ...]] = [() for _ in range(players)]
    for i, seat in enumerate(order):
        # One block of 7 per seat: the deal order changes no odds and keeps rigging simple.
        hands[seat] = sort_cards(cards[i * size : (i + 1) * size])
    rest = cards[players * size :]
    return tuple(hands), rest[1:], rest[:1], rng


def new_hand_state(
    players: int,
    options: FlightOptions,
    rng: Rng,
    *,
    dealer: int,
    hand_number: int,
    scores: tuple[int, ...],
) -> FlightState:
    """A freshly dealt hand; the player left of the dealer starts (rule 2)."""
    hands, pack, discards, rng = deal(players, dealer, rng)
    return FlightState(
        players=players,
        options=options,
        rng=rng,
        hand_number=hand_number,
        dealer=dealer,
        turn=(dealer + 1) % players,
        hands=hands,
        pack=pack,
        discards=discards,
        flights=tuple(Flight(route=r) for r in route_ids()),
        step=Step(),
        scores=scores,
    )


def dealt_event(state: FlightState) -> Event:
    """The public record of a new deal (a random result: reveals=True)."""
    text = said(
        "Hand {number}: {dealer} dealt 7 cards each and turned up {card}. {first} plays first.",
        number=state.hand_number,
        dealer=seat_ref(state.dealer),
        card=card(state.discards[-1]).name,
        first=seat_ref(state.turn),
    )
    return Event(kind="hand_dealt", text=text, reveals=True)


def pack_available(state: FlightState) -> int:
    """Cards the pack can still give, counting a reshuffle of the discards under the top one."""
    return len(state.pack) + max(0, len(state.discards) - 1)


def reshuffle(state: FlightState) -> tuple[FlightState, Event]:
    """Ruling 11: shuffle the discards except the top one into a new pack."""
    pack, rng = state.rng.shuffled(state.discards[:-1])
    new = state.model_copy(update={"pack": pack, "discards": state.discards[-1:], "rng": rng})
    event = Event(
        kind="pack_reshuffled",
        text=said(
            "The pack ran out: {discards} shuffled into a new pack.", discards=n_discards(len(pack))
        ),
        reveals=True,
    )
    return new, event


def draw_pack(state: FlightState, seat: int, count: int) -> tuple[FlightState, list[Event]]:
    """Draw up to `count` cards from the top of the pack into the seat's hand."""
    events: list[Event] = []
    drawn: list[str] = []
    for _ in range(count):
        if not state.pack:
            if len(state.discards) < 2:
                break
            state, event = reshuffle(state)
            events.append(event)
        drawn.append(state.pack[0])
        state = state.model_copy(update={"pack": state.pack[1:]})
    state = state.with_hand(seat, sort_cards((*state.hands[seat], *drawn)))
    names = listing([card(code).name for code in drawn])
    events.append(
        Event(
            kind="cards_drawn",
            text=said(
                "{who} drew {cards} from the pack.", who=seat_ref(seat), cards=n_cards(len(drawn))
            ),
            visible_to=(seat,),
            private_text=said("You drew {cards} from the pack.", cards=names),
            reveals=True,
        )
    )
    return state, events


def take_discard(state: FlightState, seat: int) -> tuple[FlightState, Event]:
    """Take the exposed discard (public, so no reveal)."""
    top = state.discards[-1]
    state = state.model_copy(update={"discards": state.discards[:-1]})
    state = state.with_hand(seat, sort_cards((*state.hands[seat], top)))
    text = said("{who} took the exposed {card}.", who=seat_ref(seat), card=card(top).name)
    event = Event(kind="discard_taken", text=text)
    return state, event


def discard(state: FlightState, seat: int, code: str) -> tuple[FlightState, Event]:
    """Rule 2: end the turn by discarding one card face up."""
    hand = list(state.hands[seat])
    hand.remove(code)
    state = state.with_hand(seat, tuple(hand)).model_copy(
        update={"discards": (*state.discards, code)}
    )
    text = said("{who} discarded {card}.", who=seat_ref(seat), card=card(code).name)
    return state, Event(kind="card_discarded", text=text)
