"""Slash commands are re-registered only when the command tree changed (syncs are limited)."""

from __future__ import annotations

from pathlib import Path

import discord
from discord import app_commands

from bot.app import HangarBot
from bot.settings import Settings


class CountingBot(HangarBot):
    """HangarBot whose sync is recorded instead of sent to Discord."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.syncs: list[int | None] = []

        async def record(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
            self.syncs.append(guild.id if guild else None)
            return []

        self.tree.sync = record  # type: ignore[method-assign]


def _bot(tmp_path: Path, **extra: object) -> CountingBot:
    """A bot with its database (and sync marker) in tmp_path and one command."""
    settings = Settings(database_url=str(tmp_path / "h.sqlite3"), **extra)  # type: ignore[arg-type]
    bot = CountingBot(settings)

    @app_commands.command(name="ping", description="ping")
    async def ping(interaction: discord.Interaction) -> None:
        """A command to sync."""

    bot.tree.add_command(ping)
    return bot


async def test_global_sync_happens_once_per_tree(tmp_path: Path) -> None:
    """Same tree on the next start → no sync; a new command → sync again."""
    first = _bot(tmp_path)
    await first.sync_commands_if_changed()
    second = _bot(tmp_path)
    await second.sync_commands_if_changed()
    assert first.syncs == [None] and second.syncs == []

    @app_commands.command(name="pong", description="pong")
    async def pong(interaction: discord.Interaction) -> None:
        """Another command."""

    second.tree.add_command(pong)
    await second.sync_commands_if_changed()
    assert second.syncs == [None]


async def test_dev_guild_syncs_every_start(tmp_path: Path) -> None:
    """With DEV_GUILD_ID the commands go to that guild at once, every start."""
    for _ in range(2):
        bot = _bot(tmp_path, dev_guild_id=1234)
        await bot.sync_commands_if_changed()
        assert bot.syncs == [1234]
