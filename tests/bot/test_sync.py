"""Slash commands are re-registered only when the command tree changed (syncs are limited)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.edge.app import HangarBot
from bot.settings import Settings
from bot.store import open_store
from tests.support.databases import BACKENDS, database_url_for, postgres_schema

APP = 4242


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database on each backend in turn."""
    async for url in database_url_for(request.param, tmp_path):
        yield url


class CountingBot(HangarBot):
    """HangarBot whose sync is recorded (slowly, as over a network) instead of sent to Discord."""

    def __init__(self, settings: Settings, application_id: int = APP) -> None:
        super().__init__(settings)
        self.syncs: list[int | None] = []
        self._connection.application_id = application_id

        async def record(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
            await asyncio.sleep(0.05)
            self.syncs.append(guild.id if guild else None)
            return []

        self.tree.sync = record  # type: ignore[method-assign]


async def _bot(url: str, *, application_id: int = APP, **extra: object) -> CountingBot:
    """A bot with its database open and one command."""
    settings = Settings(_env_file=None, database_url=url, **extra)  # type: ignore[arg-type, call-arg]
    bot = CountingBot(settings, application_id)
    bot.store = await open_store(url)

    @app_commands.command(name="ping", description="ping")
    async def ping(interaction: discord.Interaction) -> None:
        """A command to sync."""

    bot.tree.add_command(ping)
    return bot


async def test_global_sync_happens_once_per_tree(database_url: str) -> None:
    """Same tree on the next start → no sync; a new command → sync again."""
    first = await _bot(database_url)
    await first.sync_commands_if_changed()
    await first.close()
    second = await _bot(database_url)
    await second.sync_commands_if_changed()
    assert first.syncs == [None] and second.syncs == []

    @app_commands.command(name="pong", description="pong")
    async def pong(interaction: discord.Interaction) -> None:
        """Another command."""

    second.tree.add_command(pong)
    await second.sync_commands_if_changed()
    assert second.syncs == [None]
    await second.close()


async def test_a_new_application_on_the_same_data_gets_its_commands(database_url: str) -> None:
    """The hash belongs to the application: another bot application syncs its own commands."""
    old = await _bot(database_url)
    await old.sync_commands_if_changed()
    await old.close()
    new = await _bot(database_url, application_id=APP + 1)
    await new.sync_commands_if_changed()
    await new.close()
    assert new.syncs == [None]


async def test_exactly_one_of_several_processes_syncs() -> None:
    """Three bots starting together on one PostgreSQL database: one sync between them."""
    async for url in postgres_schema():
        bots = [await _bot(url) for _ in range(3)]
        await asyncio.gather(*(bot.sync_commands_if_changed() for bot in bots))
        assert sum(len(bot.syncs) for bot in bots) == 1
        for bot in bots:
            await bot.close()


async def test_dev_guild_syncs_every_start(tmp_path: Path) -> None:
    """With DEV_GUILD_ID the commands go to that guild at once, every start."""
    for _ in range(2):
        bot = await _bot(str(tmp_path / "h.sqlite3"), dev_guild_id=1234)
        await bot.sync_commands_if_changed()
        assert bot.syncs == [1234]
        await bot.close()
