"""Reliability through the fake Discord: departed members, crashes, Discord failures, abuse."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .botproc import BotProcess, bot_env
from .driver import Table, active_player, boards
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, Guild, User


async def start_takeoff(fake: FakeDiscord, channel: Channel, alice: User, bob: User) -> None:
    """alice opens Takeoff!, bob joins, alice starts; returns once the first board is up."""
    await (await fake.slash(alice, channel, "game new takeoff")).response()
    await (await fake.slash(bob, channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)


def world(fake: FakeDiscord) -> tuple[Guild, Channel, User, User, User, User]:
    """A server with a channel, two players, a stranger and an admin."""
    guild = fake.add_guild("Reliability")
    channel = fake.add_channel(guild, "table")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("root", admin=True)
    return guild, channel, alice, bob, carol, admin


async def test_replace_a_member_who_left(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """/admin replace works for a player who left the server, and the bot keeps answering."""
    guild, channel, alice, bob, carol, admin = world(fake)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    del guild.members[bob.id]  # bob leaves the server

    mark = fake.mark()
    reply = await (
        await fake.slash(admin, channel, "admin replace", old=str(bob.id), new=carol.id)
    ).response()
    assert not reply.failed and "replaced" in reply.all_text.lower()
    note = await fake.wait_for_message(channel, lambda m: "takes over" in m.content, after=mark)
    assert "bob" in note.content and note.mentions == [carol.id]

    unknown = await (
        await fake.slash(admin, channel, "admin replace", old="<@123>", new=alice.id)
    ).response()
    assert "is not a player in this game" in unknown.all_text

    status = await (await fake.slash(carol, channel, "game status")).response()
    assert not status.failed, "the bot must keep answering after the replace"
    table = Table(fake, channel, [alice, carol], stranger=admin)
    assert active_player(table, boards(table)[-1]) in (alice, carol)
    assert not bot.log_errors(), bot.log_errors()
