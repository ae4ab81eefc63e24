"""First in Flight through the fake Discord: solo against Gustave; two players through Year 1."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from .botproc import BotProcess, bot_env
from .driver import (
    PNG_MAGIC,
    Table,
    active_player,
    boards,
    description,
    is_over,
    play,
)
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, User

MAX_STEPS = 600
YEAR_ONE_ENDED = re.compile(r"Year 1 ended")


async def _open_and_start(
    fake: FakeDiscord, channel: Channel, players: list[User], **options: object
) -> None:
    """The first player opens a game; the others join and the creator starts, with buttons."""
    creator = players[0]
    mark = fake.mark()
    await (await fake.slash(creator, channel, "game new first-in-flight", **options)).response()
    lobby = await fake.wait_for_message(channel, lambda m: "lobby" in m.content, after=mark)
    ids = [c["custom_id"] for c in lobby.iter_components()]
    for user in players[1:]:
        await (
            await fake.click(user, lobby, next(i for i in ids if i.endswith(":join")))
        ).response()
    mark = fake.mark()
    start = next(i for i in ids if i.endswith(":start"))
    await (await fake.click(creator, lobby, start)).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)


async def test_solo_game_against_gustave_with_buttons_only(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A whole solo game is played by clicking; it ends with standings and the stand-in note."""
    guild = fake.add_guild("Solo")
    channel = fake.add_channel(guild, "fif-solo")
    pilot = fake.add_user("wilbur")
    table = Table(fake, channel, [pilot], stranger=fake.add_user("kibitzer"), use_board=True)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)

    await _open_and_start(fake, channel, [pilot])
    (first,) = boards(table)
    assert await play(table, random.Random(5), max_steps=MAX_STEPS), "the solo game did not end"
    final = boards(table)[-1]
    assert is_over(final)
    text = description(final)
    assert "Gustave" in text or "wilbur" in text
    assert "stand-in" in text, "the end-of-game summary says the card data is a stand-in"
    assert final.attachments[0].data.startswith(PNG_MAGIC)
    assert final.mentions == [pilot.id]
    # Every board since the first: past ones now read as one line each (issue 28.7).
    played = [m for m in fake.messages(channel) if m.id >= first.id]
    assert any(b.edits >= 2 for b in played), "a turn's live message is edited step by step"
    assert len(played) < table.steps, "steps of one turn do not each post a new message"
    assert all(b.mentions in ([], [pilot.id]) for b in played), "only the pilot is ever pinged"


async def _play_by_slash(table: Table, rng: random.Random) -> str:
    """One move by whoever must act, picked from /play autocomplete; returns the action key.

    The players like flying (a Fly space, then drawing), so a Flight surely happens in Year 1.
    """
    user = active_player(table, boards(table)[-1])
    options = await table.fake.autocomplete(user, table.channel, "play", option="action", value="")
    assert options, f"{user.name} must act but /play offers nothing"
    keyed = {o["value"].split(":", 1)[1]: o for o in options}  # values are v{ver}:{key}
    forward = [k for k in keyed if k not in ("cancel", "back")] or list(keyed)
    flying = [k for k in forward if k == "draw" or keyed[k]["name"].endswith(" Fly")]
    key = rng.choice(flying or forward)
    value = keyed[key]["value"]
    reply = await (await table.fake.slash(user, table.channel, "play", action=value)).response()
    assert "✅" in reply.all_text, reply.all_text
    return key


async def test_two_players_through_year_one_with_play_and_a_restart_mid_flight(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Two players (with Gustave) play Year 1 through /play; the bot restarts during a Flight."""
    guild = fake.add_guild("Pair")
    channel = fake.add_channel(guild, "fif-pair")
    players = [fake.add_user("orville"), fake.add_user("bessie")]
    table = Table(fake, channel, players, stranger=fake.add_user("kibitzer"))
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await _open_and_start(fake, channel, players, gustave="advanced")

    rng = random.Random(11)
    restarted = False
    for _ in range(MAX_STEPS):
        board = boards(table)[-1]
        if YEAR_ONE_ENDED.search(description(board)) or is_over(board):
            break
        key = await _play_by_slash(table, rng)
        if not restarted and key.startswith("draw"):
            await bot.restart()
            await fake.wait_ready(60)
            restarted = True
    assert restarted, "a Flight was flown (and the bot restarted during it)"
    assert YEAR_ONE_ENDED.search(description(boards(table)[-1])), "Year 1 was completed"
    assert "Gustave" in "\n".join(description(b) for b in boards(table))
