"""Small helpers every First in Flight module shares: data access, updates, events, abilities."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from rules.core import Action, Event, seat_ref
from rules.core.words import Said, said
from rules.first_in_flight.card_words import flight_card_text
from rules.first_in_flight.data import (
    Ability,
    CopyAbility,
    GameData,
    Modifier,
    RepairSecond,
    UseOccupied,
    load_data,
)
from rules.first_in_flight.keys import (
    ChoosePilot,
    CopyCard,
    Exhaust,
    Garage,
    Ignore,
    Key,
    PickCard,
    Place,
    Refresh,
    TakeDev,
    UseAbility,
    parse_key,
)
from rules.first_in_flight.state import Player, State, Step
from rules.first_in_flight.words import fit

T = TypeVar("T")
DESCRIPTION_MAX = 100  # a Discord select option's description


def data_of(state: State) -> GameData:
    """The card data file this game uses."""
    return load_data(state.options.card_data)


def player(state: State, seat: int) -> Player:
    """One seat's mat."""
    return state.seats[seat]


def set_player(state: State, seat: int, **changes: Any) -> State:
    """A copy of the state with one seat's mat changed."""
    seats = list(state.seats)
    seats[seat] = seats[seat].model_copy(update=changes)
    return state.model_copy(update={"seats": tuple(seats)})


def add_coins(state: State, seat: int, n: int) -> State:
    """Give (or take, when negative) coins."""
    return set_player(state, seat, coins=player(state, seat).coins + n)


def ev(
    kind: str,
    text: str,
    *,
    seat: int | None = None,
    private: str | None = None,
    reveals: bool = False,
) -> Event:
    """An event; `private` is the owner's fuller line (visible to `seat` only)."""
    visible = (seat,) if private is not None and seat is not None else None
    return Event(kind=kind, text=text, visible_to=visible, private_text=private, reveals=reveals)


def who(seat: int) -> str:
    """The seat placeholder for texts."""
    return seat_ref(seat)


def card_name(state: State, card: str) -> str:
    """A readable name for any card id (the data file's names are catalogue entries)."""
    data = data_of(state)
    if card == "pilot":
        return said("Pilot")
    try:
        return Said(data.flight(card).name)
    except KeyError:
        return Said(data.dev(card).name)


def card_short(state: State, card: str) -> str:
    """Any card's text in ≤ 100 characters, cut at a word (a select option's description)."""
    data = data_of(state)
    if card == "pilot":
        return ""
    if card in {p.id for p in data.pilots}:
        pilot = data.pilot(card)
        return fit(Said(pilot.short) if pilot.short else pilot.text, DESCRIPTION_MAX)
    try:
        dev = data.dev(card)
    except KeyError:
        return fit(card_text(state, card), DESCRIPTION_MAX)
    return fit(Said(dev.short or dev.text), DESCRIPTION_MAX)


def card_text(state: State, card: str) -> str:
    """Any card's full text: a Pilot's or Development card's, or a Flight card's in words."""
    data = data_of(state)
    if card in {p.id for p in data.pilots}:
        return data.pilot(card).text  # said ability by ability
    try:
        return Said(data.dev(card).text)
    except KeyError:
        pass
    try:
        return flight_card_text(data, card)
    except KeyError:
        return ""


def choice_texts(state: State, actions: Sequence[Action]) -> tuple[tuple[str, str], ...]:
    """(name, full text) of the Pilot and Development cards these actions choose between."""
    kind = state.steps[-1].kind if state.steps else ""
    texts: dict[str, str] = {}
    for action in actions:
        card = _named_card(parse_key(action.key, kind))
        text = card_text(state, card) if card else ""
        if text:
            texts[_name(state, card)] = text
    return tuple(texts.items())


def _named_card(key: Key) -> str:
    """The card (or Pilot) a key names, or "" when it names none."""
    match key:
        case ChoosePilot(pilot):
            return pilot
        case UseAbility(card) | Place(_, card):
            return card
        case TakeDev(card) | CopyCard(card) | Ignore(card) | Refresh(card) | PickCard(card):
            return card
        case Exhaust(card) | Garage(card):
            return card
    return ""


def _name(state: State, card: str) -> str:
    """A Pilot's or any card's name."""
    data = data_of(state)
    if card in {p.id for p in data.pilots}:
        return Said(data.pilot(card).name)
    return card_name(state, card)


def shuffled(state: State, items: Sequence[T]) -> tuple[tuple[T, ...], State]:
    """Shuffle with the state's RNG; returns the order and the advanced state."""
    order, rng = state.rng.shuffled(items)
    return order, state.model_copy(update={"rng": rng})


def push(state: State, step: Step) -> State:
    """Put a decision on top of the step stack."""
    return state.model_copy(update={"steps": (*state.steps, step)})


def pop(state: State) -> State:
    """Remove the current decision."""
    return state.model_copy(update={"steps": state.steps[:-1]})


def next_seq(state: State) -> tuple[int, State]:
    """A fresh global sequence number (arrival order, record timing)."""
    return state.seq + 1, state.model_copy(update={"seq": state.seq + 1})


def abilities(state: State, seat: int) -> list[tuple[str, Ability]]:
    """Every ability this seat has now: pilot side first, then owned cards in order."""
    data = data_of(state)
    mat = player(state, seat)
    out: list[tuple[str, Ability]] = []
    if mat.pilot:
        pilot = data.pilot(mat.pilot)
        out += [("pilot", a) for a in (pilot.famous if mat.famous else pilot.normal)]
    for owned in mat.cards:
        out += [(owned.card, a) for a in data.dev(owned.card).abilities]
    return out


def modifiers(state: State, seat: int, key: str, card: str = "") -> list[Modifier]:
    """The seat's standing modifiers with this key (and card, when given)."""
    found: list[Modifier] = []
    for _, ability in abilities(state, seat):
        for effect in ability.effects:
            if not isinstance(effect, Modifier) or effect.key != key:
                continue
            if not card or effect.card == card:
                found.append(effect)
    return found


def mod_sum(state: State, seat: int, key: str, card: str = "") -> int:
    """Sum of the n of matching modifiers."""
    return sum(m.n for m in modifiers(state, seat, key, card))


def has_mod(state: State, seat: int, key: str, card: str = "") -> bool:
    """True when the seat has any matching modifier."""
    return bool(modifiers(state, seat, key, card))


def is_ready(state: State, seat: int, source: str, ability: Ability) -> bool:
    """True when an exhausting ability from this source can still be used."""
    mat = player(state, seat)
    if ability.limit == "none":
        return True
    if source == "pilot":
        return mat.pilot_used < ability.uses
    return any(o.card == source and not o.exhausted for o in mat.cards)


def exhaust(state: State, seat: int, source: str) -> State:
    """Mark one use of an ability (pilot use count, or the card turned sideways).

    A `peltier:<card>` source is Peltier's copy of another's card: her Pilot use is spent.
    """
    mat = player(state, seat)
    if source == "pilot" or is_peltier(source):
        return set_player(state, seat, pilot_used=mat.pilot_used + 1)
    cards = list(mat.cards)
    for i, owned in enumerate(cards):
        if owned.card == source and not owned.exhausted:
            cards[i] = owned.model_copy(update={"exhausted": True})
            break
    return set_player(state, seat, cards=tuple(cards))


def ready_abilities(state: State, seat: int, whens: tuple[str, ...]) -> list[tuple[str, Ability]]:
    """Exhausting abilities of these timings that are ready now."""
    return [
        (src, ab)
        for src, ab in abilities(state, seat)
        if ab.when in whens and ab.limit != "none" and is_ready(state, seat, src, ab)
    ]


VIA_PELTIER = "peltier:"  # source prefix: Peltier using another player's (or Gustave's) card


def is_peltier(source: str) -> bool:
    """Whether an ability source is Peltier's copy of someone else's card."""
    return source.startswith(VIA_PELTIER)


def copyable_cards(state: State, seat: int) -> list[str]:
    """Friends and Skills owned (ready or exhausted) by other players and Gustave."""
    data = data_of(state)
    owned = [o.card for s, m in enumerate(state.seats) if s != seat for o in m.cards]
    cards = dict.fromkeys([*owned, *state.gustave_cards])
    return [c for c in cards if data.dev(c).type != "technology"]


def can_copy(state: State, seat: int) -> bool:
    """True when this seat's Pilot (Peltier) has an unused copy-an-ability use."""
    return any(
        src == "pilot"
        and any(isinstance(e, CopyAbility) for e in ab.effects)
        and is_ready(state, seat, src, ab)
        for src, ab in abilities(state, seat)
    )


def at_use_abilities(state: State, seat: int, whens: tuple[str, ...]) -> list[tuple[str, Ability]]:
    """Ready abilities applying at use (move, pay, repair), then Peltier's copies of others'.

    A card this seat owns ready is not offered again through Peltier.
    """
    out = ready_abilities(state, seat, whens)
    if not can_copy(state, seat):
        return out
    mine = {src for src, _ in out}
    for card in copyable_cards(state, seat):
        if card in mine:
            continue
        for ab in data_of(state).dev(card).abilities:
            if ab.when in whens and ab.limit != "none":
                out.append((VIA_PELTIER + card, ab))
    return out


def source_name(state: State, source: str) -> str:
    """'Edith Berg', or 'Edith Berg (via Peltier)' for Peltier's copy."""
    if is_peltier(source):
        card = card_name(state, source.removeprefix(VIA_PELTIER))
        return said("{card} (via Peltier)", card=card)
    return card_name(state, source)


def second_repair_source(state: State, seat: int) -> str:
    """The ready Bollée (own, else Peltier's copy) letting a Repair fix both flaws, or ""."""
    found = at_use_abilities(state, seat, ("repair",))
    return next((s for s, a in found if any(isinstance(e, RepairSecond) for e in a.effects)), "")


def katharine_source(state: State, seat: int) -> str:
    """The ready Katharine Wright (own, else Peltier's copy) for an occupied space, or ""."""
    found = at_use_abilities(state, seat, ("move",))
    return next((s for s, a in found if any(isinstance(e, UseOccupied) for e in a.effects)), "")
