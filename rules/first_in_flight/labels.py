"""Readable names for spaces, options and costs (used by actions, events, menus and views)."""

from __future__ import annotations

from rules.core.text_fit import shorten
from rules.first_in_flight.board import spaces
from rules.first_in_flight.data import Cost, SpaceOption
from rules.first_in_flight.state import State

DESCRIPTION_MAX = 100  # a Discord select option's description
LABEL_MAX = 80  # an action's label (a button's limit; a select option allows 100)
DEV_KINDS = ("friend", "technology", "skill")

ACTION_NAMES = {
    "funding": "Funding",
    "glide": "Glide",
    "experience": "Experience",
    "skill": "Skill",
    "friend": "Friend",
    "technology": "Technology",
    "fly": "Fly",
    "upgrade": "Upgrade",
    "repair": "Repair",
    "any": "Any",
}

# What each action does, in a player's words (the rulebook's, shortened).
ACTION_DOES = {
    "glide": "gain a Glide card for free",
    "experience": "pay for an Experience card",
    "skill": "take a face-up Skill card or the top of the Skill deck",
    "friend": "take a face-up Friend card or the top of the Friend deck",
    "technology": "take a face-up Technology card or the top of the Technology deck",
    "fly": "fly: draw your cards one by one for Distance; 4 Problems is a crash",
    "upgrade": "pay X (2 or more): look at X Upgrade cards, gain 2, and gain a Design Flaw",
    "repair": "repair a Garage flaw: gain its Repair Bonus and a Basic Flight Problem",
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
    return _cost(cost, " Money", " Time", " and ", " or ")


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
        return f"take {opt.amount} coins"
    if opt.action == "upgrade":
        return f"{max(2, opt.amount)} or more Money or Time"
    if opt.action == "any":
        return f"+{opt.amount} Money"
    if opt.action == "fly":
        return ""
    return cost_words(opt.cost)


def option_text(opt: SpaceOption) -> str:
    """One option in words: 'Funding (take 2 coins)', 'Skill (2 Money or 1 Time)', 'Fly'."""
    name = ACTION_NAMES[opt.action]
    price = option_price(opt)
    return f"{name} ({price})" if price else name


def option_does(opt: SpaceOption) -> str:
    """What an option does, as a sentence part ('take 2 coins', 'fly: draw cards …')."""
    if opt.action == "funding":
        return f"take {opt.amount} coins"
    if opt.action == "any":
        return f"take another space's action, paying its cost +{opt.amount} Money"
    return ACTION_DOES[opt.action]


def space_text(state: State, pos: int) -> str:
    """All options of an Action Space in words; options with one cost share it:
    'Friend or Technology (4 Money or 2 Time)', 'Glide (free) or Experience (1 Money or 1 Time)'."""
    opts = spaces(state)[pos].options
    prices = {option_price(o) for o in opts}
    if len(opts) > 1 and len(prices) == 1:
        names = " or ".join(ACTION_NAMES[o.action] for o in opts)
        price = prices.pop()
        return f"{names} ({price})" if price else names
    return " or ".join(option_text(o) for o in opts)


def space_does(state: State, pos: int) -> str:
    """What an Action Space does, in words, for a select option's description (≤ 100)."""
    opts = spaces(state)[pos].options
    kinds = [o.action for o in opts]
    if len(opts) > 1 and all(k in DEV_KINDS for k in kinds):
        names = " or ".join(ACTION_NAMES[k] for k in kinds)
        text = f"take a face-up {names} card, or the top of its deck"
    else:
        text = ", or ".join(option_does(o) for o in opts)
    return shorten(text[:1].upper() + text[1:] + ".", DESCRIPTION_MAX)


def space_number(state: State, pos: int) -> int:
    """The 1-based number of an Action Space as printed on the board."""
    return sum(1 for s in spaces(state)[: pos + 1] if s.kind == "action")


def space_label(state: State, pos: int) -> str:
    """'#3 Skill (2 Money or 1 Time)'."""
    return f"#{space_number(state, pos)} {space_text(state, pos)}"


def space_name(state: State, pos: int) -> str:
    """'#7 Friend or Technology': the space without its costs (for log lines)."""
    names = " or ".join(ACTION_NAMES[o.action] for o in spaces(state)[pos].options)
    return f"#{space_number(state, pos)} {names}"


# What the deciding player is doing, by step, in the words of the status bar and alt text.
STEP_WORDS = {
    "draft": "choosing a Pilot",
    "turn": "taking a turn",
    "space": "choosing an action",
    "option": "choosing an action",
    "any_target": "choosing a space to copy",
    "copy_option": "choosing an action to copy",
    "repair_slot": "choosing a flaw to repair",
    "pay": "paying Money or Time",
    "dev": "choosing a card",
    "abilities": "using an ability",
    "copy": "copying an ability",
    "ignore": "choosing a Problem to ignore",
    "refresh": "refreshing a Skill",
    "look": "looking at cards",
    "pick": "choosing cards",
    "flight": "flying",
    "cleanup": "putting flaws in the Garage",
}
