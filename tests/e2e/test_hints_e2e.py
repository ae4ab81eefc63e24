"""Hints and "Last move?" through the fake Discord (issue 31): a hint is private and refused, with
the reason and a way on, where the table has hints off (the default); "Last move?" on the board
tells anyone privately what the last turn did."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from .botproc import BotProcess
from .driver import Table, boards, description, step
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, Message, User
from .test_learn_e2e import learner_board, open_practice, setup


def coach_id(board: Message, op: str) -> str | None:
    """The custom_id of the board's coach button `op` (hint, last, leave), if it has one."""
    return next((c for c in board.custom_ids if c.startswith("hg:c:") and c.endswith(op)), None)


async def open_table(
    fake: FakeDiscord, channel: Channel, alice: User, bob: User, **options: object
) -> str:
    """alice opens a Takeoff! table (with `options`), bob joins, alice starts; the lobby text."""
    opened = await (await fake.slash(alice, channel, "game new takeoff", **options)).response()
    assert not opened.failed, opened.all_text
    lobby = next(m for m in reversed(fake.messages(channel)) if "lobby" in m.content)
    await (await fake.slash(bob, channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    return lobby.content


async def test_a_hint_at_a_practice_table_is_private_and_only_for_the_player_to_move(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """alice's Hint names a move with its worth in points, for her eyes only; bob, who has no
    seat, is told why he gets none."""
    channel, alice, bob = await setup(fake, bots, tmp_path)
    thread = await open_practice(fake, channel, alice, "takeoff")
    board = await learner_board(Table(fake, thread, [alice], stranger=bob))
    hint = coach_id(board, "hint")
    assert hint is not None, "a practice board offers the Hint button"

    reply = await (await fake.click(alice, board, hint)).response()
    assert not reply.failed
    assert reply.messages and all(m.ephemeral and m.visible_to == alice.id for m in reply.messages)
    assert reply.all_text.startswith("💡") and "Expected" in reply.all_text, reply.all_text
    assert "point" in reply.all_text and "(Rules: " in reply.all_text

    refused = await (await fake.click(bob, board, hint)).response()
    assert all(m.ephemeral for m in refused.messages)
    assert "no seat here" in refused.all_text, refused.all_text


async def test_hints_are_off_by_default_and_a_hint_is_refused_with_the_way_on(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A normal table says "hints: off" in its lobby, has no Hint button, and /game hint
    explains privately why not and what to do instead."""
    channel, alice, bob = await setup(fake, bots, tmp_path)
    lobby = await open_table(fake, channel, alice, bob)
    assert "hints: off" in lobby
    board = boards(Table(fake, channel, [alice, bob], stranger=bob))[-1]
    assert coach_id(board, "hint") is None

    reply = await (await fake.slash(alice, channel, "game hint")).response()
    assert all(m.ephemeral for m in reply.messages)
    assert "Hints are off at this table" in reply.all_text, reply.all_text
    assert "`hints` option" in reply.all_text and "/game learn" in reply.all_text


async def test_a_table_opened_with_hints_shows_the_button_to_everyone(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """`hints: True`: the lobby says so, the board carries Hint; the player to move gets one,
    the other is told to wait for their turn."""
    channel, alice, bob = await setup(fake, bots, tmp_path)
    lobby = await open_table(fake, channel, alice, bob, hints=True)
    assert "hints: on" in lobby
    board = boards(Table(fake, channel, [alice, bob], stranger=bob))[-1]
    hint = coach_id(board, "hint")
    assert hint is not None
    to_move = alice if "**alice** to play" in description(board) else bob
    waiting = bob if to_move is alice else alice

    reply = await (await fake.click(to_move, board, hint)).response()
    assert all(m.ephemeral and m.visible_to == to_move.id for m in reply.messages)
    assert reply.all_text.startswith("💡"), reply.all_text
    early = await (await fake.click(waiting, board, hint)).response()
    assert "not your turn" in early.all_text, early.all_text


async def test_anyone_can_ask_privately_what_the_last_move_did(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """After some moves a spectator presses "Last move?": who moved, the log lines, and each
    score that moved with the rule that scored it (or that none moved)."""
    channel, alice, bob = await setup(fake, bots, tmp_path)
    carol = fake.add_user("carol")
    await open_table(fake, channel, alice, bob)
    table = Table(fake, channel, [alice, bob], stranger=carol)
    rng = random.Random(4)
    for _ in range(12):
        await step(table, rng)
    board = boards(table)[-1]
    last = coach_id(board, "last")
    assert last is not None

    reply = await (await fake.click(carol, board, last)).response()
    assert all(m.ephemeral and m.visible_to == carol.id for m in reply.messages)
    text = reply.all_text
    assert text.startswith("❔ **The last move**"), text
    assert "alice" in text or "bob" in text
    assert "**Scores:**" in text or "No score changed" in text, text
    if "**Scores:**" in text:
        assert "(Rules: scoring.)" in text and "{seat" not in text
