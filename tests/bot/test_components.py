"""The generic adapter turns any list of legal actions into components Discord accepts."""

from __future__ import annotations

import discord
import pytest

from bot.edge.components import ActionButton, ActionSelect, action_items, dynamic_view
from rules.core import Action


def _actions(n: int, group: str = "") -> list[Action]:
    """n distinct actions, optionally in one group."""
    return [Action(key=f"a{i}", label=f"Action {i}", group=group) for i in range(n)]


def _rows_used(items: list[discord.ui.Item[discord.ui.View]]) -> set[int]:
    """Which action rows the items occupy."""
    return {item.row for item in items if item.row is not None}


def _check_discord_limits(items: list[discord.ui.Item[discord.ui.View]], rows: int) -> None:
    """≤ rows rows, ≤ 5 buttons a row, a select alone in its row, ≤ 25 options, ids ≤ 100."""
    assert len(_rows_used(items)) <= rows
    for row in _rows_used(items):
        in_row = [i for i in items if i.row == row]
        selects = [i for i in in_row if isinstance(i, ActionSelect)]
        assert len(in_row) <= 5
        assert not selects or len(in_row) == 1
        for select in selects:
            assert len(select.item.options) <= 25
    for item in items:
        assert len(item.custom_id) <= 100


@pytest.mark.parametrize("count", [1, 5, 6, 12, 25])
def test_ungrouped_actions_fit_in_the_rows_given(count: int) -> None:
    """Few actions are buttons; too many for the rows fold into select menus."""
    items = action_items(7, 3, _actions(count), rows=4)
    _check_discord_limits(items, 4)
    offered = [b.key for b in items if isinstance(b, ActionButton)] + [
        o.value for s in items if isinstance(s, ActionSelect) for o in s.item.options
    ]
    assert offered == [f"a{i}" for i in range(count)], "every action is offered once, in order"


def test_grouped_actions_become_one_select_with_the_group_as_placeholder() -> None:
    """Actions sharing a group are one menu; ungrouped ones stay buttons."""
    actions = [*_actions(3, group="Choose a row"), Action(key="cancel", label="Cancel")]
    items = action_items(1, 9, actions, rows=5)
    selects = [i for i in items if isinstance(i, ActionSelect)]
    buttons = [i for i in items if isinstance(i, ActionButton)]
    assert [s.item.placeholder for s in selects] == ["Choose a row"]
    assert [b.key for b in buttons] == ["cancel"]
    _check_discord_limits(items, 5)


def test_custom_ids_carry_game_version_and_key() -> None:
    """A click after a restart can be resolved from the custom_id alone."""
    (button,) = action_items(12, 34, [Action(key="end", label="End turn")], rows=1)
    assert button.custom_id == "hg:b:12:34:end"
    match = ActionButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    assert match is not None and match["key"] == "end" and match["ver"] == "34"


def test_danger_style_and_emoji_hints_are_used() -> None:
    """Adapter hints from the engine reach the button."""
    action = Action(key="x", label="Give up", style="danger", emoji="🛑")
    (button,) = action_items(1, 1, [action], rows=1)
    assert button.item.style is discord.ButtonStyle.danger
    assert str(button.item.emoji) == "🛑"


async def test_a_panel_is_serialised_but_never_kept_by_discord_py() -> None:
    """Hangar's components are dispatched by custom id: discord.py keeps (and, ephemeral, times
    for 15 minutes) only a view that has not finished, so each panel's view is sent finished,
    with every button still in its message."""
    view = dynamic_view()
    for item in action_items(7, 3, _actions(3), rows=4):
        view.add_item(item)
    assert view.is_finished()
    sent = view.to_components()
    assert [c["custom_id"] for row in sent for c in row["components"]] == [
        "hg:b:7:3:a0",
        "hg:b:7:3:a1",
        "hg:b:7:3:a2",
    ]
