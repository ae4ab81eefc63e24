"""A whole 2-player Takeoff! game through the fake Discord, with a bot restart in the middle."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bot.edge.commands.play import NO_MOVES

from .botproc import BotProcess, bot_env
from .driver import PNG_MAGIC, Table, active_player, boards, description, embed_text, is_over, play
from .fakediscord import FakeDiscord

STEPS_BEFORE_RESTART = 25
MAX_STEPS = 3000


async def _lobby(fake: FakeDiscord, table: Table) -> None:
    """Alice opens a lobby, Bob joins with the button, Carol may not start it, Alice starts."""
    alice, bob, carol = table.players[0], table.players[1], table.stranger
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game new takeoff", scoring="A")).response()
    lobby = await fake.wait_for_message(table.channel, lambda m: "lobby" in m.content, after=mark)
    # Issue 15: the lobby shows human option labels ("Scoring A"), not raw keys ("scoring=A").
    assert "Takeoff!" in lobby.content and "Scoring A" in lobby.content
    ids = [c["custom_id"] for c in lobby.iter_components()]
    join = next(c for c in ids if c.endswith(":join"))
    await (await fake.click(bob, lobby, join)).response()
    refused = await (await fake.slash(carol, table.channel, "game start")).response()
    assert refused.ephemeral and "opened the lobby or an admin" in refused.all_text
    mark = fake.mark()
    start = next(c for c in ids if c.endswith(":start"))
    await (await fake.click(alice, lobby, start)).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)


def _check_first_board(table: Table) -> None:
    """The first board is an embedded PNG, pings exactly the player to act and only them."""
    (board,) = boards(table)
    assert board.attachments[0].data.startswith(PNG_MAGIC)
    assert board.embeds[0]["image"]["url"] == "attachment://board.png"
    first = active_player(table, board)
    assert board.mentions == [first.id]
    assert f"<@{first.id}>" in board.content


async def _refusals(fake: FakeDiscord, table: Table) -> None:
    """A stranger and the waiting player are refused with reasons, and nothing changes."""
    board = boards(table)[-1]
    first = active_player(table, board)
    waiting = next(u for u in table.players if u is not first)
    carol = table.stranger
    hand = next(
        c["custom_id"] for c in board.iter_components() if c["custom_id"].startswith("hg:h")
    )
    stranger = await (await fake.click(carol, board, hand)).response()
    assert "not in this game" in stranger.all_text
    options = await fake.autocomplete(first, table.channel, "play", option="action", value="")
    assert options, "the active player gets their moves in /play autocomplete"
    idle = await fake.autocomplete(waiting, table.channel, "play", option="action", value="")
    assert idle == [  # issue 28: one line says whose turn it is (its value is never a move)
        {"name": f"It is {first.name}'s turn — you can't move now", "value": NO_MOVES}
    ]
    wrong = await (
        await fake.slash(waiting, table.channel, "play", action=options[0]["value"])
    ).response()
    assert wrong.ephemeral and "not your turn" in wrong.all_text.lower()
    assert f"<@{first.id}>" in wrong.all_text
    waiting_panel = await (await fake.click(waiting, board, hand)).response()
    assert "Waiting for" in waiting_panel.all_text
    assert len(boards(table)) == 1, "refusals post nothing publicly"


async def _play_with_slash(fake: FakeDiscord, table: Table) -> str:
    """One move through /play autocomplete; a replay of the same choice is out of date."""
    first = active_player(table, boards(table)[-1])
    options = await fake.autocomplete(first, table.channel, "play", option="action", value="")
    forward = [o for o in options if "cancel" not in o["value"]]
    value = forward[0]["value"]
    done = await (await fake.slash(first, table.channel, "play", action=value)).response()
    assert done.ephemeral and "✅" in done.all_text
    again = await (await fake.slash(first, table.channel, "play", action=value)).response()
    assert "out of date" in again.all_text
    return value


def _check_no_hidden_cards_in_public(fake: FakeDiscord, table: Table) -> None:
    """Private images never appear in channel messages; ephemeral panels only to their owner."""
    for message in fake.messages(table.channel):
        assert not any(a.filename == "hand.png" for a in message.attachments)
    for user in table.players:
        for message in fake.visible_messages(user, table.channel):
            if message.ephemeral:
                assert message.visible_to == user.id


async def test_takeoff_game_end_to_end(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Lobby → start → refusals → /play → buttons → restart → buttons → final board."""
    guild = fake.add_guild("Hangar test")
    channel = fake.add_channel(guild, "takeoff")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)

    await _lobby(fake, table)
    _check_first_board(table)
    await _refusals(fake, table)
    await _play_with_slash(fake, table)

    rng = random.Random(2026)
    assert not await play(table, rng, max_steps=STEPS_BEFORE_RESTART)
    before = boards(table)[-1]
    await bot.restart()
    await fake.wait_ready(60)
    # The panel opened before the restart still works: its components are restart-proof.
    assert await play(table, rng, max_steps=MAX_STEPS), "the game did not finish"
    assert boards(table)[-1].id > before.id, "boards are posted after the restart"

    final = boards(table)[-1]
    assert is_over(final)
    assert set(final.mentions) == {alice.id, bob.id}, "the final board pings both players"
    assert not final.components or all(not row.get("components") for row in final.components), (
        "a finished game offers no buttons"
    )
    assert "wins" in description(final) or "Shared victory" in description(final)
    for message in fake.messages(table.channel):  # past boards too, shrunk to a line (28.7)
        if message is not final:
            assert len(message.mentions) <= 1, "a turn message pings only the player to act"
    _check_no_hidden_cards_in_public(fake, table)
    assert "Game over" in embed_text(final)
    # Issue 28: the final standings say what scored how much for each player.
    text = description(final)
    assert "How the points were scored" in text, text
    for name in ("alice", "bob"):
        assert f"• {name}: Business " in text and "; Economy " in text, text
    assert " points" in text, text
