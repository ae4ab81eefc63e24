"""Tables with no human move at all still end (issue 26), through the real bot.

Every human times out (the clock's AI plays each late turn), or every seat is an AI seat (the
driver plays them all). Before the progress guards an all-AI Flight table passed the same cards
round for ever: the timeout AI took the exposed Safe Landing and discarded it again to move 578.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from .botproc import BotProcess, bot_env
from .driver import Table, boards, description, is_over
from .fakediscord import FakeDiscord
from .fakediscord.state import Message, User

TURN_SECONDS = 0.4  # a 12 h turn limit, scaled: every late turn is played within a second
SCALE = str(12 * 3600 / TURN_SECONDS)
# Far above a real game: a one-hand Flight match is 30–90 turns (under a minute of deadlines),
# an AI-seat game a few hundred quick moves; a table that loops never gets there.
FINISH_WITHIN = 300.0


async def _setup(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path, name: str
) -> tuple[Table, User]:
    """A guild with a channel, alice and bob, an admin, and a bot with scaled time."""
    guild = fake.add_guild("All AI")
    channel = fake.add_channel(guild, name)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("root", admin=True)
    env = {
        **bot_env(fake, guild, tmp_path / "hangar.sqlite3"),
        "HANGAR_TIME_SCALE": SCALE,
        "HANGAR_HEARTBEAT_SECONDS": "0.2",
    }
    bot = bots(env)
    await bot.start()
    await fake.wait_ready(60)
    return Table(fake, channel, [alice, bob], stranger=admin), admin


async def _finished(table: Table) -> Message:
    """The board that reports the end of the game; fails if none comes in time."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + FINISH_WITHIN
    while True:
        over = [b for b in boards(table) if is_over(b)]
        if over:
            return over[-1]
        assert loop.time() < deadline, "the all-AI table did not finish"
        await asyncio.sleep(0.25)


async def _verified(fake: FakeDiscord, table: Table, admin: User) -> None:
    """`/admin verify`: seed + action log replay to the stored game."""
    reply = await (await fake.slash(admin, table.channel, "admin verify")).response()
    assert "✅" in reply.all_text, reply.all_text


async def test_flight_ends_when_every_player_times_out(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """alice and bob never move: the clock's AI plays every turn, and the match ends."""
    table, admin = await _setup(fake, bots, tmp_path, "timeouts")
    alice, bob = table.players
    quiet = await (
        await fake.slash(admin, table.channel, "admin settings", reminders=False)
    ).response()
    assert "reminders **off**" in quiet.all_text
    reply = await (
        await fake.slash(
            alice,
            table.channel,
            "game new flight",
            match="hands",
            hands=1,
            turn_limit="12h",
            on_timeout="ai",
        )
    ).response()
    assert not reply.failed, reply.all_text
    await (await fake.slash(bob, table.channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game start")).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)

    final = await _finished(table)
    assert "Game over" in description(final)
    played = [m.content for m in fake.messages(table.channel) if "the AI played" in m.content]
    assert any(alice.mention in t for t in played) and any(bob.mention in t for t in played)
    await _verified(fake, table, admin)


async def test_flight_ends_when_every_seat_is_an_ai(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """alice opens a table with a Normal AI, then hands her own seat to another: the AIs play
    every move until the match ends."""
    table, admin = await _setup(fake, bots, tmp_path, "seats")
    alice = table.players[0]
    mark = fake.mark()
    await (
        await fake.slash(
            alice, table.channel, "game new flight", match="hands", hands=1, ai_seats=1
        )
    ).response()
    lobby = await fake.wait_for_message(table.channel, lambda m: "lobby" in m.content, after=mark)
    start = next(
        c["custom_id"] for c in lobby.iter_components() if c["custom_id"].endswith(":start")
    )
    mark = fake.mark()
    await (await fake.click(alice, lobby, start)).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    reply = await (
        await fake.slash(admin, table.channel, "admin ai", player=alice.id, level="normal")
    ).response()
    assert "Normal AI" in reply.all_text, reply.all_text

    final = await _finished(table)
    assert "Game over" in description(final)
    assert "🤖 Normal AI" in description(final) and "🤖 Normal AI 2" in description(final)
    await _verified(fake, table, admin)
