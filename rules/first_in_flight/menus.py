"""Ability menus and the small choices effects ask for: copy, ignore, refresh, look, pick."""

from __future__ import annotations

from rules.core import Action, Event
from rules.core.words import Said, said
from rules.first_in_flight.actions import BACK, copy_spaces, gain_flaw
from rules.first_in_flight.common import (
    DESCRIPTION_MAX,
    abilities,
    card_name,
    card_short,
    copyable_cards,
    data_of,
    ev,
    exhaust,
    is_ready,
    player,
    pop,
    push,
    set_player,
    who,
)
from rules.first_in_flight.data import Ability, CopyAbility, TakeAction
from rules.first_in_flight.effects import (
    apply_effects,
    can_exhaust_in_flight,
    can_use,
    counting_problems,
    deliver,
    return_to_deck,
    use_ability,
)
from rules.first_in_flight.keys import (
    Back,
    CopyCard,
    Done,
    Ignore,
    Key,
    PickCard,
    Place,
    Refresh,
    UseAbility,
    format_key,
    unexpected,
)
from rules.first_in_flight.labels import LABEL_MAX
from rules.first_in_flight.row import add_to_flight, flight_of, set_flight
from rules.first_in_flight.state import State, Step
from rules.first_in_flight.words import fit

DEFERRED = (TakeAction, CopyAbility)  # exhausted only once their choice is completed


def _whens(state: State, seat: int) -> tuple[str, ...]:
    """Timings usable now: in a Flight before Descending, or on a turn."""
    return ("flight", "any") if can_exhaust_in_flight(state, seat) else ("turn", "any")


def _usable(state: State, seat: int, src: str, ability: Ability) -> bool:
    """An exhausting ability usable now by this seat (special cases: Todd, Peltier)."""
    if ability.limit == "none" or ability.when not in _whens(state, seat):
        return False
    if not is_ready(state, seat, src, ability):
        return False
    for effect in ability.effects:
        if isinstance(effect, TakeAction):
            return state.pawns[seat].standing and bool(copy_spaces(state, seat, "todd"))
        if isinstance(effect, CopyAbility):
            return bool(copy_candidates(state, seat))
    return can_use(state, seat, src, ability)


def menu_sources(state: State, seat: int, kind: str) -> list[tuple[str, Ability]]:
    """Usable abilities for a menu: 'skill' (Skills) or 'other' (Pilot, Friends)."""
    data = data_of(state)
    out = []
    for src, ability in abilities(state, seat):
        is_skill = src != "pilot" and data.dev(src).type == "skill"
        if (kind == "skill") == is_skill and _usable(state, seat, src, ability):
            out.append((src, ability))
    return out


def copy_candidates(state: State, seat: int) -> list[tuple[str, Ability]]:
    """Friend and Skill abilities of other players and Gustave this seat could copy now."""
    data = data_of(state)
    out = []
    for card in copyable_cards(state, seat):
        for ability in data.dev(card).abilities:
            if ability.limit == "none" or ability.when not in _whens(state, seat):
                continue
            if any(isinstance(e, DEFERRED) for e in ability.effects):
                continue
            if can_use(state, seat, card, ability):
                out.append((card, ability))
                break
    return out


def abilities_actions(state: State, step: Step) -> list[Action]:
    """The ability submenu."""
    acts = [
        Action(
            key=format_key(UseAbility(src)),
            label=_ability_label(state, step.seat, src),
            group=said("Use an ability"),
            description=ability_text(state, src, ab),
        )
        for src, ab in menu_sources(state, step.seat, step.dest)
    ]
    return [*acts, BACK]


def _ability_label(state: State, seat: int, src: str) -> str:
    """'Roll Control' or 'Pilot: Thérèse Peltier' (the text goes in the description)."""
    if src != "pilot":
        return fit(card_name(state, src), LABEL_MAX)
    pilot = data_of(state).pilot(player(state, seat).pilot)
    return fit(said("Pilot: {pilot}", pilot=Said(pilot.name)), LABEL_MAX)


def ability_text(state: State, src: str, ability: Ability) -> str:
    """What an ability does, ≤ 100 characters: the Pilot ability's own text, else the card's."""
    if src == "pilot" and ability.text:
        return fit(Said(ability.text), DESCRIPTION_MAX)
    return card_short(state, src) or fit(Said(ability.text), DESCRIPTION_MAX)


def handle_abilities(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Use the chosen ability."""
    state = pop(state)
    if isinstance(key, Back):
        return state, []
    if not isinstance(key, UseAbility):
        raise unexpected(key, step.kind)
    src = key.source
    ability = next(a for s, a in menu_sources(state, step.seat, step.dest) if s == src)
    deferred = any(isinstance(e, DEFERRED) for e in ability.effects)
    return use_ability(state, step.seat, src, ability, copied=deferred)


def copy_actions(state: State, step: Step) -> list[Action]:
    """Peltier: which ability to copy."""
    acts = [
        Action(
            key=format_key(CopyCard(c)),
            label=card_name(state, c),
            group=said("Copy an ability"),
            description=card_short(state, c),
        )
        for c, _ in copy_candidates(state, step.seat)
    ]
    return [*acts, BACK]


def handle_copy(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Copy another's ability: the Pilot is exhausted, the copied card is not."""
    state = pop(state)
    if isinstance(key, Back):
        return state, []
    if not isinstance(key, CopyCard):
        raise unexpected(key, step.kind)
    card = key.card
    ability = next(a for c, a in copy_candidates(state, step.seat) if c == card)
    state = exhaust(state, step.seat, step.source)
    event = ev(
        "copied", said("{who} copied {card}.", who=who(step.seat), card=card_name(state, card))
    )
    state, more = apply_effects(state, step.seat, ability.effects, card)
    return state, [event, *more]


def ignore_actions(state: State, step: Step) -> list[Action]:
    """Which revealed card's Problem icon stops counting."""
    return [
        Action(
            key=format_key(Ignore(k)),
            label=said("Ignore {card}", card=card_name(state, k)),
            group=said("Ignore a Problem"),
            description=card_short(state, k),
        )
        for k in counting_problems(state, step.dest)
    ]


def handle_ignore(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Mark the most recent counting card of that kind as ignored."""
    if not isinstance(key, Ignore):
        raise unexpected(key, step.kind)
    kind = key.card
    state = pop(state)
    row = list(flight_of(state).row)
    for i in range(len(row) - 1, -1, -1):
        if row[i].card == kind and not row[i].ignored:
            row[i] = row[i].model_copy(update={"ignored": True})
            break
    text = said(
        "{who}'s {card} Problem no longer counts.", who=who(step.seat), card=card_name(state, kind)
    )
    return set_flight(state, row=tuple(row)), [ev("ignored", text)]


def refresh_actions(state: State, step: Step) -> list[Action]:
    """Which exhausted Skill to refresh."""
    data = data_of(state)
    cards = [
        o.card
        for o in player(state, step.seat).cards
        if o.exhausted and o.card != step.source and data.dev(o.card).type == "skill"
    ]
    return [
        Action(
            key=format_key(Refresh(c)),
            label=card_name(state, c),
            group=said("Refresh a Skill"),
            description=card_short(state, c),
        )
        for c in dict.fromkeys(cards)
    ]


def handle_refresh(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Refresh one exhausted Skill."""
    if not isinstance(key, Refresh):
        raise unexpected(key, step.kind)
    card = key.card
    cards = list(player(state, step.seat).cards)
    i = next(i for i, o in enumerate(cards) if o.card == card and o.exhausted)
    cards[i] = cards[i].model_copy(update={"exhausted": False})
    state = set_player(pop(state), step.seat, cards=tuple(cards))
    text = said("{who} refreshed {card}.", who=who(step.seat), card=card_name(state, card))
    return state, [ev("refreshed", text)]


def look_actions(state: State, step: Step) -> list[Action]:
    """Rearranging looked-at cards: next top card, a card to the bottom, or one into the Flight."""
    names = {c.rstrip("*"): card_name(state, c) for c in step.cards}
    distinct = list(dict.fromkeys(c.rstrip("*") for c in step.cards))
    if step.dest == "reorder":
        return [
            Action(
                key=format_key(Place("top", c)), label=said("Next on top: {card}", card=names[c])
            )
            for c in distinct
        ]
    if step.dest == "one_to_flight":
        return [
            Action(
                key=format_key(Place("fly", c)),
                label=said("Into the Flight: {card}", card=names[c]),
            )
            for c in distinct
        ]
    acts = [
        Action(
            key=format_key(Place("bottom", c)), label=said("To the bottom: {card}", card=names[c])
        )
        for c in distinct
    ]
    return [
        *acts,
        Action(key=format_key(Done()), label=said("Keep the rest on top"), style="primary"),
    ]


def handle_look(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Apply one rearranging choice; finish when nothing is left to decide."""
    seat = step.seat
    if not isinstance(key, Place | Done):
        raise unexpected(key, step.kind)
    verb, shown = (key.where, key.card) if isinstance(key, Place) else ("done", "")
    rest = list(step.cards)
    card = next((c for c in rest if c.rstrip("*") == shown), "")
    if card:
        rest.remove(card)
    deck = player(state, seat).deck
    state = pop(state)
    if verb == "fly":
        state = set_player(state, seat, deck=(*deck, *rest))
        return add_to_flight(state, card, drawn=True)
    if verb == "top":
        kept = (*step.kept, card)
        if len(rest) > 1:
            return push(state, step.model_copy(update={"cards": tuple(rest), "kept": kept})), []
        order = (*kept, *rest)
        return set_player(state, seat, deck=(*order, *deck), known_top=order), []
    if verb == "bottom":
        kept = (*step.kept, card)
        if rest:
            return push(state, step.model_copy(update={"cards": tuple(rest), "kept": kept})), []
        return set_player(state, seat, deck=(*deck, *kept), known_top=()), []
    top = tuple(rest)
    return set_player(state, seat, deck=(*top, *deck, *step.kept), known_top=top), []


def pick_actions(state: State, step: Step) -> list[Action]:
    """Which looked-at card to gain."""
    return [
        Action(
            key=format_key(PickCard(c)),
            label=said("Gain {card}", card=card_name(state, c)),
            group=said("Gain a card"),
            description=card_short(state, c),
        )
        for c in dict.fromkeys(step.cards)
    ]


def handle_pick(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Gain one card; when done, shuffle the rest back (and an Upgrade Action gains a flaw)."""
    if not isinstance(key, PickCard):
        raise unexpected(key, step.kind)
    card = key.card
    rest = list(step.cards)
    rest.remove(card)
    state = pop(state)
    keep = step.keep - 1
    if keep and rest:
        state = push(state, step.model_copy(update={"cards": tuple(rest), "keep": keep}))
    state, events = deliver(state, step.seat, card)
    if keep and rest:
        return state, events
    state = return_to_deck(state, step.dest, tuple(rest))
    if step.source == "upgrade":
        state, more = gain_flaw(state, step.seat)
        events += more
    return state, events
