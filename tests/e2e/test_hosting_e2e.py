"""A host's first start, through the fake Discord: who sees /admin, bad options, /healthz."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest

from .botproc import BotProcess, bot_env
from .fakediscord import CommandUnavailable, FakeDiscord
from .fakediscord.state import MANAGE_CHANNELS, MANAGE_GUILD, Guild, Role, User, snowflake

GUILDS = 1 << 0  # Discord's GUILDS intent bit


def _free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _member_with(fake: FakeDiscord, guild: Guild, name: str, permissions: int) -> User:
    """A member whose only extra role grants exactly `permissions`."""
    role = Role(snowflake(), f"{name}-role", permissions, position=1)
    guild.roles.append(role)
    user = fake.add_user(name)
    guild.members[user.id] = [role.id]
    return user


async def _healthz(port: int) -> tuple[int, str]:
    """GET /healthz on the bot's health port."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/healthz") as response,
    ):
        return response.status, await response.text()


async def _healthz_until_ok(port: int, attempts: int = 60) -> tuple[int, str]:
    """Poll /healthz until it is 200 (the bot marks itself ready a moment after the fake)."""
    status, text = 0, ""
    for _ in range(attempts):
        status, text = await _healthz(port)
        if status == 200:
            break
        await asyncio.sleep(0.25)
    return status, text.strip()


async def test_first_start_admin_visibility_bad_options_and_health(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Manage Server alone sees and uses /admin; a bad card_data never opens a lobby."""
    guild = fake.add_guild("Hosting")
    channel = fake.add_channel(guild, "games")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    moderator = _member_with(fake, guild, "mod", MANAGE_GUILD)
    channel_keeper = _member_with(fake, guild, "keeper", MANAGE_CHANNELS)
    port = _free_port()
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3") | {"HEALTH_PORT": str(port)})
    await bot.start()
    await fake.wait_ready(60)

    assert await _healthz_until_ok(port) == (200, "ok")

    mark = fake.mark()
    refused = await (
        await fake.slash(alice, channel, "game new first-in-flight", card_data="@everyone.json")
    ).response()
    assert not refused.failed and refused.ephemeral
    assert "no card data file" in refused.all_text
    await asyncio.sleep(0.5)
    assert [m for m in fake.messages(channel) if m.id > mark] == [], "nothing public was posted"
    status_reply = await (await fake.slash(alice, channel, "game status")).response()
    assert "no game in this channel" in status_reply.all_text.lower()

    await (await fake.slash(alice, channel, "game new takeoff")).response()
    await (await fake.slash(bob, channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)

    verified = await (await fake.slash(moderator, channel, "admin verify")).response()
    assert not verified.failed and verified.ephemeral and "✅" in verified.all_text
    with pytest.raises(CommandUnavailable):
        await fake.slash(channel_keeper, channel, "admin verify")
    with pytest.raises(CommandUnavailable):
        await fake.slash(alice, channel, "admin verify")

    # Hangar never reads messages: it asks for guild events only, so Discord does not send it
    # every message written or edited in the server (its own boards included).
    session = fake.gateway.current
    assert session is not None and session.intents == GUILDS


async def test_an_unreachable_postgres_server_is_named_in_one_line(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A host whose DATABASE_URL names a PostgreSQL server that is down: the bot exits at once
    with one line naming the server (host and port, never the password)."""
    guild = fake.add_guild("Hosting")
    url = f"postgres://hangar:s3cret@127.0.0.1:{_free_port()}/hangar"
    bot = bots(bot_env(fake, guild, tmp_path / "unused.sqlite3") | {"DATABASE_URL": url})
    await bot.start()
    assert bot.proc is not None
    assert await asyncio.wait_for(bot.proc.wait(), 60) == 1
    log = bot.log_path.read_text()
    (line,) = [row for row in log.splitlines() if row.startswith("Hangar cannot start")]
    assert "cannot reach the PostgreSQL server at 127.0.0.1:" in line
    assert "check DATABASE_URL" in line
    assert "s3cret" not in log and "Traceback" not in log
