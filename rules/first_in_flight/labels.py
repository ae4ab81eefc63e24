"""Readable names for spaces, options and costs (used by actions, events and views)."""

from __future__ import annotations

from rules.first_in_flight.board import spaces
from rules.first_in_flight.data import Cost, SpaceOption
from rules.first_in_flight.state import State

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


def cost_text(cost: Cost) -> str:
    """'2M|1t', '3M', '1M+2t' or 'free'."""
    parts = []
    if cost.money is not None:
        parts.append(f"{cost.money}M")
    if cost.time is not None:
        parts.append(f"{cost.time}t")
    if not parts or parts == ["0M"]:
        return "free"
    return ("+" if cost.both else "|").join(parts)


def option_cost(opt: SpaceOption) -> str:
    """The cost (or amount) printed with an option: '+2', 'X≥2', '+1M', '2M|1t', 'free', ''."""
    if opt.action == "funding":
        return f"+{opt.amount}"
    if opt.action == "upgrade":
        return f"X≥{max(2, opt.amount)}"
    if opt.action == "any":
        return f"+{opt.amount}M"
    if opt.action == "fly":
        return ""
    return cost_text(opt.cost)


def option_text(opt: SpaceOption) -> str:
    """One option of a space, e.g. 'Funding +2', 'Upgrade (X≥2)', 'Skill (2M|1t)'."""
    name = ACTION_NAMES[opt.action]
    cost = option_cost(opt)
    if opt.action == "funding":
        return f"{name} {cost}"
    return f"{name} ({cost})" if cost else name


def space_text(state: State, pos: int) -> str:
    """All options of an Action Space joined with ' | '."""
    return " | ".join(option_text(o) for o in spaces(state)[pos].options)


def space_number(state: State, pos: int) -> int:
    """The 1-based number of an Action Space as printed on the board."""
    return sum(1 for s in spaces(state)[: pos + 1] if s.kind == "action")


def space_label(state: State, pos: int) -> str:
    """'#3 Skill (2M|1t)'."""
    return f"#{space_number(state, pos)} {space_text(state, pos)}"
