"""Restart-proof buttons and selects (DynamicItem) built from an engine's legal actions.

custom_id layout (≤ 100 chars, no secrets): `hg:b:{game}:{version}:{key}` for an action button,
`hg:s:{game}:{version}:{n}` for an action select (option values are action keys),
`hg:h:{game}` for "My hand", `hg:t:{game}` for "Whole table", `hg:l:{game}:{op}` for lobby
buttons, `hg:c:{game}:{op}` for the coach's Hint, Last move? and Leave practice.

Pure builders: callbacks reach the handlers through `interaction.client` (the HangarBot), so
this module never imports bot.flow.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.i18n import ENGLISH, say, translate
from rules.core import Action
from rules.core.errors import Said, said
from rules.core.text_fit import shorten

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

BUTTONS_PER_ROW = 5
OPTIONS_PER_SELECT = 25
# Discord's limits, checked after translation (German runs ~30 % longer than English).
MAX_LABEL = 80
MAX_OPTION = 100
MAX_PLACEHOLDER = 150
MY_HAND = said("My hand & moves")
WHOLE_TABLE = said("Whole table")
CHOOSE_ACTION = said("Choose an action…")
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def dynamic_view() -> discord.ui.View:
    """An empty view for Hangar's own components, which discord.py need not keep.

    Every Hangar component is a DynamicItem: a click is dispatched by its custom id, even after
    a restart, never through the view that sent it. discord.py keeps a view it sends unless it
    has finished, and gives an ephemeral one a 15-minute timer: each "My hand" panel held its
    view, its items and a sleeping task for 15 minutes (the soak's bot grew with every panel).
    Stopped before it is sent, the view is only serialised.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hg:b:(?P<pk>\d+):(?P<ver>\d+):(?P<key>.+)",
):
    """A button that plays one action of one game at one state version."""

    def __init__(self, pk: int, version: int, key: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"hg:b:{pk}:{version}:{key}", **button))
        self.pk, self.version, self.key = pk, version, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        """Rebuild from a click, even after a restart."""
        return cls(int(match["pk"]), int(match["ver"]), match["key"])

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Play the action."""
        await interaction.client.handle_action(interaction, self.pk, self.version, self.key)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"hg:s:(?P<pk>\d+):(?P<ver>\d+):(?P<n>\d+)",
):
    """A select menu of actions; the chosen option's value is the action key."""

    def __init__(self, pk: int, version: int, n: int, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"hg:s:{pk}:{version}:{n}", **select))
        self.pk, self.version = pk, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionSelect:
        """Rebuild from a choice, even after a restart."""
        return cls(int(match["pk"]), int(match["ver"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Play the chosen action."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or [""]
        await interaction.client.handle_action(interaction, self.pk, self.version, str(values[0]))


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hg:(?P<kind>[ht]):(?P<pk>\d+)"
):
    """ "My hand" (h): the player's private view and moves; "Whole table" (t): the full table
    picture for anyone. Both answer ephemerally."""

    def __init__(self, pk: int, kind: str = "h", *, locale: str = ENGLISH, **button: Any) -> None:
        label, emoji = (MY_HAND, "🂠") if kind == "h" else (WHOLE_TABLE, "🔍")
        button.setdefault("label", told(locale, label, MAX_LABEL))
        button.setdefault("emoji", emoji)
        button.setdefault(
            "style", discord.ButtonStyle.primary if kind == "h" else discord.ButtonStyle.secondary
        )
        super().__init__(discord.ui.Button(custom_id=f"hg:{kind}:{pk}", **button))
        self.pk, self.kind = pk, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        """Rebuild from a click, even after a restart."""
        return cls(int(match["pk"]), match["kind"])

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Show the private panel, or the whole table."""
        if self.kind == "t":
            await interaction.client.handle_table(interaction, self.pk)
        else:
            await interaction.client.handle_hand(interaction, self.pk)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hg:l:(?P<pk>\d+):(?P<op>join|leave|start|ai)",
):
    """Join, leave or start a lobby."""

    LOOK: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": (said("Join"), discord.ButtonStyle.success),
        "leave": (said("Leave"), discord.ButtonStyle.secondary),
        "start": (said("Start"), discord.ButtonStyle.primary),
        "ai": (said("Add AI"), discord.ButtonStyle.secondary),
    }

    def __init__(self, pk: int, op: str, *, locale: str = ENGLISH) -> None:
        label, style = self.LOOK[op]
        label = told(locale, label, MAX_LABEL)
        super().__init__(discord.ui.Button(custom_id=f"hg:l:{pk}:{op}", label=label, style=style))
        self.pk, self.op = pk, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        """Rebuild from a click, even after a restart."""
        return cls(int(match["pk"]), match["op"])

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Run the lobby operation."""
        await interaction.client.handle_lobby(interaction, self.pk, self.op)


class CoachButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hg:c:(?P<pk>\d+):(?P<op>hint|last|leave)",
):
    """Hint (the hard AI's move and why), What just happened (the last move explained) and
    Leave practice; each answers only the clicker."""

    LOOK: ClassVar[dict[str, tuple[str, str, discord.ButtonStyle]]] = {
        "hint": (said("Hint"), "💡", discord.ButtonStyle.success),
        "last": (said("Last move?"), "❔", discord.ButtonStyle.secondary),
        "leave": (said("Leave practice"), "🚪", discord.ButtonStyle.danger),
    }

    def __init__(self, pk: int, op: str, *, row: int | None = None, locale: str = ENGLISH) -> None:
        label, emoji, style = self.LOOK[op]
        label = told(locale, label, MAX_LABEL)
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"hg:c:{pk}:{op}", label=label, emoji=emoji, style=style, row=row
        )
        super().__init__(button)
        self.pk, self.op = pk, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CoachButton:
        """Rebuild from a click, even after a restart."""
        return cls(int(match["pk"]), match["op"])

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Answer privately."""
        await interaction.client.handle_coach(interaction, self.pk, self.op)


def hand_button(pk: int, *, row: int, locale: str = ENGLISH) -> HandButton:
    """The "My hand" button for a game's board."""
    return HandButton(pk, row=row, locale=locale)


def table_button(pk: int, *, row: int, locale: str = ENGLISH) -> HandButton:
    """The "Whole table" button, for games whose turn picture shows only part of the table."""
    return HandButton(pk, "t", row=row, locale=locale)


def lobby_buttons(pk: int, locale: str = ENGLISH) -> list[LobbyButton]:
    """Join, Leave, Start, Add AI."""
    return [LobbyButton(pk, op, locale=locale) for op in ("join", "leave", "start", "ai")]


def told(locale: str, text: str, limit: int) -> str:
    """A rules text (label, description, group title) in `locale`, cut at a word to `limit`.

    A plain string is looked up as its own message id (an engine's English group title).
    """
    shown = say(locale, text) if isinstance(text, Said) else translate(locale, text)
    return shorten(str(shown), limit)


def _button(pk: int, version: int, action: Action, row: int, locale: str) -> ActionButton:
    """One action as a button."""
    return ActionButton(
        pk,
        version,
        action.key,
        label=told(locale, action.label, MAX_LABEL),
        style=STYLES[action.style],
        emoji=action.emoji,
        row=row,
    )


def _select(
    pk: int, version: int, n: int, title: str, actions: list[Action], row: int, locale: str
) -> Any:
    """Up to 25 actions as one select menu."""
    options = [
        discord.SelectOption(
            label=told(locale, a.label, MAX_OPTION),
            value=a.key,
            description=told(locale, a.description, MAX_OPTION) or None,
            emoji=a.emoji,
        )
        for a in actions
    ]
    placeholder = told(locale, title, MAX_PLACEHOLDER)
    return ActionSelect(pk, version, n, placeholder=placeholder, options=options, row=row)


def _plan(actions: list[Action]) -> list[tuple[str, list[Action]]]:
    """Rows as (kind, actions): button rows of ≤ 5 and one select per group of ≤ 25."""
    groups: dict[str, list[Action]] = {}
    buttons: list[Action] = []
    for action in actions:
        if action.group:
            groups.setdefault(action.group, []).append(action)
        else:
            buttons.append(action)
    rows: list[tuple[str, list[Action]]] = [
        ("button", buttons[i : i + BUTTONS_PER_ROW])
        for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]
    for title, members in groups.items():
        for i in range(0, len(members), OPTIONS_PER_SELECT):
            rows.append((f"select:{title}", members[i : i + OPTIONS_PER_SELECT]))
    return rows


def action_items(
    pk: int, version: int, actions: list[Action], *, rows: int, locale: str = ENGLISH
) -> list[Any]:
    """Discord components for these actions within `rows` action rows.

    Buttons first, then one select per group. If that needs too many rows, everything is folded
    into select menus of 25 ("Choose an action"), which always fits a ≤ 25-option step.
    """
    plan = [(kind, group_title(actions, kind), members) for kind, members in _plan(actions)]
    if len(plan) > rows:
        choose = str(say(locale, CHOOSE_ACTION))
        plan = [
            ("select", choose, actions[i : i + OPTIONS_PER_SELECT])
            for i in range(0, len(actions), OPTIONS_PER_SELECT)
        ][:rows]
    items: list[Any] = []
    for row, (kind, title, members) in enumerate(plan):
        if kind == "button":
            items.extend(_button(pk, version, a, row, locale) for a in members)
        else:
            items.append(_select(pk, version, row, title, members, row, locale))
    return items


def group_title(actions: list[Action], kind: str) -> str:
    """A select's placeholder: its group as the engine said it (a Said keeps its parts)."""
    name = kind.removeprefix("select:")
    # The plan's keys are plain strings; the actions still hold the engine's own (maybe Said).
    return next((a.group for a in actions if a.group == name), name)


INACTIVE_CONTROL = said("This control is no longer active.")
DynamicItemType = type[discord.ui.DynamicItem[Any]]


def is_known_custom_id(custom_id: str, items: Iterable[DynamicItemType]) -> bool:
    """True when one of these restart-proof component classes handles this custom_id."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)


async def answer_unknown_component(
    interaction: discord.Interaction, items: Iterable[DynamicItemType]
) -> None:
    """A short private answer to a click on a component nobody handles (old or forged)."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if is_known_custom_id(custom_id, items) or interaction.response.is_done():
        return
    # Another handler may have answered first, or the interaction expired: nothing to add then.
    with contextlib.suppress(discord.HTTPException):
        text = str(say(str(interaction.locale.value), INACTIVE_CONTROL))
        await interaction.response.send_message(text, ephemeral=True)
