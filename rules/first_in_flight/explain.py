"""What each First in Flight choice does under the rules, in players' words (rules/core/explain.py).

Texts name the action by what the board data says it is (never by a label's wording, which the
menus own) and close with the /game rules topic they come from.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Action
from rules.core.explain import Explainer, rule
from rules.core.words import Said, joined, said
from rules.first_in_flight.common import card_name, card_short, data_of, player
from rules.first_in_flight.data import SpaceOption
from rules.first_in_flight.keys import (
    Back,
    ChooseOption,
    ChoosePilot,
    CopyCard,
    CopySpace,
    DeckTop,
    Descend,
    Done,
    Draw,
    Exhaust,
    Garage,
    Ignore,
    Key,
    Move,
    OpenMenu,
    Pay,
    PickCard,
    Place,
    Recover,
    Refresh,
    RepairSlots,
    StartArea,
    TakeDev,
    UseAbility,
    UseSpace,
    parse_key,
)
from rules.first_in_flight.row import problem_count
from rules.first_in_flight.scoring import flight_distance
from rules.first_in_flight.state import State, Step
from rules.first_in_flight.words import coins, problems, upgrade_cards

CRASH_AT = 4  # Problems that crash a Flight

# What each kind of action does (the rules' "actions" topic), by the board data's action kind:
# inside a sentence, and opening one (translators see whole phrases, the capital letter too).
DOES = {
    "funding": said("take coins (Money) from the bank"),
    "glide": said("gain a Glide card for your Flight deck"),
    "experience": said("gain an Experience card for your Flight deck"),
    "skill": said("take a Skill card: an ability you exhaust and refresh"),
    "friend": said("take a Friend card: an ability for the rest of the game"),
    "technology": said("take a Technology card: always-on Distance or savings"),
    "fly": said("fly now: draw Flight cards one at a time for Distance; 4 Problems crash you"),
    "upgrade": said(
        "pay X (at least 2), look at X Upgrade cards and gain 2 of them, and gain a face-down "
        "Design Flaw"
    ),
    "repair": said(
        "move a Garage flaw to the discard, gain a Basic Flight Problem and the flaw's Repair Bonus"
    ),
    "any": said("copy another space's action, paying its cost and more Money"),
}
DOES_FIRST = {
    "glide": said("Gain a Glide card for your Flight deck"),
    "experience": said("Gain an Experience card for your Flight deck"),
    "skill": said("Take a Skill card: an ability you exhaust and refresh"),
    "friend": said("Take a Friend card: an ability for the rest of the game"),
    "technology": said("Take a Technology card: always-on Distance or savings"),
    "fly": said("Fly now: draw Flight cards one at a time for Distance; 4 Problems crash you"),
    "upgrade": said(
        "Pay X (at least 2), look at X Upgrade cards and gain 2 of them, and gain a face-down "
        "Design Flaw"
    ),
    "repair": said(
        "Move a Garage flaw to the discard, gain a Basic Flight Problem and the flaw's Repair Bonus"
    ),
}
TOPIC = {"fly": "fly", "repair": "flaws"}


def points(state: State, seat: int) -> int:
    """The seat's record (its best single Flight)."""
    return state.seats[seat].record


def building(state: State) -> bool:
    """First in Flight's choices are whole steps: the next one is its own decision."""
    return False


def _options(state: State, pos: int) -> tuple[SpaceOption, ...]:
    """The options of the Action Space at board position `pos`."""
    return data_of(state).board_for(state.players).spaces[pos].options


def _price(opt: SpaceOption) -> str:
    """'2 Money or 1 Time', 'free'."""
    cost = opt.cost
    if cost.money is None and cost.time is None:
        return said("free")
    money = said("{n} Money", n=cost.money) if cost.money is not None else ""
    time = said("{n} Time", n=cost.time) if cost.time is not None else ""
    if money and time:
        if cost.both:
            return said("{money} and {time}", money=money, time=time)
        return said("{money} or {time}", money=money, time=time)
    return money or time


def _does(opt: SpaceOption, first: bool) -> str:
    """What an option does; `first`: opening a sentence."""
    if opt.action == "funding":
        if first:
            return said("Take {coins} (Money) from the bank", coins=coins(opt.amount))
        return said("take {coins} (Money) from the bank", coins=coins(opt.amount))
    if opt.action == "any":
        if first:
            return said("Copy another space's action, paying its cost +{n} Money", n=opt.amount)
        return said("copy another space's action, paying its cost +{n} Money", n=opt.amount)
    return (DOES_FIRST if first else DOES)[opt.action]


def _option_words(opt: SpaceOption, first: bool = False) -> str:
    """One option: what it does and what it costs."""
    return said("{does} ({price})", does=_does(opt, first), price=_price(opt))


def _space_words(state: State, pos: int) -> str:
    """Every option of a space, joined: 'take 2 coins (free); or …'."""
    told = ""
    for opt in _options(state, pos):
        words = _option_words(opt)
        told = said("{first}; or {second}", first=told, second=words) if told else words
    return told


def _topic_of(state: State, pos: int) -> str:
    """The rules topic of a space's first option."""
    opts = _options(state, pos)
    return TOPIC.get(opts[0].action, "actions") if opts else "actions"


def _money_time(state: State, seat: int) -> str:
    """'You have 3 Money.'"""
    return said("You have {n} Money.", n=player(state, seat).coins)


def _flight_now(state: State) -> str:
    """'Now: 2 Problems of 4 (the 4th crashes you), Distance 7.' ("" when no one flies)."""
    if state.flight is None:
        return ""
    distance, _ = flight_distance(state)
    return said(
        "Now: {problems} of {n} (the {n}th crashes you), Distance {distance}.",
        problems=problems(problem_count(state)),
        n=CRASH_AT,
        distance=distance,
    )


def _current_option(state: State, step: Step) -> SpaceOption | None:
    """The option being paid for, if the step knows it."""
    if step.space < 0:
        return None
    pos = step.copied if step.copied >= 0 else step.space
    opts = _options(state, pos)
    return opts[step.option] if 0 <= step.option < len(opts) else None


def _stops(text: str) -> tuple[bool, str]:
    """(whether `text` ends with its own single full stop, the text to quote without a
    stop added twice): several stops are dropped, as the English always did."""
    plain = str(text)
    if plain.endswith(".") and not plain.endswith(".."):
        return True, text
    return False, plain.rstrip(".") if plain.endswith(".") else text


def _explain(state: State, seat: int, step: Step, action: Action, key: Key) -> str:
    """One option's explanation."""
    match key:
        case ChoosePilot(pilot):
            short = data_of(state).pilot(pilot).short
            text = Said(short) if short else action.description
            told = said("Fly as {pilot} for the whole game: {text}.", pilot=action.label, text=text)
            return joined(told, rule("overview"))
        case Recover():
            told = said(
                "Your pawn crashed: pay 2 Time to stand it up before you can act again "
                "(Time moves your pawn over Time Spaces)."
            )
            return joined(told, rule("overview"))
        case Move(space):
            told = said(
                "Move your pawn forward to this space and {does}. Pay Money or Time, never both; "
                "the pawn farthest back acts next, so a long move gives others turns.",
                does=_space_words(state, space),
            )
            return joined(told, _money_time(state, seat), rule(_topic_of(state, space)))
        case StartArea():
            told = said(
                "Go to the start area and wait for the Year to end: when every pawn is there, "
                "the Michelin Cup gives 7/5/4 by record and new Development cards come out."
            )
            return joined(told, rule("overview"))
        case OpenMenu("skill"):
            told = said(
                "Open your Skills: exhaust one for its effect now (it refreshes at the end of "
                "the Year)."
            )
            return joined(told, rule("fly"))
        case OpenMenu():
            told = said("Open your Friends' and your Pilot's abilities that you may use now.")
            return joined(told, rule("overview"))
        case UseSpace(space):
            told = said(
                "Take this space's action without moving your pawn: {does}.",
                does=_space_words(state, space),
            )
            return joined(told, rule(_topic_of(state, space)))
        case ChooseOption(index, copied):
            pos = step.copied if copied and step.copied >= 0 else step.space
            chosen = _options(state, pos)[index]
            told = said("{option}.", option=_option_words(chosen, first=True))
            topic = TOPIC.get(chosen.action, "actions")
            return joined(told, _money_time(state, seat), rule(topic))
        case CopySpace(space):
            told = said(
                "Any Action: copy this space — {does} — paying its cost plus the Any Action's "
                "extra Money.",
                does=_space_words(state, space),
            )
            return joined(told, rule("actions"))
        case RepairSlots(slots):
            told = said(
                "Repair: the flaw leaves your Garage for the discard, you gain a Basic Flight "
                "Problem and the flaw's Repair Bonus."
            )
            both = said("Repairs both flaws at once.") if len(slots) == 2 else ""
            extra = said("The right slot costs 1 more Time.") if 1 in slots else ""
            return joined(told, both, extra, rule("flaws"))
        case Pay(money, time, x, _reducer):
            return _pay(state, seat, step, money, time, x)
        case TakeDev(card):
            told = said(
                "Take {card}: {text}. It joins your play area.",
                card=action.label,
                text=card_short(state, card),
            )
            return joined(told, rule("actions"))
        case DeckTop():
            told = said(
                "Take the top card of that Development deck, unseen: a gamble instead of a card "
                "you can read."
            )
            return joined(told, rule("actions"))
        case UseAbility(source):
            text = action.description or action.label
            user = said("your Pilot") if source == "pilot" else action.label
            own, text = _stops(text)
            if own:
                told = said(
                    "Use {who}: {text} It is exhausted until the Year ends.", who=user, text=text
                )
            else:
                told = said(
                    "Use {who}: {text}. It is exhausted until the Year ends.", who=user, text=text
                )
            return joined(told, rule("overview"))
        case CopyCard(card):
            told = said(
                "Copy {card}'s ability: {text}. Your Pilot is exhausted, the copied card is not.",
                card=action.label,
                text=card_short(state, card),
            )
            return joined(told, rule("overview"))
        case Ignore(card):
            told = said(
                "{card}'s Problem stops counting toward the {n} that crash you.",
                card=action.label,
                n=CRASH_AT,
            )
            return joined(told, _flight_now(state), rule("fly"))
        case Refresh(card):
            told = said(
                "Refresh {card}: {text}; you may use it again.",
                card=action.label,
                text=card_short(state, card),
            )
            return joined(told, rule("fly"))
        case Place("top", _card):
            told = said("Put this card on top of your Flight deck: it is the next card you draw.")
            return joined(told, rule("fly"))
        case Place("bottom", _card):
            told = said(
                "Put this card at the bottom of your Flight deck: you will not draw it soon."
            )
            return joined(told, rule("fly"))
        case Place(_where, _card):
            told = said("Put this card straight into your Flight row.")
            return joined(told, _flight_now(state), rule("fly"))
        case Done() if step.kind == "look":
            told = said("Leave the other looked-at cards on top, in their order.")
            return joined(told, rule("fly"))
        case Done():
            told = said(
                "Finish: the other revealed Design Flaws go back into your deck, where you may "
                "draw them again."
            )
            return joined(told, rule("fly"))
        case PickCard(card):
            name = card_name(state, card)
            if _is_dev(state, card):
                told = said("Gain {card} into your play area:", card=name)
            else:
                told = said("Gain {card} into your Flight deck:", card=name)
            return joined(told, _card_words(state, card), rule("actions"))
        case Draw():
            told = said(
                "Draw the next Flight card: it adds Distance, but a Problem on it brings you "
                "nearer a crash."
            )
            return joined(told, _flight_now(state), rule("fly"))
        case Descend():
            told = said(
                "Descend: shuffle the rest and draw exactly 2 more; a landing adds 5 Distance, a "
                "crash while landing 2. No Skills after Descending."
            )
            return joined(told, _flight_now(state), rule("fly"))
        case Exhaust(card):
            told = said(
                "Pitch Instability: exhaust {card} (no effect) instead of having to Descend.",
                card=card_name(state, card),
            )
            return joined(told, rule("flaws"))
        case Garage(_card):
            if not step.kept:
                told = said(
                    "Put this revealed Design Flaw in your Garage (left Garage): it leaves your "
                    "deck until you Repair it; the left slot is cheaper to Repair."
                )
            else:
                told = said(
                    "Put this revealed Design Flaw in your Garage (right Garage): it leaves your "
                    "deck until you Repair it; the left slot is cheaper to Repair."
                )
            return joined(told, rule("fly"))
        case Back():
            told = said("Go back one choice; nothing is paid or taken.")
            return joined(told, rule("overview"))
    return joined(said("{label}.", label=action.label), rule("overview"))


def _pay(state: State, seat: int, step: Step, money: int, time: int, x: int) -> str:
    """A payment: what is paid, what it buys, and how Time moves the pawn."""
    amounts = [
        said("{n} Money", n=money) if money else "",
        said("{n} Time", n=time) if time else "",
    ]
    kept = [a for a in amounts if a]
    if len(kept) == 2:
        paid = said("Pay {paid}.", paid=said("{money} and {time}", money=kept[0], time=kept[1]))
    elif kept:
        paid = said("Pay {paid}.", paid=kept[0])
    else:
        paid = said("Pay nothing.")
    what = ""
    if x:
        what = said(
            "Upgrade with X={x}: look at {cards}, gain 2, and gain a face-down Design Flaw.",
            x=x,
            cards=upgrade_cards(x),
        )
    opt = _current_option(state, step)
    if opt is not None and not x:
        what = said("For: {does}.", does=DOES[opt.action])
    spend = said("Time moves your pawn along the Time Spaces.") if time else ""
    return joined(paid, what, spend, _money_time(state, seat), rule("actions"))


def _card_words(state: State, card: str) -> str:
    """A Flight card in numbers: 'Distance 3, no Problems.'"""
    if _is_dev(state, card):
        own, short = _stops(card_short(state, card))
        return short if own else said("{text}.", text=short)
    spec = data_of(state).flight(card.rstrip("*"))
    counted = problems(spec.problems) if spec.problems else said("no Problems")
    return said("Distance {n}, {problems}.", n=spec.distance, problems=counted)


def _is_dev(state: State, card: str) -> bool:
    """True for a Friend, Technology or Skill card (not a Flight card)."""
    try:
        data_of(state).dev(card)
    except KeyError:
        return False
    return True


def why(before: State, after: State, seat: int) -> str:
    """A new record: the best single Flight counts."""
    old, new = before.seats[seat].record, after.seats[seat].record
    if new <= old:
        return ""
    told = said("a Flight of {new} Distance beat the old record of {old}.", new=new, old=old)
    return joined(told, rule("fly"))


def options(state: State, seat: int, legal: Sequence[Action]) -> dict[str, str]:
    """Every legal action's explanation."""
    if not state.steps:
        return {}
    step = state.steps[-1]
    return {a.key: _explain(state, seat, step, a, parse_key(a.key, step.kind)) for a in legal}


EXPLAIN = Explainer(
    options=options,
    points=points,
    building=building,
    seats=lambda state: state.players,
    unit="point",
    measure=said("of record over this turn"),
    why=why,
)
