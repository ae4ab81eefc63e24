"""Prove the fake Discord against a real discord.py process (tests/e2e/mini_bot.py)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from PIL import Image

from bot.edge.app import intents

from .botproc import BotProcess, bot_env
from .fakediscord import CommandUnavailable, FakeDiscord, limits
from .fakediscord.gateway import ALL_INTENTS, DIRECT_MESSAGES, GUILD_MESSAGES, wanted
from .fakediscord.state import Channel, User

MINI = "tests.e2e.mini_bot"


@pytest.fixture
def world(fake: FakeDiscord) -> tuple[Channel, User, User]:
    """One guild with #general, a player (alice) and an admin (bob)."""
    guild = fake.add_guild("Hangar Test")
    channel = fake.add_channel(guild, "general")
    return channel, fake.add_user("alice"), fake.add_user("bob", admin=True)


@pytest.fixture
async def mini(
    fake: FakeDiscord, world: Any, bots: Callable[..., BotProcess], tmp_path: Path
) -> BotProcess:
    """The mini bot, started and ready."""
    guild = fake.world.guilds[world[0].guild_id]
    bot = bots(bot_env(fake, guild, tmp_path / "mini.db"), module=MINI)
    await bot.start()
    await fake.wait_ready(timeout=30)
    return bot


async def test_deferred_follow_up_has_png_and_button_that_survives_restart(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, bob = world
    reply = await (await fake.slash(alice, channel, "mini draw", colour="red", size=2)).response()
    assert reply.callback_type == 5 and not reply.ephemeral
    assert reply.content == "drew red x2"
    [png] = reply.attachments
    assert png.filename == "board.png" and Image.open(io.BytesIO(png.data)).size == (160, 40)
    assert reply.custom_ids == ["mini:count:0"]

    clicked = await (await fake.click(bob, reply.message, "mini:count:0")).response()
    assert clicked.callback_type == 7 and clicked.content.startswith("count=1 ")
    first_pid = clicked.content.split("pid=")[1]

    await mini.restart()
    await fake.wait_ready(timeout=30)
    again = await (await fake.click(alice, reply.message, "mini:count:1")).response()
    assert again.content.startswith("count=2 ")
    assert again.content.split("pid=")[1] != first_pid
    assert fake.gateway.identifies == 2
    assert mini.log_errors() == []


async def test_autocomplete_offers_at_most_25_matching_choices(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, _ = world
    choices = await fake.autocomplete(alice, channel, "mini play", option="action", value="")
    assert len(choices) == 25
    narrowed = await fake.autocomplete(alice, channel, "mini play", option="action", value="-3")
    expected = ["move-3"] + [f"move-3{i}" for i in range(10)]
    assert [c["value"] for c in narrowed] == expected
    played = await (await fake.slash(alice, channel, "mini play", action="move-3")).response()
    assert played.content == "played move-3"


async def test_ping_reaches_only_the_allowed_user_and_ephemeral_stays_private(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, bob = world
    reply = await (await fake.slash(alice, channel, "mini ping", who=bob)).response()
    assert reply.ephemeral and reply.content == "pinged"
    ping = await fake.wait_for_message(channel, lambda m: "your turn" in m.content)
    assert alice.mention in ping.content and bob.mention in ping.content
    assert ping.mentions == [bob.id]
    assert reply.message in fake.visible_messages(alice, channel)
    assert reply.message not in fake.visible_messages(bob, channel)
    assert reply.message not in fake.messages(channel)


async def test_string_select_delivers_chosen_values(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, bob = world
    menu = await (await fake.slash(alice, channel, "mini pick")).response()
    chosen = await (
        await fake.select(bob, menu.message, "mini:pick", ["alpha", "gamma"])
    ).response()
    assert chosen.ephemeral and chosen.content == "picked alpha,gamma"
    with pytest.raises(ValueError, match="not all offered"):
        await fake.select(bob, menu.message, "mini:pick", ["delta"])


async def test_answer_after_three_seconds_is_a_failed_interaction(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, _ = world
    handle = await fake.slash(alice, channel, "mini slow")
    reply = await handle.response(timeout=10)
    assert reply.failed and reply.message is None
    for _ in range(50):
        if len(fake.violations) == 2:
            break
        await asyncio.sleep(0.1)
    assert [v.kind for v in fake.violations] == ["ack-timeout", "late-ack"]
    fake.violations.clear()


async def test_select_with_26_options_is_rejected_and_recorded(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, _ = world
    reply = await (await fake.slash(alice, channel, "mini bigselect")).response()
    assert reply.content == "rejected 400 50035"
    assert [v.kind for v in fake.violations] == ["limit"]
    assert "26 select options" in fake.violations[0].detail
    assert fake.messages(channel) == []
    fake.violations.clear()


async def test_admin_command_is_hidden_from_members_without_manage_server(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, bob = world
    with pytest.raises(CommandUnavailable):
        await fake.slash(alice, channel, "minireset")
    assert (await (await fake.slash(bob, channel, "minireset")).response()).content == "reset"


async def test_gateway_reconnect_resumes_the_session(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, _ = world
    await fake.request_reconnect()
    for _ in range(100):
        if fake.gateway.resumes and fake.gateway.connected:
            break
        await asyncio.sleep(0.1)
    assert fake.gateway.resumes == 1 and fake.gateway.identifies == 1
    played = await (await fake.slash(alice, channel, "mini play", action="move-1")).response()
    assert played.content == "played move-1"


async def test_options_are_checked_against_the_registered_schema(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, _ = world
    with pytest.raises(ValueError, match="not one of"):
        await fake.slash(alice, channel, "mini draw", colour="green")
    with pytest.raises(ValueError, match="outside"):
        await fake.slash(alice, channel, "mini draw", colour="red", size=9)
    with pytest.raises(ValueError, match="required option"):
        await fake.slash(alice, channel, "mini draw")
    with pytest.raises(CommandUnavailable):
        await fake.slash(alice, channel, "mini nosuch")


# --- HTTP-level behaviour, no bot process ------------------------------------------------------


async def _register(fake: FakeDiscord, http: aiohttp.ClientSession, guild_id: int) -> None:
    cmd = {"name": "hello", "description": "Say hello", "options": []}
    url = f"{fake.api_base}/applications/{fake.app_id}/guilds/{guild_id}/commands"
    async with http.put(url, json=[cmd]) as resp:
        assert resp.status == 200


async def test_second_callback_and_expired_token_are_refused(fake: FakeDiscord, world: Any) -> None:
    channel, alice, _ = world
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        await _register(fake, http, channel.guild_id)
        handle = await fake.slash(alice, channel, "hello")
        rec = handle.record
        url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
        body = {"type": 4, "data": {"content": "hi", "flags": 64}}
        async with http.post(url, json=body) as resp:
            assert resp.status == 200
        async with http.post(url, json=body) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 40060
        reply = await handle.response(settle=0)
        assert reply.ephemeral and reply.content == "hi"
        fake.expire_tokens()
        follow = f"{fake.api_base}/webhooks/{fake.app_id}/{rec.token}"
        async with http.post(follow, json={"content": "late"}) as resp:
            assert resp.status == 401 and (await resp.json())["code"] == 50027
        missing = f"{fake.api_base}/channels/{channel.id}/messages/42"
        async with http.get(missing) as resp:
            assert resp.status == 404
            assert await resp.json() == {"code": 10008, "message": "Unknown Message"}
    assert [v.kind for v in fake.violations] == ["double-ack", "expired-token"]
    fake.violations.clear()


def _button(i: int, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": f"id{i}"}


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"content": "x" * 2001}, "2001 chars > 2000"),
        ({"embeds": [{"title": "t"}] * 11}, "11 embeds > 10"),
        ({"components": [{"type": 1, "components": [_button(i)]} for i in range(6)]}, "6 action"),
        ({"components": [{"type": 1, "components": [_button(i) for i in range(6)]}]}, "6 buttons"),
        ({"components": [{"type": 1, "components": [_button(0, "x" * 81)]}]}, "label 81"),
        (
            {"components": [{"type": 1, "components": [_button(0) | {"custom_id": "c" * 101}]}]},
            "custom_id 101",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            _button(0),
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": "a", "value": "a"}],
                            },
                        ],
                    }
                ]
            },
            "alone in its action row",
        ),
        ({"content": ""}, "empty message"),
    ],
)
def test_limits_catch_what_discord_rejects(payload: dict[str, Any], expected: str) -> None:
    problems = limits.check_message(payload, [], creating=True)
    assert any(expected in str(p) for p in problems), problems


def test_limits_reject_files_over_10_mib() -> None:
    big = ("big.png", b"\0" * (10 * 1024 * 1024 + 1))
    problems = limits.check_message({"content": "x"}, [big], creating=True)
    assert [p.path for p in problems] == ["files.0"]


async def test_threads_work_like_channels(fake: FakeDiscord, world: Any, mini: BotProcess) -> None:
    channel, alice, bob = world
    guild = fake.world.guilds[channel.guild_id]
    thread = fake.add_channel(guild, "game-1", thread_of=channel)
    reply = await (await fake.slash(alice, thread, "mini ping", who=bob)).response()
    assert reply.ephemeral
    ping = await fake.wait_for_message(thread, lambda m: "your turn" in m.content)
    assert ping.mentions == [bob.id]
    assert fake.messages(channel) == []
    assert mini.log_errors() == []


async def test_channel_message_edit_replaces_file_and_deferred_update_waits_for_edit(
    fake: FakeDiscord, world: Any, mini: BotProcess
) -> None:
    channel, alice, bob = world
    mark = fake.mark()
    await (await fake.slash(alice, channel, "mini board")).response()
    board = await fake.wait_for_message(channel, lambda m: m.edits > 0, after=mark)
    assert board.content == "board v2"
    assert [a.filename for a in board.attachments] == ["board2.png"]
    assert board.mentions == [] and board.custom_ids == ["mini:refresh"]
    refreshed = await (await fake.click(bob, board, "mini:refresh")).response()
    assert refreshed.callback_type == 6 and refreshed.content == "board refreshed"


def test_message_events_reach_only_a_bot_that_asked_for_them() -> None:
    """Like Discord, the fake sends message events only with the matching intent; a bot with
    the guilds intent alone (Hangar) still gets interactions and guild events."""
    guild_message, dm = {"guild_id": "1", "id": "2"}, {"id": "3"}
    guilds_only = discord.Intents(guilds=True).value
    assert wanted(ALL_INTENTS, "MESSAGE_CREATE", guild_message)
    assert wanted(GUILD_MESSAGES, "MESSAGE_UPDATE", guild_message)
    assert not wanted(GUILD_MESSAGES, "MESSAGE_CREATE", dm)
    assert wanted(DIRECT_MESSAGES, "MESSAGE_CREATE", dm)
    assert not wanted(guilds_only, "MESSAGE_CREATE", guild_message)
    assert not wanted(guilds_only, "MESSAGE_UPDATE", guild_message)
    assert wanted(guilds_only, "INTERACTION_CREATE", {"guild_id": "1"})
    assert wanted(guilds_only, "GUILD_CREATE", {"id": "1"})
    assert intents().value == guilds_only
