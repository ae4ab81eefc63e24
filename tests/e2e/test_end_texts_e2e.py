"""Issue 28: a Takeoff! game played to the end shows what scored how much for each player."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .botproc import BotProcess
from .driver import Table, boards, description, is_over, play, seed_nearly_over, start_bot
from .fakediscord import FakeDiscord

MAX_STEPS = 1500
B_SCORING: dict[str, Any] = {"scoring": "B"}


async def test_takeoff_ends_with_a_score_breakdown(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Lobby (only its options, '2 players') → start → play to the end → breakdown per player.

    The game that ends is dealt and played up to its last moves beforehand, in the bot's own
    database (the whole game through the fake Discord is test_takeoff_e2e's): the lobby and the
    start are checked on a second table.
    """
    guild = fake.add_guild("End texts")
    channel, lobby_room = fake.add_channel(guild, "takeoff"), fake.add_channel(guild, "lobby")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    database = tmp_path / "hangar.sqlite3"
    await seed_nearly_over(database, guild.id, channel.id, [alice, bob], "takeoff", B_SCORING, 28)
    await start_bot(fake, bots, guild, database)

    mark = fake.mark()
    await (await fake.slash(alice, lobby_room, "game new takeoff", **B_SCORING)).response()
    lobby = await fake.wait_for_message(lobby_room, lambda m: "lobby" in m.content, after=mark)
    assert "(2 players;" in lobby.content and "2–2" not in lobby.content, lobby.content
    await (await fake.slash(bob, lobby_room, "game join")).response()
    mark = fake.mark()
    started = await (await fake.slash(alice, lobby_room, "game start")).response()
    assert not started.failed
    await fake.wait_for_message(lobby_room, lambda m: bool(m.attachments), after=mark)

    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game status")).response()  # the board to play on
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
