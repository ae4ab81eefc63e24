"""Taking an action: choosing space, option, target and payment, then the action itself."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from rules.core import Action, Event
from rules.core.words import said
from rules.first_in_flight.board import (
    action_spaces,
    move_pawn,
    occupant,
    pay_time,
    spaces,
)
from rules.first_in_flight.common import (
    VIA_PELTIER,
    add_coins,
    card_name,
    card_short,
    data_of,
    ev,
    exhaust,
    is_peltier,
    katharine_source,
    player,
    pop,
    push,
    second_repair_source,
    set_player,
    shuffled,
    who,
)
from rules.first_in_flight.costs import Payment, alternatives, target_option, upgrade_looks
from rules.first_in_flight.data import SpaceOption
from rules.first_in_flight.effects import apply_effects, can_gain, gain, take_from_deck
from rules.first_in_flight.keys import (
    Back,
    ChooseOption,
    CopySpace,
    DeckTop,
    Key,
    Pay,
    RepairSlots,
    TakeDev,
    UseSpace,
    format_key,
    unexpected,
)
from rules.first_in_flight.labels import (
    ACTION_NAMES,
    LABEL_MAX,
    option_text,
    space_does,
    space_label,
    space_name,
)
from rules.first_in_flight.row import take_supply
from rules.first_in_flight.state import State, Step, dev_index
from rules.first_in_flight.words import coins, fit, listed, upgrade_cards

CHAIN = ("option", "any_target", "copy_option", "repair_slot", "pay", "space", "abilities")
BACK = Action(key=format_key(Back()), label=said("Back"), style="secondary")


def can_execute(state: State, seat: int, action: str) -> bool:
    """Whether an action could be carried out at all (supplies, decks, Garage)."""
    if action in ("glide", "experience"):
        return can_gain(state, action)
    if action in ("friend", "technology", "skill"):
        return bool(state.display[dev_index(action)]) or can_gain(state, action)
    if action == "upgrade":
        return bool(state.upgrade_deck) and bool(state.flaw_deck or state.flaw_discard)
    if action == "repair":
        return any(player(state, seat).garage)
    return action in ("funding", "fly")


def stand_pos(state: State, step: Step) -> int:
    """Where the pawn stands when Time is paid: the chosen space, or where it is (Todd, Fame)."""
    return step.space if step.via in ("move", "katharine") else state.pawns[step.seat].pos


def targets(state: State, step: Step) -> list[Step]:
    """Every fully specified (option, copy, slots) choice reachable from a space step."""
    return [s for s in _choices(state, step) if _payable(state, s)]


def has_target(state: State, step: Step) -> bool:
    """Whether `targets` would offer anything (stops at the first payable choice)."""
    return any(_payable(state, s) for s in _choices(state, step))


def _choices(state: State, step: Step) -> Iterator[Step]:
    """Every (option, copy, slots) choice of a space step, payable or not, in menu order."""
    for i, opt in enumerate(spaces(state)[step.space].options):
        if opt.action == "any":
            for c in action_spaces(state):
                if any(o.action == "any" for o in spaces(state)[c].options):
                    continue
                for j in range(len(spaces(state)[c].options)):
                    yield from _with_slots(
                        state, step.model_copy(update={"option": j, "copied": c})
                    )
        else:
            yield from _with_slots(state, step.model_copy(update={"option": i, "copied": -1}))


def _with_slots(state: State, step: Step) -> list[Step]:
    """Repair choices expand into Garage slot sets; other actions pass through."""
    if target_option(state, step).action != "repair":
        return [step]
    garage = player(state, step.seat).garage
    filled = [i for i in (0, 1) if garage[i]]
    sets: list[tuple[int, ...]] = [(i,) for i in filled]
    second = second_repair_source(state, step.seat)
    if is_peltier(second) and step.via == "katharine":
        # Peltier's one use cannot pay for both Katharine Wright and Léon Bollée
        second = "" if is_peltier(katharine_source(state, step.seat)) else second
    if len(filled) == 2 and second:
        sets.append((0, 1))
    return [step.model_copy(update={"slots": s}) for s in sets]


def _payable(state: State, step: Step) -> bool:
    """The action can be executed and paid for."""
    opt = target_option(state, step)
    if not can_execute(state, step.seat, opt.action):
        return False
    return bool(alternatives(state, step.seat, step, stand_pos(state, step)))


def katharine_ready(state: State, seat: int) -> bool:
    """True when a ready ability lets this seat use an occupied Action Space."""
    return bool(katharine_source(state, seat))


def move_targets(state: State, seat: int) -> list[int]:
    """Action Spaces ahead that this standing pawn may move to and pay for."""
    here = state.pawns[seat].pos
    out = []
    for pos in action_spaces(state):
        if pos <= here:
            continue
        taken = occupant(state, pos, seat) is not None
        if taken and not katharine_ready(state, seat):
            continue
        via = "katharine" if taken else "move"
        if has_target(state, Step(kind="space", seat=seat, space=pos, via=via)):
            out.append(pos)
    return out


def copy_spaces(state: State, seat: int, via: str) -> list[int]:
    """Spaces a Todd (behind, this Year) or Fame (any) action may use without moving."""
    here = state.pawns[seat].pos
    out = []
    for pos in action_spaces(state):
        if via == "todd" and pos >= here:
            continue
        if has_target(state, Step(kind="space", seat=seat, space=pos, via=via)):
            out.append(pos)
    return out


def space_actions(state: State, step: Step) -> list[Action]:
    """The 'space' step: pick a space to use without moving (Todd, Fame)."""
    acts = [
        Action(
            key=format_key(UseSpace(p)),
            label=space_label(state, p),
            group=said("Take the action of"),
            description=space_does(state, p),
        )
        for p in copy_spaces(state, step.seat, step.via)
    ]
    return [*acts, BACK]


def _top_options(state: State, step: Step) -> list[int]:
    """Options of the space itself that lead to a legal action (an Any option counts once)."""
    opts = spaces(state)[step.space].options
    any_i = next((i for i, o in enumerate(opts) if o.action == "any"), -1)
    return sorted({c.option if c.copied < 0 else any_i for c in targets(state, step)})


def begin(state: State, step: Step) -> tuple[State, list[Event]]:
    """Start the choice chain on a space: option, copy target, slots, payment."""
    step = step.model_copy(update={"kind": "space"})
    valid = _top_options(state, step)
    if len(valid) > 1:
        return push(state, step.model_copy(update={"kind": "option"})), []
    return _after_option(state, step, valid[0])


def _after_option(state: State, step: Step, i: int) -> tuple[State, list[Event]]:
    """An option of the space is chosen: Any asks which space to copy."""
    if spaces(state)[step.space].options[i].action == "any":
        return push(state, step.model_copy(update={"kind": "any_target", "option": -1})), []
    return after_target(state, step.model_copy(update={"option": i, "copied": -1}))


def _copy_options(state: State, step: Step) -> list[int]:
    """Options of the copied space that lead to a legal action."""
    probe = step.model_copy(update={"kind": "space"})
    return sorted({c.option for c in targets(state, probe) if c.copied == step.copied})


def after_target(state: State, step: Step) -> tuple[State, list[Event]]:
    """Option (and copy) known: choose Garage slots if repairing, then payment."""
    probe = step.model_copy(update={"kind": "space"})
    sets = sorted(
        {
            c.slots
            for c in targets(state, probe)
            if (c.option, c.copied) == (step.option, step.copied)
        }
    )
    if len(sets) > 1:
        return push(state, step.model_copy(update={"kind": "repair_slot"})), []
    step = step.model_copy(update={"slots": sets[0] if sets else ()})
    return _to_payment(state, step)


def _to_payment(state: State, step: Step) -> tuple[State, list[Event]]:
    """Pay at once when there is a single way, else ask."""
    pays = alternatives(state, step.seat, step, stand_pos(state, step))
    if len(pays) == 1 and target_option(state, step).action != "upgrade":
        return commit(push(state, step.model_copy(update={"kind": "pay"})), step, pays[0])
    return push(state, step.model_copy(update={"kind": "pay"})), []


def _option_choices(
    copied: bool, opts: Sequence[SpaceOption], indices: Iterable[int]
) -> list[Action]:
    """One button per available option of a space (own or copied), then Back."""
    acts = [
        Action(key=format_key(ChooseOption(i, copied)), label=option_text(opts[i]), style="primary")
        for i in indices
    ]
    return [*acts, BACK]


def chain_actions(state: State, step: Step) -> list[Action]:
    """Legal actions for the option / any_target / copy_option / repair_slot / pay steps."""
    if step.kind == "option":
        return _option_choices(False, spaces(state)[step.space].options, _top_options(state, step))
    if step.kind == "any_target":
        probe = step.model_copy(update={"kind": "space"})
        copies = sorted({c.copied for c in targets(state, probe) if c.copied >= 0})
        acts = [
            Action(
                key=format_key(CopySpace(c)),
                label=space_label(state, c),
                group=said("Copy which space"),
                description=space_does(state, c),
            )
            for c in copies
        ]
        return [*acts, BACK]
    if step.kind == "copy_option":
        opts = spaces(state)[step.copied].options
        return _option_choices(True, opts, _copy_options(state, step))
    if step.kind == "repair_slot":
        probe = step.model_copy(update={"kind": "space"})
        sets = sorted(
            {
                c.slots
                for c in targets(state, probe)
                if (c.option, c.copied) == (step.option, step.copied)
            }
        )
        return [*(_slot_action(state, step.seat, s) for s in sets), BACK]
    return [*_pay_actions(state, step), BACK]


def _slot_action(state: State, seat: int, slots: tuple[int, ...]) -> Action:
    """An action repairing one or both Garage slots."""
    garage = player(state, seat).garage
    flaws = [card_name(state, garage[s]) for s in slots]
    names = (
        flaws[0]
        if len(flaws) == 1
        else said("{first} and {second}", first=flaws[0], second=flaws[1])
    )
    if slots == (0, 1):
        source = second_repair_source(state, seat)
        card = card_name(state, source.removeprefix(VIA_PELTIER))
        if is_peltier(source):
            label = said("Repair both ({card} via Peltier): {flaws}", card=card, flaws=names)
        else:
            label = said("Repair both ({card}): {flaws}", card=card, flaws=names)
    elif slots == (0,):
        label = said("Repair left: {flaws}", flaws=names)
    else:
        label = said("Repair right (+1 Time): {flaws}", flaws=names)
    return Action(key=format_key(RepairSlots(slots)), label=fit(label, LABEL_MAX), style="primary")


def _pay_actions(state: State, step: Step) -> list[Action]:
    """One action per affordable payment."""
    pays = alternatives(state, step.seat, step, stand_pos(state, step))
    if target_option(state, step).action != "upgrade":
        return [Action(key=p.key, label=p.label, style="primary") for p in pays]
    return [
        Action(
            key=p.key,
            label=p.label,
            group=said("Choose X and payment"),
            style="primary",
            description=_upgrade_words(state, step.seat, p.x),
        )
        for p in pays
    ]


def _upgrade_words(state: State, seat: int, x: int) -> str:
    """What paying X buys: 'Look at 5 Upgrade cards, gain 2 of them, then gain a Design Flaw.'"""
    looks = min(upgrade_looks(state, seat, x), len(state.upgrade_deck))
    if looks > 1:
        return said(
            "Look at {cards}, gain 2 of them, then gain a Design Flaw.", cards=upgrade_cards(looks)
        )
    return said("Look at {cards}, gain it, then gain a Design Flaw.", cards=upgrade_cards(looks))


def handle_chain(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Resolve a key in the choice chain."""
    match key:
        case Back():
            return pop(state), []
        case UseSpace(space):
            return begin(state, step.model_copy(update={"space": space}))
        case ChooseOption(index, copied=False):
            return _after_option(state, step, index)
        case CopySpace(space):
            nxt = step.model_copy(update={"copied": space})
            valid = _copy_options(state, nxt)
            if len(valid) > 1:
                return push(state, nxt.model_copy(update={"kind": "copy_option"})), []
            return after_target(state, nxt.model_copy(update={"option": valid[0]}))
        case ChooseOption(index, copied=True):
            return after_target(state, step.model_copy(update={"option": index}))
        case RepairSlots(slots):
            return _to_payment(state, step.model_copy(update={"slots": slots}))
        case Pay():
            pays = alternatives(state, step.seat, step, stand_pos(state, step))
            return commit(state, step, next(p for p in pays if p.as_key() == key))
    raise unexpected(key, step.kind)


def _unwind(state: State, step: Step) -> State:
    """Pop the finished choice chain (and the turn step when the pawn moved or used Todd)."""
    while state.steps and state.steps[-1].kind in CHAIN:
        state = pop(state)
    if step.via in ("move", "katharine", "todd") and state.steps and state.steps[-1].kind == "turn":
        state = pop(state)
    return state


def commit(state: State, step: Step, pay: Payment) -> tuple[State, list[Event]]:
    """Move, pay and take the action (rulebook: Gameplay, Action Costs)."""
    seat = step.seat
    state = _unwind(state, step)
    if step.via in ("move", "katharine"):
        state = move_pawn(state, seat, step.space)
    events: list[Event] = []
    if step.via == "katharine":
        src = katharine_source(state, seat)
        state = exhaust(state, seat, src)
        events += _copied(seat, state, src)
    if step.via == "todd":
        state = exhaust(state, seat, step.source)
    if pay.reducer:
        state = exhaust(state, seat, pay.reducer)
        events += _copied(seat, state, pay.reducer)
    state = add_coins(state, seat, -pay.money)
    state = pay_time(state, seat, pay.time)
    opt = target_option(state, step)
    text = _took(state, step, seat, ACTION_NAMES[opt.action], pay)
    state, more = execute(state, step, pay)
    return state, [*events, ev("action", text), *more]


def _took(state: State, step: Step, seat: int, action: str, pay: Payment) -> str:
    """'{seat0} took Skill at #3 Skill copying #5 Glide (pay 2 money).'"""
    where = space_name(state, step.space)
    values: dict[str, object] = {"who": who(seat), "action": action, "where": where}
    if pay.label != "Free":
        values["paid"] = pay.cost_words
    if step.copied >= 0:
        values["copied"] = space_name(state, step.copied)
        if "paid" in values:
            return said("{who} took {action} at {where} copying {copied} ({paid}).", **values)
        return said("{who} took {action} at {where} copying {copied}.", **values)
    if "paid" in values:
        return said("{who} took {action} at {where} ({paid}).", **values)
    return said("{who} took {action} at {where}.", **values)


def _copied(seat: int, state: State, source: str) -> list[Event]:
    """The event for Peltier using another's card at use (nothing for one's own card)."""
    if not is_peltier(source):
        return []
    card = card_name(state, source[len(VIA_PELTIER) :])
    return [ev("copied", said("{who} copied {card}.", who=who(seat), card=card))]


def execute(state: State, step: Step, pay: Payment) -> tuple[State, list[Event]]:
    """The action's own effect once paid."""
    from rules.first_in_flight.flight import start_flight  # a Fly action starts a Flight

    seat = step.seat
    opt = target_option(state, step)
    if opt.action == "funding":
        return add_coins(state, seat, opt.amount), [
            ev("coins", said("{who} took {coins}.", who=who(seat), coins=coins(opt.amount)))
        ]
    if opt.action in ("glide", "experience"):
        return gain(state, seat, opt.action)
    if opt.action in ("friend", "technology", "skill"):
        return push(state, Step(kind="dev", seat=seat, dest=opt.action)), []
    if opt.action == "fly":
        return start_flight(state, seat, final=False)
    if opt.action == "upgrade":
        return start_upgrade(state, seat, pay.x)
    return repair(state, seat, step.slots)


def start_upgrade(state: State, seat: int, x: int) -> tuple[State, list[Event]]:
    """Look at the top X (+ bonuses) Upgrade cards to keep 2 (rulebook: Upgrade Action)."""
    cards, state = take_from_deck(state, "upgrade", upgrade_looks(state, seat, x))
    keep = min(2, len(cards))
    step = Step(kind="pick", seat=seat, cards=cards, keep=keep, dest="upgrade", source="upgrade")
    names = listed([card_name(state, c) for c in cards])
    text = said("{who} looked at {cards}.", who=who(seat), cards=upgrade_cards(len(cards)))
    private = said("You saw: {names}.", names=names)
    return push(state, step), [ev("looked", text, seat=seat, private=private, reveals=True)]


def gain_flaw(state: State, seat: int) -> tuple[State, list[Event]]:
    """Gain a face-down Design Flaw (reshuffling the discard when the deck is empty)."""
    if not state.flaw_deck:
        deck, state = shuffled(state, state.flaw_discard)
        state = state.model_copy(update={"flaw_deck": deck, "flaw_discard": ()})
    flaw = state.flaw_deck[0]
    state = state.model_copy(update={"flaw_deck": state.flaw_deck[1:]})
    state = set_player(state, seat, deck=(*player(state, seat).deck, flaw + "*"))
    text = said("{who} gained a face-down Design Flaw.", who=who(seat))
    return state, [ev("flaw_gained", text, reveals=True)]


def repair(state: State, seat: int, slots: tuple[int, ...]) -> tuple[State, list[Event]]:
    """Discard Garage flaws, gain a Basic Flight Problem each, take their Repair Bonuses."""
    events: list[Event] = []
    if len(slots) == 2:
        src = second_repair_source(state, seat)
        state = exhaust(state, seat, src)
        events += _copied(seat, state, src)
    for slot in slots:
        garage = list(player(state, seat).garage)
        flaw, garage[slot] = garage[slot], ""
        state = set_player(state, seat, garage=(garage[0], garage[1]))
        state = state.model_copy(update={"flaw_discard": (*state.flaw_discard, flaw)})
        ok, state = take_supply(state, "basic_problem")
        if ok:
            state = set_player(state, seat, deck=(*player(state, seat).deck, "basic_problem"))
        text = said("{who} repaired {card}.", who=who(seat), card=card_name(state, flaw))
        events.append(ev("repaired", text))
        state, more = apply_effects(state, seat, data_of(state).flight(flaw).repair_bonus, flaw)
        events += more
    return state, events


# The Development deck's menu title and its unseen top card, by deck kind.
DEV_GROUPS = {
    "friend": said("Take a friend card"),
    "technology": said("Take a technology card"),
    "skill": said("Take a skill card"),
}
DECK_TOPS = {
    "friend": said("Top of the friend deck"),
    "technology": said("Top of the technology deck"),
    "skill": said("Top of the skill deck"),
}


def dev_actions(state: State, step: Step) -> list[Action]:
    """Pick a face-up Development card or the top of the deck."""
    i = dev_index(step.dest)
    acts = [
        Action(
            key=format_key(TakeDev(c)),
            label=card_name(state, c),
            group=DEV_GROUPS[step.dest],
            description=card_short(state, c),
        )
        for c in dict.fromkeys(state.display[i])
    ]
    if can_gain(state, step.dest):
        acts.append(Action(key=format_key(DeckTop()), label=DECK_TOPS[step.dest]))
    return acts


def handle_dev(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Take the chosen Development card."""
    if isinstance(key, DeckTop):
        return gain(pop(state), step.seat, step.dest)
    if not isinstance(key, TakeDev):
        raise unexpected(key, step.kind)
    state = pop(state)
    card = key.card
    i = dev_index(step.dest)
    display = list(state.display)
    row = list(display[i])
    row.remove(card)
    display[i] = tuple(row)
    state = state.model_copy(update={"display": tuple(display)})
    from rules.first_in_flight.effects import deliver

    return deliver(state, step.seat, card)
