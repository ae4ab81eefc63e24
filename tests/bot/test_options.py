"""/game new <game> subcommands are generated from each game's Options model."""

from __future__ import annotations

from typing import Any, Literal

import discord
import pytest
from discord import AppCommandOptionType, app_commands
from pydantic import BaseModel, Field

from bot.edge.commands.options import new_game_command
from rules import GAMES


class FakeOptions(BaseModel):
    """Options of a made-up game covering every supported field type."""

    scoring: Literal["A", "B"] = Field("B", description="Scoring version")
    rows: int = Field(3, ge=1, le=6, description="Business rows")
    aid: bool = Field(True, description="Show the odds")


class FakeGame:
    """Just enough of a Game for command generation."""

    id = "fake-game"
    title = "Fake"
    min_players = 2
    max_players = 4
    Options = FakeOptions


async def _ignore(*_: Any) -> None:
    """A handler that does nothing."""


def test_options_become_typed_optional_parameters() -> None:
    """Literal → choices, bounded int → min/max, bool → boolean; none required."""
    command = new_game_command(FakeGame(), _ignore)  # type: ignore[arg-type]
    params = {p.name: p for p in command.parameters}
    assert set(params) == {
        "scoring",
        "rows",
        "aid",
        "turn_limit",
        "on_timeout",
        "thread",
        "hints",
        "ai_seats",
        "ai_level",
    }
    assert not any(p.required for p in params.values())
    assert [c.value for c in params["scoring"].choices] == ["A", "B"]
    assert (params["rows"].min_value, params["rows"].max_value) == (1, 6)
    assert params["aid"].type is AppCommandOptionType.boolean
    assert params["rows"].description.startswith("Business rows (default: 3)")
    # Bot-owned table options: AI seats fill at most every seat but the creator's.
    assert (params["ai_seats"].min_value, params["ai_seats"].max_value) == (0, 3)
    assert [c.value for c in params["ai_level"].choices] == ["easy", "normal", "hard"]


def test_table_options_follow_the_game_options() -> None:
    """Every game gets turn_limit / on_timeout choices and a thread switch (server defaults)."""
    command = new_game_command(FakeGame(), _ignore)  # type: ignore[arg-type]
    params = {p.name: p for p in command.parameters}
    limits = [c.value for c in params["turn_limit"].choices]
    assert limits == ["off", "12h", "24h", "48h", "72h", "1w"]
    assert [c.value for c in params["on_timeout"].choices] == ["remind", "ai"]
    assert params["thread"].type is AppCommandOptionType.boolean
    assert "(default: the server's)" in params["turn_limit"].description


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_every_registered_game_gets_a_valid_subcommand(gid: str) -> None:
    """Each real game's options produce a command Discord accepts (name and description limits)."""
    command = new_game_command(GAMES[gid], _ignore)
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    payload = command.to_dict(tree)
    assert payload["name"] == gid and len(payload["description"]) <= 100
    for option in payload.get("options", []):
        assert len(option["name"]) <= 32 and 1 <= len(option["description"]) <= 100
