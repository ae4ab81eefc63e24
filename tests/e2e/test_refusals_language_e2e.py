"""Refusals in each player's own Discord language (issue 30), through the fake Discord: a German
and an English player at one table are each refused in their language, names left as they are."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from rules.core import messages

from .botproc import BotProcess, bot_env
from .driver import Table, action_choices, active_player, boards, step
from .fakediscord import FakeDiscord
from .fakediscord.state import User

GERMAN_NOT_A_MOVE = (
    "Dieser Zug ist gerade nicht möglich. Wähle eine der angebotenen Aktionen "
    "(Meine Hand & Züge oder /play)."
)
MAX_STEPS = 60


async def test_each_player_is_refused_in_their_own_language(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Lobby buttons, an illegal /play and a click out of turn: German for "de", English for
    "en-US", in the same game."""
    guild = fake.add_guild("Sprachen")
    channel = fake.add_channel(guild, "fif")
    hanna, emma = fake.add_user("hanna"), fake.add_user("emma")
    fake.set_locale(hanna, "de")
    fake.set_locale(emma, "en-US")
    table = Table(fake, channel, [hanna, emma], stranger=fake.add_user("kibitz"), use_board=True)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)

    async def refused(user: User, command: str, **options: object) -> str:
        reply = await (await fake.slash(user, channel, command, **options)).response()
        assert not reply.failed and reply.ephemeral, command
        return reply.all_text

    # Before any game: the same refusal in each reader's language.
    assert await refused(hanna, "play", action="zzz") == (
        "In diesem Kanal gibt es kein Spiel — starte eines mit /game new."
    )
    assert await refused(emma, "play", action="zzz") == messages.NO_GAME_HERE

    mark = fake.mark()
    await (await fake.slash(hanna, channel, "game new first-in-flight")).response()
    lobby = await fake.wait_for_message(channel, lambda m: "lobby" in m.content, after=mark)
    ids = [c["custom_id"] for c in lobby.iter_components()]
    join = next(i for i in ids if i.endswith(":join"))
    await (await fake.click(emma, lobby, join)).response()
    # The lobby's Join button, pressed a second time.
    twice = [(await (await fake.click(u, lobby, join)).response()) for u in (hanna, emma)]
    private = [[m.content for m in reply.messages if m.ephemeral] for reply in twice]
    assert private == [
        ["Du bist diesem Spiel schon beigetreten."],
        ["You have already joined this game."],
    ]
    mark = fake.mark()
    await (await fake.click(hanna, lobby, next(i for i in ids if i.endswith(":start")))).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    NOT_A_MOVE = {hanna.id: GERMAN_NOT_A_MOVE, emma.id: messages.NOT_A_MOVE}
    NOT_YOUR_TURN = {
        hanna.id: "Du bist nicht dran — {who} ist am Zug.",
        emma.id: "Not your turn — it is {who}'s turn.",
    }

    # Each player in turn is the one to move and the one who waits: an illegal /play (refused by
    # the game's rules) and a click out of turn, each in the reader's language; the player to
    # move is a mention, never translated.
    rng, moved, waited = random.Random(3), set(), set()
    for _ in range(MAX_STEPS):
        board = boards(table)[-1]
        first = active_player(table, board)
        waiting = emma if first is hanna else hanna
        turn = NOT_YOUR_TURN[waiting.id].format(who=f"<@{first.id}>")
        if first.id not in moved:
            moved.add(first.id)
            assert await refused(first, "play", action="zzz") == NOT_A_MOVE[first.id]
            assert await refused(waiting, "play", action="zzz") == turn
        choices = action_choices(board)
        if waiting.id not in waited and choices:
            waited.add(waiting.id)
            custom_id, value = choices[0]
            if value is None:
                handle = await fake.click(waiting, board, custom_id)
            else:
                handle = await fake.select(waiting, board, custom_id, [value])
            out_of_turn = await handle.response()
            assert [m.content for m in out_of_turn.messages if m.ephemeral] == [turn]
        if len(moved) == len(waited) == 2:
            break
        assert await step(table, rng), "the game ended before both players had moved"
    assert len(moved) == len(waited) == 2, "the turn never passed to the second player"
