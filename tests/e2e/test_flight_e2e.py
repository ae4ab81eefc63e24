"""A 3-player hand of Flight played to a Safe Landing through the fake Discord."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from .botproc import BotProcess, bot_env
from .driver import (
    Choice,
    Table,
    active_player,
    boards,
    description,
    is_over,
    key_of,
    play,
    prefer_progress,
)
from .fakediscord import FakeDiscord

MAX_STEPS = 1500


def route_builder(choices: list[Choice], rng: random.Random) -> Choice:
    """Play like someone who wants to land: Safe Landing first, then any play, else anything."""
    forward = prefer_progress(choices)
    for prefix in ("play:SL", "play:", "to:"):
        wanted = [c for c in forward if key_of(c).startswith(prefix)]
        if wanted:
            return rng.choice(wanted)
    return rng.choice(forward)


async def _start_three_player_match(fake: FakeDiscord, table: Table) -> None:
    """Alice opens a one-hand match; Bob and Dave join by command; Alice starts by command."""
    alice, bob, dave = table.players
    mark = fake.mark()
    await (
        await fake.slash(alice, table.channel, "game new flight", match="hands", hands=1)
    ).response()
    lobby = await fake.wait_for_message(table.channel, lambda m: "lobby" in m.content, after=mark)
    # Issue 28: a hands-mode lobby lists only the options that apply.
    assert "Match hands · Hands 1" in lobby.content, lobby.content
    assert "Points target" not in lobby.content and "hand limit" not in lobby.content
    for user in (bob, dave):
        joined = await (await fake.slash(user, table.channel, "game join")).response()
        assert joined.ephemeral and "joined" in joined.all_text
    mark = fake.mark()
    started = await (await fake.slash(alice, table.channel, "game start")).response()
    assert started.ephemeral and not started.failed
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)


async def _illegal_play_says_why(fake: FakeDiscord, table: Table) -> None:
    """A card played before drawing is refused with the reason, not a generic message.

    The deal is random, so the reason is either that the card is not held or that one must
    draw first — both are specific.
    """
    first = active_player(table, boards(table)[-1])
    reply = await (await fake.slash(first, table.channel, "play", action="play:SL")).response()
    assert reply.ephemeral
    # Issue 15: every game opens a refusal with the same sentence and appends its own reason.
    assert reply.all_text.startswith("That move is not available now.")
    assert "Pick one of the offered actions" not in reply.all_text, "the refusal must say why"
    reason = reply.all_text.lower()
    assert "draw" in reason or "don't hold" in reason, reason


async def test_flight_hand_to_a_safe_landing(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Three players play one hand until somebody lays a Safe Landing; the match result is shown."""
    guild = fake.add_guild("Flight club")
    channel = fake.add_channel(guild, "flight")
    players = [fake.add_user(n) for n in ("alice", "bob", "dave")]
    table = Table(fake, channel, players, stranger=fake.add_user("carol"))
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)

    await _start_three_player_match(fake, table)
    (first_board,) = boards(table)
    assert len(first_board.mentions) == 1
    await _illegal_play_says_why(fake, table)

    assert await play(table, random.Random(7), max_steps=MAX_STEPS, policy=route_builder)
    final = boards(table)[-1]
    assert is_over(final)
    text = description(final)
    assert "Safe Landing" in text, "the log shows the landing that ended the hand"
    # Issue 28: whole sentences, real minus signs, and what scored how much per player.
    assert "🏁 **Game over.** The match ended after 1 hand." in text, text
    assert "How the points were scored" in text, text
    for name in ("alice", "bob", "dave"):
        assert f"• {name}: " in text and "Safe Landing" in text, text
    assert " — -" not in text and "points" in text, text
    assert set(final.mentions) == {u.id for u in players}
    for board in boards(table):
        assert not any(a.filename == "hand.png" for a in board.attachments)
    for message in fake.messages(channel):
        assert not message.ephemeral
