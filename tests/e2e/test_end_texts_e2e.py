"""Issue 28: a Takeoff! game played to the end shows what scored how much for each player."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from .botproc import BotProcess, bot_env
from .driver import Table, boards, description, is_over, play
from .fakediscord import FakeDiscord

MAX_STEPS = 1500


async def test_takeoff_ends_with_a_score_breakdown(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Lobby (only its options, '2 players') → start → play to the end → breakdown per player."""
    guild = fake.add_guild("End texts")
    channel = fake.add_channel(guild, "takeoff")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)

    mark = fake.mark()
    await (await fake.slash(alice, channel, "game new takeoff", scoring="B")).response()
    lobby = await fake.wait_for_message(channel, lambda m: "lobby" in m.content, after=mark)
    assert "(2 players;" in lobby.content and "2–2" not in lobby.content, lobby.content
    await (await fake.slash(bob, channel, "game join")).response()
    mark = fake.mark()
    started = await (await fake.slash(alice, channel, "game start")).response()
    assert not started.failed
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)

    assert await play(table, random.Random(28), max_steps=MAX_STEPS), "the game did not finish"
    final = boards(table)[-1]
    assert is_over(final)
    text = description(final)
    assert "🏁 **Game over.** " in text, text
    assert "How the points were scored" in text, text
    for name in ("alice", "bob"):
        assert f"• {name}: Business " in text and "; Economy " in text, text
        assert f"{name} — " in text
    assert " — -" not in text and " points" in text, text
