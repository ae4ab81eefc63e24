"""The effect interpreter: conditions, usefulness and the effects of abilities and bonuses."""

from __future__ import annotations

from rules.core import Event
from rules.core.words import said
from rules.first_in_flight.common import (
    add_coins,
    card_name,
    data_of,
    ev,
    exhaust,
    mod_sum,
    player,
    push,
    set_player,
    shuffled,
    who,
)
from rules.first_in_flight.data import (
    Ability,
    BonusIf,
    BoostNextUpgrade,
    BottomRecent,
    CancelFlaw,
    Coins,
    Condition,
    CopyAbility,
    Distance,
    DistancePer,
    Effect,
    ExhaustOrDescend,
    Gain,
    IgnoreProblem,
    LookTop,
    NoLieDown,
    RedrawRecent,
    RefreshSkill,
    ScrapNext,
    TakeAction,
)
from rules.first_in_flight.row import (
    add_to_flight,
    count_per,
    draw_into_flight,
    flight_of,
    is_pending,
    set_flight,
    take_supply,
)
from rules.first_in_flight.state import SUPPLY, Owned, State, Step, dev_index
from rules.first_in_flight.words import cards as n_cards
from rules.first_in_flight.words import coins, dev_cards, listed, no_card_left


def is_flying(state: State, seat: int) -> bool:
    """True while this seat's Flight is still adding cards (not crashed, not landed)."""
    f = state.flight
    return f is not None and f.seat == seat and not f.crashed and not f.landed and not f.done


def can_exhaust_in_flight(state: State, seat: int) -> bool:
    """Skills and exhaust abilities work only in your Flight before Descending."""
    return is_flying(state, seat) and not flight_of(state).descended


def counting_problems(state: State, kind: str) -> list[str]:
    """Kinds of revealed cards whose Problem icon still counts (filtered by `kind`)."""
    data = data_of(state)
    out: list[str] = []
    for rc in flight_of(state).row:
        spec = data.flight(rc.card)
        wanted = not kind or spec.id == kind
        if spec.problems and not rc.ignored and wanted and spec.id not in out:
            out.append(spec.id)
    return out


def condition_holds(state: State, seat: int, cond: Condition | None, source: str) -> bool:
    """Check an activated ability's condition against the current Flight."""
    if cond is None:
        return True
    if not is_flying(state, seat):
        return not (cond.flight_start or cond.recent is not None or cond.has)
    row = flight_of(state).row
    data = data_of(state)
    if cond.flight_start and row:
        return False
    if cond.recent is not None:
        recent = row[-cond.count :] if cond.count else ()
        if len(recent) < cond.count:
            return False
        if cond.recent and any(data.flight(rc.card).kind != cond.recent for rc in recent):
            return False
    if cond.has and not counting_problems(state, cond.has):
        return False
    if cond.pending and not is_pending(state, cond.pending):
        return False
    return not (cond.exhausted_skill and not _other_exhausted_skills(state, seat, source))


def _other_exhausted_skills(state: State, seat: int, source: str) -> list[str]:
    """Exhausted Skills of this seat other than `source`."""
    data = data_of(state)
    return [
        o.card
        for o in player(state, seat).cards
        if o.exhausted and o.card != source and data.dev(o.card).type == "skill"
    ]


def is_useful(state: State, seat: int, effect: Effect, source: str) -> bool:
    """Whether using an effect now would change anything (useless uses are not offered)."""
    flying = can_exhaust_in_flight(state, seat)
    if isinstance(effect, (Distance, DistancePer, BonusIf, BoostNextUpgrade, NoLieDown)):
        return flying
    if isinstance(effect, LookTop):
        return flying and bool(player(state, seat).deck)
    if isinstance(effect, IgnoreProblem):
        return flying and bool(counting_problems(state, effect.card))
    if isinstance(effect, CancelFlaw):
        return flying and any(is_pending(state, c) for c in effect.cards)
    if isinstance(effect, BottomRecent):
        return flying and bool(counting_problems(state, effect.card))
    if isinstance(effect, RedrawRecent):
        return flying and bool(flight_of(state).row)
    if isinstance(effect, RefreshSkill):
        return bool(_other_exhausted_skills(state, seat, source))
    if isinstance(effect, Gain):
        return can_gain(state, effect.card)
    return isinstance(effect, (Coins, TakeAction, CopyAbility))


def can_use(state: State, seat: int, source: str, ability: Ability) -> bool:
    """An activated ability is offered when its condition holds and some effect does something."""
    if not condition_holds(state, seat, ability.condition, source):
        return False
    return any(is_useful(state, seat, e, source) for e in ability.effects)


def can_gain(state: State, card: str) -> bool:
    """True when a card of this kind is left to gain."""
    if card in SUPPLY:
        return state.supply[SUPPLY.index(card)] > 0
    if card == "upgrade":
        return bool(state.upgrade_deck)
    i = dev_index(card)
    return bool(state.dev_decks[i] or state.dev_discards[i])


def use_ability(
    state: State, seat: int, source: str, ability: Ability, *, copied: bool = False
) -> tuple[State, list[Event]]:
    """Exhaust (unless copied) and resolve an activated ability."""
    if not copied:
        state = exhaust(state, seat, source)
    if source == "pilot":
        text = said("{who} used their Pilot.", who=who(seat))
    else:
        text = said("{who} used {card}.", who=who(seat), card=card_name(state, source))
    events = [ev("ability_used", text)]
    state, more = apply_effects(state, seat, ability.effects, source)
    return state, events + more


def apply_effects(
    state: State, seat: int, effects: tuple[Effect, ...], source: str
) -> tuple[State, list[Event]]:
    """Resolve effects in order; interactive ones push a decision step."""
    events: list[Event] = []
    for effect in effects:
        state, more = apply_effect(state, seat, effect, source)
        events += more
    return state, events


def apply_effect(state: State, seat: int, effect: Effect, source: str) -> tuple[State, list[Event]]:
    """Resolve one effect for `seat`."""
    if isinstance(effect, Coins):
        return add_coins(state, seat, effect.n), [
            ev("coins", said("{who} gained {coins}.", who=who(seat), coins=coins(effect.n)))
        ]
    if isinstance(effect, Gain):
        return gain(state, seat, effect.card)
    if isinstance(effect, Distance):
        f = flight_of(state)
        return set_flight(state, bonus=f.bonus + effect.n), [_bonus(effect.n)]
    if isinstance(effect, DistancePer):
        n = effect.n * count_per(state, effect.per)
        return set_flight(state, bonus=flight_of(state).bonus + n), [_bonus(n)]
    if isinstance(effect, BonusIf):
        entry = (effect.cond, effect.value, effect.n)
        return set_flight(state, bonuses_if=(*flight_of(state).bonuses_if, entry)), []
    if isinstance(effect, BoostNextUpgrade):
        f = flight_of(state)
        return set_flight(state, next_upgrade_bonus=f.next_upgrade_bonus + effect.n), []
    if isinstance(effect, NoLieDown):
        return set_flight(state, no_lie_down=True), []
    if isinstance(effect, LookTop):
        return look_top(state, seat, effect)
    if isinstance(effect, (IgnoreProblem, RefreshSkill, CopyAbility, TakeAction)):
        return _push_choice(state, seat, effect, source), []
    if isinstance(effect, CancelFlaw):
        text = said("{who} cancelled a flaw.", who=who(seat))
        return cancel_flaw(state, effect), [ev("cancelled", text)]
    if isinstance(effect, BottomRecent):
        return bottom_recent(state, seat, effect.card)
    if isinstance(effect, RedrawRecent):
        return redraw_recent(state, seat)
    return state, []


def _bonus(n: int) -> Event:
    """'+3 Distance.'"""
    return ev("bonus", said("+{n} Distance.", n=n))


def _push_choice(state: State, seat: int, effect: Effect, source: str) -> State:
    """Effects that need a choice become a decision step."""
    if isinstance(effect, IgnoreProblem):
        return push(state, Step(kind="ignore", seat=seat, dest=effect.card, source=source))
    if isinstance(effect, RefreshSkill):
        return push(state, Step(kind="refresh", seat=seat, source=source))
    if isinstance(effect, CopyAbility):
        return push(state, Step(kind="copy", seat=seat, source=source))
    assert isinstance(effect, TakeAction)
    via = "todd" if effect.scope == "behind" else "fame"
    return push(state, Step(kind="space", seat=seat, via=via, source=source))


def cancel_flaw(state: State, effect: CancelFlaw) -> State:
    """Cancel the pending effect of the first listed flaw kind that is pending."""
    data = data_of(state)
    for kind in effect.cards:
        if not is_pending(state, kind):
            continue
        spec = data.flight(kind)
        f = flight_of(state)
        if f.pitch and any(isinstance(e, ExhaustOrDescend) for e in spec.on_draw):
            return set_flight(state, pitch=False)
        if f.elevator and any(isinstance(e, ScrapNext) for e in spec.on_draw):
            return set_flight(state, elevator=False)
        row = list(f.row)
        for i in range(len(row) - 1, -1, -1):
            if row[i].card == kind and not row[i].cancelled:
                row[i] = row[i].model_copy(update={"cancelled": True})
                return set_flight(state, row=tuple(row))
    return state


def bottom_recent(state: State, seat: int, kind: str) -> tuple[State, list[Event]]:
    """Move the most recent counting card of this kind from the Flight to the deck's bottom."""
    row = list(flight_of(state).row)
    for i in range(len(row) - 1, -1, -1):
        if row[i].card == kind and not row[i].ignored:
            card = row.pop(i).card
            state = set_flight(state, row=tuple(row))
            state = set_player(state, seat, deck=(*player(state, seat).deck, card))
            text = said(
                "{who} put a {card} on the bottom.", who=who(seat), card=card_name(state, card)
            )
            return state, [ev("bottomed", text)]
    return state, []


def redraw_recent(state: State, seat: int) -> tuple[State, list[Event]]:
    """Shuffle the most recent Flight card back into the deck and draw one (Quick Adjustment)."""
    row = flight_of(state).row
    card = row[-1].card
    state = set_flight(state, row=row[:-1])
    deck, state = shuffled(state, (*player(state, seat).deck, card))
    state = set_player(state, seat, deck=deck, known_top=())
    text = said("{who} shuffled {card} back.", who=who(seat), card=card_name(state, card))
    events = [ev("shuffled", text, reveals=True)]
    state, more = draw_into_flight(state)
    return state, events + more


def look_top(state: State, seat: int, effect: LookTop) -> tuple[State, list[Event]]:
    """Take the top cards aside (seen only by the seat) and ask how to put them back."""
    n = effect.n + mod_sum(state, seat, "look_bonus")
    mat = player(state, seat)
    cards = mat.deck[:n]
    state = set_player(state, seat, deck=mat.deck[len(cards) :], known_top=())
    state = push(state, Step(kind="look", seat=seat, cards=cards, dest=effect.mode))
    names = listed([card_name(state, c) for c in cards])
    text = said(
        "{who} looked at the top {cards} of their deck.", who=who(seat), cards=n_cards(len(cards))
    )
    private = said("You looked at: {names}.", names=names)
    return state, [ev("looked", text, seat=seat, private=private, reveals=True)]


def gain(state: State, seat: int, card: str) -> tuple[State, list[Event]]:
    """Gain a card: a supply card, or the top of a deck (Langley looks further and chooses)."""
    if card in SUPPLY:
        ok, state = take_supply(state, card)
        if not ok:
            text = said("No {card} was left to gain.", card=card_name(state, card))
            return state, [ev("supply_empty", text)]
        return deliver(state, seat, card)
    extra = mod_sum(state, seat, "gain_look")
    cards, state = take_from_deck(state, card, 1 + extra)
    if not cards:
        return state, [ev("deck_empty", no_card_left(card))]
    if len(cards) == 1:
        state, events = deliver(state, seat, cards[0])
        # the top of a shuffled deck is a random result
        return state, [e.model_copy(update={"reveals": True}) for e in events]
    state = push(state, Step(kind="pick", seat=seat, cards=cards, keep=1, dest=card))
    names = listed([card_name(state, c) for c in cards])
    text = said(
        "{who} looked at {cards} to gain one.", who=who(seat), cards=dev_cards(len(cards), card)
    )
    private = said("You looked at: {names}.", names=names)
    return state, [ev("looked", text, seat=seat, private=private, reveals=True)]


def take_from_deck(state: State, kind: str, n: int) -> tuple[tuple[str, ...], State]:
    """Remove the top n cards of the Upgrade deck or a Development deck (reshuffling discards)."""
    if kind == "upgrade":
        cards = state.upgrade_deck[:n]
        return cards, state.model_copy(update={"upgrade_deck": state.upgrade_deck[len(cards) :]})
    i = dev_index(kind)
    decks, discards = list(state.dev_decks), list(state.dev_discards)
    if len(decks[i]) < n and discards[i]:
        fresh, state = shuffled(state, discards[i])
        decks[i], discards[i] = decks[i] + fresh, ()
    cards = decks[i][:n]
    decks[i] = decks[i][len(cards) :]
    return cards, state.model_copy(
        update={"dev_decks": tuple(decks), "dev_discards": tuple(discards)}
    )


def return_to_deck(state: State, kind: str, cards: tuple[str, ...]) -> State:
    """Shuffle cards that were looked at back into their deck."""
    if not cards:
        return state
    if kind == "upgrade":
        deck, state = shuffled(state, (*state.upgrade_deck, *cards))
        return state.model_copy(update={"upgrade_deck": deck})
    i = dev_index(kind)
    decks = list(state.dev_decks)
    decks[i], state = shuffled(state, (*decks[i], *cards))
    return state.model_copy(update={"dev_decks": tuple(decks)})


def deliver(state: State, seat: int, card: str) -> tuple[State, list[Event]]:
    """Put a gained card where it goes: the Flight if flying, else deck or play area."""
    name = card_name(state, card)
    data = data_of(state)
    if card in {d.id for d in data.development}:
        cards = (*player(state, seat).cards, Owned(card=card))
        text = said("{who} gained {card}.", who=who(seat), card=name)
        return set_player(state, seat, cards=cards), [ev("gained", text)]
    if is_flying(state, seat):
        return add_to_flight(state, card, drawn=False)
    state = set_player(state, seat, deck=(*player(state, seat).deck, card))
    return state, [
        ev("gained", said("{who} gained {card} into their deck.", who=who(seat), card=name))
    ]
