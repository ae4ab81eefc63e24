"""Admin tools and /mygames on a running Takeoff! game, through the fake Discord."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from .botproc import BotProcess, bot_env
from .driver import Table, active_player, boards, description
from .fakediscord import CommandUnavailable, FakeDiscord
from .fakediscord.state import User


async def _started_game(fake: FakeDiscord, table: Table) -> None:
    """alice opens Takeoff!, bob joins, alice starts."""
    alice, bob = table.players
    await (await fake.slash(alice, table.channel, "game new takeoff")).response()
    await (await fake.slash(bob, table.channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game start")).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)


async def _admin(
    fake: FakeDiscord, admin: User, table: Table, command: str, **options: object
) -> str:
    """Run an admin command and return all the text of its (private) answer."""
    reply = await (await fake.slash(admin, table.channel, f"admin {command}", **options)).response()
    assert not reply.failed and reply.ephemeral
    return reply.all_text


async def _play(fake: FakeDiscord, table: Table, user: User, key: str) -> str:
    """Play one action by key through /play."""
    reply = await (await fake.slash(user, table.channel, "play", action=key)).response()
    return reply.all_text


async def test_admin_tools(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """verify, export, undo (allowed and refused), replace, resume, mygames and abandon."""
    guild = fake.add_guild("Admins")
    channel = fake.add_channel(guild, "takeoff")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("root", admin=True)
    table = Table(fake, channel, [alice, bob], stranger=carol)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await _started_game(fake, table)

    with pytest.raises(CommandUnavailable):
        await fake.slash(alice, channel, "admin verify")

    first = active_player(table, boards(table)[-1])
    assert "✅" in await _play(fake, table, first, "ticket")
    assert "✅" in await _admin(fake, admin, table, "verify")
    assert "undone" in await _admin(fake, admin, table, "undo")
    assert "out of date" not in await _play(fake, table, first, "end")
    refused = await _admin(fake, admin, table, "undo")
    assert "cannot be taken back" in refused or "random" in refused

    export = await (await fake.slash(admin, channel, "admin export")).response()
    (attachment,) = export.attachments
    data = json.loads(attachment.data)
    assert [a["key"] for a in data["actions"]][-1] == "end"
    assert data["seed"] is not None and data["game"]["id"] == "takeoff"

    waiting = bob if first is alice else alice  # now to play, after first ended their turn
    mine = await (await fake.slash(waiting, channel, "mygames")).response()
    assert "Takeoff!" in mine.all_text and "your turn" in mine.all_text

    mark = fake.mark()
    await (
        await fake.slash(admin, channel, "admin replace", old=waiting.id, new=carol.id)
    ).response()
    await fake.wait_for_message(channel, lambda m: "takes over" in m.content, after=mark)
    mark = fake.mark()
    assert "re-posted" in await _admin(fake, admin, table, "resume")
    resumed = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert resumed.mentions == [carol.id], "carol now holds the seat to play and is pinged"
    assert "carol" in description(resumed)
    assert "✅" in await _play(fake, table, carol, "end")

    await (await fake.slash(admin, channel, "admin abandon")).response()
    gone = await (await fake.slash(alice, channel, "game status")).response()
    assert "no game in this channel" in gone.all_text.lower()
    await (await fake.slash(alice, channel, "game new flight")).response()
    lobby = fake.messages(channel)[-1]
    assert "Flight" in lobby.content and "lobby" in lobby.content


async def test_a_playing_admin_cannot_export_the_seed_of_a_running_game(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """The server owner plays: /admin export would hand them the seed (every hidden card), so it
    is refused with the reason until the game has ended; then the export comes."""
    guild = fake.add_guild("Owners play")
    channel = fake.add_channel(guild, "takeoff")
    owner, bob = fake.add_user("owner", admin=True), fake.add_user("bob")
    table = Table(fake, channel, [owner, bob], stranger=fake.add_user("carol"))
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await _started_game(fake, table)

    refused = await (await fake.slash(owner, channel, "admin export")).response()
    assert not refused.failed and refused.ephemeral and refused.attachments == []
    assert "You play in game #" in refused.all_text and "hidden card" in refused.all_text

    assert "abandoned" in (await _admin(fake, owner, table, "abandon")).lower()
    pk = int(refused.all_text.split("game #")[1].split(",")[0])
    export = await (await fake.slash(owner, channel, "admin export", game_id=pk)).response()
    (attachment,) = export.attachments
    assert json.loads(attachment.data)["seed"] is not None
