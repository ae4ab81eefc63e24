"""What each First in Flight choice does under the rules, in players' words (rules/core/explain.py).

Texts name the action by what the board data says it is (never by a label's wording, which the
menus own) and close with the /game rules topic they come from.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Action
from rules.core.explain import Explainer, rule
from rules.core.messages import plural
from rules.first_in_flight.common import card_short, data_of, player
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

CRASH_AT = 4  # Problems that crash a Flight

# What each kind of action does (the rules' "actions" topic), by the board data's action kind.
DOES = {
    "funding": "take coins (Money) from the bank",
    "glide": "gain a Glide card for your Flight deck",
    "experience": "gain an Experience card for your Flight deck",
    "skill": "take a Skill card: an ability you exhaust and refresh",
    "friend": "take a Friend card: an ability for the rest of the game",
    "technology": "take a Technology card: always-on Distance or savings",
    "fly": "fly now: draw Flight cards one at a time for Distance; 4 Problems crash you",
    "upgrade": (
        "pay X (at least 2), look at X Upgrade cards and gain 2 of them, and gain a face-down "
        "Design Flaw"
    ),
    "repair": (
        "move a Garage flaw to the discard, gain a Basic Flight Problem and the flaw's Repair Bonus"
    ),
    "any": "copy another space's action, paying its cost and more Money",
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
        return "free"
    parts = []
    if cost.money is not None:
        parts.append(f"{cost.money} Money")
    if cost.time is not None:
        parts.append(f"{cost.time} Time")
    return (" and " if cost.both else " or ").join(parts)


def _option_words(opt: SpaceOption) -> str:
    """One option: what it does and what it costs."""
    does = DOES[opt.action]
    if opt.action == "funding":
        does = f"take {plural(opt.amount, 'coin')} (Money) from the bank"
    if opt.action == "any":
        does = f"copy another space's action, paying its cost +{opt.amount} Money"
    return f"{does} ({_price(opt)})"


def _space_words(state: State, pos: int) -> str:
    """Every option of a space, joined: 'take 2 coins (free); or …'."""
    return "; or ".join(_option_words(o) for o in _options(state, pos))


def _topic_of(state: State, pos: int) -> str:
    """The rules topic of a space's first option."""
    opts = _options(state, pos)
    return TOPIC.get(opts[0].action, "actions") if opts else "actions"


def _money_time(state: State, seat: int) -> str:
    """'You have 3 Money.'"""
    return f"You have {player(state, seat).coins} Money."


def _flight_now(state: State) -> str:
    """'Now: 2 Problems of 4, Distance 7.'"""
    if state.flight is None:
        return ""
    problems = problem_count(state)
    distance, _ = flight_distance(state)
    return (
        f" Now: {plural(problems, 'Problem')} of {CRASH_AT} (the {_ordinal(CRASH_AT)} crashes "
        f"you), Distance {distance}."
    )


def _ordinal(n: int) -> str:
    """'4th'."""
    return f"{n}th" if n > 3 else {1: "1st", 2: "2nd", 3: "3rd"}[n]


def _current_option(state: State, step: Step) -> SpaceOption | None:
    """The option being paid for, if the step knows it."""
    if step.space < 0:
        return None
    pos = step.copied if step.copied >= 0 else step.space
    opts = _options(state, pos)
    return opts[step.option] if 0 <= step.option < len(opts) else None


def _explain(state: State, seat: int, step: Step, action: Action, key: Key) -> str:
    """One option's explanation."""
    match key:
        case ChoosePilot(pilot):
            text = data_of(state).pilot(pilot).short or action.description
            return f"Fly as {action.label} for the whole game: {text}. {rule('overview')}"
        case Recover():
            return (
                "Your pawn crashed: pay 2 Time to stand it up before you can act again "
                f"(Time moves your pawn over Time Spaces). {rule('overview')}"
            )
        case Move(space):
            return (
                f"Move your pawn forward to this space and {_space_words(state, space)}. Pay "
                "Money or Time, never both; the pawn farthest back acts next, so a long move "
                f"gives others turns. {_money_time(state, seat)} {rule(_topic_of(state, space))}"
            )
        case StartArea():
            return (
                "Go to the start area and wait for the Year to end: when every pawn is there, "
                "the Michelin Cup gives 7/5/4 by record and new Development cards come out. "
                f"{rule('overview')}"
            )
        case OpenMenu("skill"):
            return (
                "Open your Skills: exhaust one for its effect now (it refreshes at the end of "
                f"the Year). {rule('fly')}"
            )
        case OpenMenu():
            return (
                "Open your Friends' and your Pilot's abilities that you may use now. "
                f"{rule('overview')}"
            )
        case UseSpace(space):
            return (
                f"Take this space's action without moving your pawn: {_space_words(state, space)}. "
                f"{rule(_topic_of(state, space))}"
            )
        case ChooseOption(index, copied):
            pos = step.copied if copied and step.copied >= 0 else step.space
            chosen = _options(state, pos)[index]
            words = _option_words(chosen)
            return (
                f"{words[0].upper()}{words[1:]}. "
                f"{_money_time(state, seat)} {rule(TOPIC.get(chosen.action, 'actions'))}"
            )
        case CopySpace(space):
            return (
                f"Any Action: copy this space — {_space_words(state, space)} — paying its cost "
                f"plus the Any Action's extra Money. {rule('actions')}"
            )
        case RepairSlots(slots):
            extra = " The right slot costs 1 more Time." if 1 in slots else ""
            both = " Repairs both flaws at once." if len(slots) == 2 else ""
            return (
                "Repair: the flaw leaves your Garage for the discard, you gain a Basic Flight "
                f"Problem and the flaw's Repair Bonus.{both}{extra} {rule('flaws')}"
            )
        case Pay(money, time, x, _reducer):
            parts = [f"{n} {unit}" for n, unit in ((money, "Money"), (time, "Time")) if n]
            paid = " and ".join(parts) or "nothing"
            what = ""
            if x:
                what = (
                    f" Upgrade with X={x}: look at {plural(x, 'Upgrade card')}, gain 2, and gain a "
                    "face-down Design Flaw."
                )
            opt = _current_option(state, step)
            if opt is not None and not x:
                what = f" For: {DOES[opt.action]}."
            spend = " Time moves your pawn along the Time Spaces." if time else ""
            return f"Pay {paid}.{what}{spend} {_money_time(state, seat)} {rule('actions')}"
        case TakeDev(card):
            return (
                f"Take {action.label}: {card_short(state, card)}. It joins your play area. "
                f"{rule('actions')}"
            )
        case DeckTop():
            return (
                "Take the top card of that Development deck, unseen: a gamble instead of a card "
                f"you can read. {rule('actions')}"
            )
        case UseAbility(source):
            text = action.description or action.label
            who = "your Pilot" if source == "pilot" else action.label
            return (
                f"Use {who}: {text.rstrip('.')}. It is exhausted until the Year ends. "
                f"{rule('overview')}"
            )
        case CopyCard(card):
            return (
                f"Copy {action.label}'s ability: {card_short(state, card)}. Your Pilot is "
                f"exhausted, the copied card is not. {rule('overview')}"
            )
        case Ignore(card):
            return (
                f"{action.label}'s Problem stops counting toward the {CRASH_AT} that crash you."
                f"{_flight_now(state)} {rule('fly')}"
            )
        case Refresh(card):
            return (
                f"Refresh {action.label}: {card_short(state, card)}; you may use it again. "
                f"{rule('fly')}"
            )
        case Place("top", _card):
            return (
                "Put this card on top of your Flight deck: it is the next card you draw. "
                f"{rule('fly')}"
            )
        case Place("bottom", _card):
            return (
                "Put this card at the bottom of your Flight deck: you will not draw it soon. "
                f"{rule('fly')}"
            )
        case Place(_where, _card):
            return f"Put this card straight into your Flight row.{_flight_now(state)} {rule('fly')}"
        case Done() if step.kind == "look":
            return f"Leave the other looked-at cards on top, in their order. {rule('fly')}"
        case Done():
            return (
                "Finish: the other revealed Design Flaws go back into your deck, where you may "
                f"draw them again. {rule('fly')}"
            )
        case PickCard(card):
            where = "your play area" if _is_dev(state, card) else "your Flight deck"
            return (
                f"Gain {action.label.removeprefix('Gain ')} into {where}: "
                f"{_card_words(state, card)} {rule('actions')}"
            )
        case Draw():
            return (
                "Draw the next Flight card: it adds Distance, but a Problem on it brings you "
                f"nearer a crash.{_flight_now(state)} {rule('fly')}"
            )
        case Descend():
            return (
                "Descend: shuffle the rest and draw exactly 2 more; a landing adds 5 Distance, a "
                "crash while landing 2. No Skills after Descending."
                f"{_flight_now(state)} {rule('fly')}"
            )
        case Exhaust(card):
            return (
                f"Pitch Instability: exhaust {action.label.removeprefix('Exhaust ')} (no effect) "
                f"instead of having to Descend. {rule('flaws')}"
            )
        case Garage(card):
            return (
                "Put this revealed Design Flaw in your Garage "
                f"({action.label.split('→')[-1].strip()}): it leaves your deck until you "
                "Repair it; the left slot is cheaper to Repair. "
                f"{rule('fly')}"
            )
        case Back():
            return f"Go back one choice; nothing is paid or taken. {rule('overview')}"
    return f"{action.label}. {rule('overview')}"


def _card_words(state: State, card: str) -> str:
    """A Flight card in numbers: 'Distance 3, no Problems.'"""
    if _is_dev(state, card):
        return f"{card_short(state, card).rstrip('.')}."
    spec = data_of(state).flight(card.rstrip("*"))
    problems = f"{plural(spec.problems, 'Problem')}" if spec.problems else "no Problems"
    return f"Distance {spec.distance}, {problems}."


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
    return f"a Flight of {new} Distance beat the old record of {old}. {rule('fly')}"


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
    measure="of record over this turn",
    why=why,
)
