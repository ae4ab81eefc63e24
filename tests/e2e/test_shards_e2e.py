"""Two real bot processes (two shards) on one PostgreSQL database against the fake Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import open_store
from bot.store import repository as repo

from ..support.databases import postgres_schema
from .botproc import BotProcess
from .driver import Table, action_choices, active_player, boards, open_panel
from .fakediscord.shards import ShardedFakeDiscord

SHARDS = 2


@pytest.fixture
async def sharded() -> AsyncIterator[ShardedFakeDiscord]:
    """A fake Discord expecting a bot with two shards; fails the test on any broken rule."""
    server = ShardedFakeDiscord(SHARDS)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    assert not server.violations, "Discord rules broken:\n" + "\n".join(map(str, server.violations))


@pytest.fixture
async def database_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema shared by both processes."""
    async for url in postgres_schema():
        yield url


def _env(fake: ShardedFakeDiscord, url: str, shard: int) -> dict[str, str]:
    """One process running one of the two shards; commands are synced globally (no dev guild)."""
    return {
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DATABASE_URL": url,
        "DEV_GUILD_ID": "",
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "LOG_LEVEL": "DEBUG",
    }


async def test_the_same_click_in_two_processes_applies_once(
    sharded: ShardedFakeDiscord, database_url: str, tmp_path: Path
) -> None:
    """Both processes answer in time; one applies the move, the other says it is out of date."""
    fake = sharded
    guild = fake.add_guild("Big")
    channel = fake.add_channel(guild, "takeoff")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    procs = [
        BotProcess(_env(fake, database_url, shard), log_path=tmp_path / f"shard{shard}.log")
        for shard in range(SHARDS)
    ]
    try:
        await asyncio.gather(*(proc.start() for proc in procs))
        await fake.wait_ready(90)
        synced = [
            line for line in fake.http_log if line.startswith("PUT") and "/guilds/" not in line
        ]
        assert len(synced) == 1, f"exactly one process syncs the commands: {synced}"

        await (await fake.slash(alice, channel, "game new takeoff")).response()
        await (await fake.slash(bob, channel, "game join")).response()
        mark = fake.mark()
        await (await fake.slash(alice, channel, "game start")).response()
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
        player = active_player(table, board)
        panel = await open_panel(table, player, board)
        button = next(cid for cid, value in action_choices(panel) if value is None)

        handles = await fake.click_on_each_shard(player, panel, button)
        replies = [await handle.response(settle=0.5) for handle in handles]
        assert not any(reply.failed for reply in replies), "each process answered within 3 s"
        texts = " | ".join(reply.all_text for reply in replies)
        assert "out of date" in texts, texts

        store = await open_store(database_url)
        try:
            async with store.reading() as db:
                stored = await repo.fetch_open_game(db, channel.id)
                assert stored is not None
                moves = await repo.fetch_actions(db, stored.record.pk)
        finally:
            await store.close()
        assert len(moves) == 1 and moves[0].user_id == player.id
        assert len(boards(table)) >= 1
        for proc in procs:
            assert proc.log_errors() == [], proc.tail()
    finally:
        for proc in procs:
            await proc.stop()
