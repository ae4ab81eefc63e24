"""Refusals that say what happened and what to do, and /help from the command tree (issue 28),
through the fake Discord."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bot.edge.commands.clock import NOT_ABSENT, NOT_MARKED
from bot.edge.commands.play import NO_MOVES
from bot.services.clock import NOT_STARTED_CLOCK
from rules.core import messages

from .botproc import BotProcess, bot_env
from .driver import Table, active_player, boards, play
from .fakediscord import FakeDiscord


async def test_refusals_say_what_to_do_and_help_lists_every_command(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Not started, not in game, /game back with nothing to come back to, an idle player's
    /play list, /play after the game ended, and /help."""
    guild = fake.add_guild("Refusals")
    channel = fake.add_channel(guild, "takeoff")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("root", admin=True)
    table = Table(fake, channel, [alice, bob], stranger=carol)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)

    async def said(user: object, command: str, **options: object) -> str:
        reply = await (await fake.slash(user, channel, command, **options)).response()  # type: ignore[arg-type]
        assert not reply.failed and reply.ephemeral, command
        return reply.all_text

    # /help: built from the command tree, privately.
    helped = await said(bob, "help")
    for name in (
        "/game history",
        "/stats",
        "/leaderboard",
        "/away",
        "/notify",
        "/game back",
        "/game ai",
        "/game replay",
    ):
        assert f"`{name}" in helped, name
    assert "Manage Server" in helped and "Manage Channels" not in helped

    # No game at all: /game back says there is nothing to come back to.
    assert await said(alice, "game back") == NOT_ABSENT

    await (await fake.slash(alice, channel, "game new takeoff")).response()
    await (await fake.slash(bob, channel, "game join")).response()
    # A lobby: the hand is not there yet (and who starts it), a stranger is told how to join.
    assert await said(alice, "game hand") == messages.NOT_STARTED
    assert await said(carol, "game hand") == messages.NOT_IN_GAME
    assert await said(bob, "game back") == NOT_ABSENT
    # The clock before the start: what happened and how the game (and its clock) starts.
    for command, options in (("admin extend", {"hours": 6}), ("admin clock", {"paused": True})):
        assert await said(admin, command, **options) == NOT_STARTED_CLOCK, command

    mark = fake.mark()
    await (await fake.slash(alice, channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    first = active_player(table, boards(table)[-1])
    idle = bob if first is alice else alice
    assert await said(carol, "game hand") == messages.NOT_IN_GAME
    # Seated and never marked absent: /game back says so and what it is for, not "Welcome back".
    assert await said(idle, "game back") == NOT_MARKED

    # The idle player's /play list says whose turn it is; submitting that line moves nothing.
    offered = await fake.autocomplete(idle, channel, "play", option="action")
    assert offered == [
        {"name": f"It is {first.name}'s turn — you can't move now", "value": NO_MOVES}
    ], offered
    assert "not a move" in (await said(idle, "play", action=NO_MOVES))
    stranger = await fake.autocomplete(carol, channel, "play", option="action")
    assert [c["value"] for c in stranger] == [NO_MOVES]

    # Nonsense text: the one shared sentence.
    assert await said(first, "play", action="zzz") == messages.NOT_A_MOVE

    # An abandoned game counts as none: /play says how to start one.
    await (await fake.slash(admin, channel, "admin abandon")).response()
    assert await said(first, "play", action="end") == messages.NO_GAME_HERE
    assert await said(first, "game back") == NOT_ABSENT


async def test_play_after_the_game_ended_says_so(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A solo First in Flight game played to its end; then /play and /game back are refused
    with what happened and what to do."""
    guild = fake.add_guild("Ended")
    channel = fake.add_channel(guild, "fif-solo")
    pilot = fake.add_user("wilbur")
    table = Table(fake, channel, [pilot], stranger=fake.add_user("kibitzer"), use_board=True)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    mark = fake.mark()
    await (await fake.slash(pilot, channel, "game new first-in-flight")).response()
    await (await fake.slash(pilot, channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert await play(table, random.Random(5), max_steps=600), "the solo game did not end"

    reply = await (await fake.slash(pilot, channel, "play", action="end")).response()
    assert reply.ephemeral and reply.all_text == messages.GAME_ENDED
    back = await (await fake.slash(pilot, channel, "game back")).response()
    assert back.all_text == NOT_ABSENT
