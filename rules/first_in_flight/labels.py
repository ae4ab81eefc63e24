"""Readable names for spaces, options and costs (used by actions, events, menus and views)."""

from __future__ import annotations

from collections.abc import Callable

from rules.core.words import said
from rules.first_in_flight.board import spaces
from rules.first_in_flight.data import Cost, SpaceOption
from rules.first_in_flight.state import State
from rules.first_in_flight.words import either, fit

DESCRIPTION_MAX = 100  # a Discord select option's description
LABEL_MAX = 80  # an action's label (a button's limit; a select option allows 100)
DEV_KINDS = ("friend", "technology", "skill")

ACTION_NAMES = {
    "funding": said("Funding"),
    "glide": said("Glide"),
    "experience": said("Experience"),
    "skill": said("Skill"),
    "friend": said("Friend"),
    "technology": said("Technology"),
    "fly": said("Fly"),
    "upgrade": said("Upgrade"),
    "repair": said("Repair"),
    "any": said("Any"),
}

# What each action does, in a player's words (the rulebook's, shortened): inside a sentence, and
# opening one (translators see whole phrases, so the capital letter is theirs too).
ACTION_DOES = {
    "glide": said("gain a Glide card for free"),
    "experience": said("pay for an Experience card"),
    "skill": said("take a face-up Skill card or the top of the Skill deck"),
    "friend": said("take a face-up Friend card or the top of the Friend deck"),
    "technology": said("take a face-up Technology card or the top of the Technology deck"),
    "fly": said("fly: draw your cards one by one for Distance; 4 Problems is a crash"),
    "upgrade": said("pay X (2 or more): look at X Upgrade cards, gain 2, and gain a Design Flaw"),
    "repair": said("repair a Garage flaw: gain its Repair Bonus and a Basic Flight Problem"),
}
ACTION_DOES_FIRST = {
    "glide": said("Gain a Glide card for free"),
    "experience": said("Pay for an Experience card"),
    "skill": said("Take a face-up Skill card or the top of the Skill deck"),
    "friend": said("Take a face-up Friend card or the top of the Friend deck"),
    "technology": said("Take a face-up Technology card or the top of the Technology deck"),
    "fly": said("Fly: draw your cards one by one for Distance; 4 Problems is a crash"),
    "upgrade": said("Pay X (2 or more): look at X Upgrade cards, gain 2, and gain a Design Flaw"),
    "repair": said("Repair a Garage flaw: gain its Repair Bonus and a Basic Flight Problem"),
}


def _cost(cost: Cost, money: str, time: str, both: str, either: str) -> str:
    """The cost with the given unit suffixes and joiners, or 'free'."""
    parts = []
    if cost.money is not None:
        parts.append(f"{cost.money}{money}")
    if cost.time is not None:
        parts.append(f"{cost.time}{time}")
    if not parts or parts == [f"0{money}"]:
        return "free"
    return (both if cost.both else either).join(parts)


def cost_text(cost: Cost) -> str:
    """The compact cost printed on the board tiles: '2M|1t', '3M', '1M+2t' or 'free'."""
    return _cost(cost, "M", "t", "+", "|")


def cost_words(cost: Cost) -> str:
    """The cost in words: '2 Money or 1 Time', '3 Money', '1 Money and 2 Time' or 'free'."""
    money = said("{n} Money", n=cost.money) if cost.money is not None else None
    time = said("{n} Time", n=cost.time) if cost.time is not None else None
    if (money is None and time is None) or (cost.money == 0 and time is None):
        return said("free")
    if money is None or time is None:
        return money or time or ""
    if cost.both:
        return said("{money} and {time}", money=money, time=time)
    return said("{money} or {time}", money=money, time=time)


def option_cost(opt: SpaceOption) -> str:
    """The cost (or amount) printed on a tile: '+2', 'X≥2', '+1M', '2M|1t', 'free', ''."""
    if opt.action == "funding":
        return f"+{opt.amount}"
    if opt.action == "upgrade":
        return f"X≥{max(2, opt.amount)}"
    if opt.action == "any":
        return f"+{opt.amount}M"
    if opt.action == "fly":
        return ""
    return cost_text(opt.cost)


def option_price(opt: SpaceOption) -> str:
    """An option's cost in words: 'take 2 coins', '2 or more Money or Time',
    '+1 Money', '2 Money or 1
    Time', 'free', '' (Fly)."""
    if opt.action == "funding":
        return said("take {n} coins", n=opt.amount)
    if opt.action == "upgrade":
        return said("{n} or more Money or Time", n=max(2, opt.amount))
    if opt.action == "any":
        return said("+{n} Money", n=opt.amount)
    if opt.action == "fly":
        return ""
    return cost_words(opt.cost)


def _priced(name: str, price: str) -> str:
    """'Skill (2 Money or 1 Time)', or the name alone when it costs nothing to say."""
    return said("{name} ({price})", name=name, price=price) if price else name


def option_text(opt: SpaceOption) -> str:
    """One option in words: 'Funding (take 2 coins)', 'Skill (2 Money or 1 Time)', 'Fly'."""
    return _priced(ACTION_NAMES[opt.action], option_price(opt))


def option_does(opt: SpaceOption, first: bool = False) -> str:
    """What an option does, as a sentence part ('take 2 coins', 'fly: draw cards …');
    `first`: opening the sentence ('Take 2 coins')."""
    if opt.action == "funding":
        if first:
            return said("Take {n} coins", n=opt.amount)
        return said("take {n} coins", n=opt.amount)
    if opt.action == "any":
        if first:
            return said("Take another space's action, paying its cost +{n} Money", n=opt.amount)
        return said("take another space's action, paying its cost +{n} Money", n=opt.amount)
    return (ACTION_DOES_FIRST if first else ACTION_DOES)[opt.action]


# A board's space texts depend only on the card data and the player count (the board side):
# they are said once per space, not on every legal-actions call (the AI asks for those often).
_SPACE_TEXTS: dict[tuple[Callable[[State, int], str], str, int, int], str] = {}


def _cached(make: Callable[[State, int], str], state: State, pos: int) -> str:
    """`make(state, pos)`, remembered for the board this state uses."""
    key = (make, state.options.card_data, state.players, pos)
    found = _SPACE_TEXTS.get(key)
    if found is None:
        found = _SPACE_TEXTS[key] = make(state, pos)
    return found


def space_text(state: State, pos: int) -> str:
    """All options of an Action Space in words; options with one cost share it:
    'Friend or Technology (4 Money or 2 Time)', 'Glide (free) or Experience (1 Money or 1 Time)'."""
    return _cached(_space_text, state, pos)


def _space_text(state: State, pos: int) -> str:
    """`space_text`, said anew."""
    opts = spaces(state)[pos].options
    prices = {str(option_price(o)): option_price(o) for o in opts}
    if len(opts) > 1 and len(prices) == 1:
        names = either([ACTION_NAMES[o.action] for o in opts])
        return _priced(names, next(iter(prices.values())))
    return either([option_text(o) for o in opts])


def space_does(state: State, pos: int) -> str:
    """What an Action Space does, in words, for a select option's description (≤ 100)."""
    return _cached(_space_does, state, pos)


def _space_does(state: State, pos: int) -> str:
    """`space_does`, said anew."""
    opts = spaces(state)[pos].options
    kinds = [o.action for o in opts]
    if len(opts) > 1 and all(k in DEV_KINDS for k in kinds):
        names = either([ACTION_NAMES[k] for k in kinds])
        text = said("Take a face-up {names} card, or the top of its deck.", names=names)
    else:
        does = [option_does(o, first=not i) for i, o in enumerate(opts)]
        told = does[0]
        for more in does[1:]:
            told = said("{first}, or {second}", first=told, second=more)
        text = said("{does}.", does=told)
    return fit(text, DESCRIPTION_MAX)


def space_number(state: State, pos: int) -> int:
    """The 1-based number of an Action Space as printed on the board."""
    return sum(1 for s in spaces(state)[: pos + 1] if s.kind == "action")


def space_label(state: State, pos: int) -> str:
    """'#3 Skill (2 Money or 1 Time)'."""
    return _cached(_space_label, state, pos)


def _space_label(state: State, pos: int) -> str:
    """`space_label`, said anew."""
    return said("#{number} {space}", number=space_number(state, pos), space=space_text(state, pos))


def space_name(state: State, pos: int) -> str:
    """'#7 Friend or Technology': the space without its costs (for log lines)."""
    return _cached(_space_name, state, pos)


def _space_name(state: State, pos: int) -> str:
    """`space_name`, said anew."""
    names = either([ACTION_NAMES[o.action] for o in spaces(state)[pos].options])
    return said("#{number} {space}", number=space_number(state, pos), space=names)


# What the deciding player is doing, by step, in the words of the status bar and alt text.
STEP_WORDS = {
    "draft": said("choosing a Pilot"),
    "turn": said("taking a turn"),
    "space": said("choosing an action"),
    "option": said("choosing an action"),
    "any_target": said("choosing a space to copy"),
    "copy_option": said("choosing an action to copy"),
    "repair_slot": said("choosing a flaw to repair"),
    "pay": said("paying Money or Time"),
    "dev": said("choosing a card"),
    "abilities": said("using an ability"),
    "copy": said("copying an ability"),
    "ignore": said("choosing a Problem to ignore"),
    "refresh": said("refreshing a Skill"),
    "look": said("looking at cards"),
    "pick": said("choosing cards"),
    "flight": said("flying"),
    "cleanup": said("putting flaws in the Garage"),
}
