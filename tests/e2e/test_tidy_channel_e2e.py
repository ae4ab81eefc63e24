"""A finished Takeoff! game leaves a readable channel, and each ping says things once (issue 28.7).

Two people play a whole game through the real bot and the fake Discord. Each new board turns
the one before it into a one-line summary of that turn (no picture, no buttons), so scrolling
back reads the story; only the final board (and the end-of-game chart) keep a picture. A turn
ping mentions one player once and leaves the recent moves to the board's embed.
"""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from bot.edge.announce import CRASH_AFTER_COMMIT, CRASH_EXIT_CODE

from .botproc import BotProcess
from .driver import Table, active_player, boards, is_over, open_table, start_bot, step
from .fakediscord import FakeDiscord
from .fakediscord.state import Message

MAX_STEPS = 3000
# A summary line stays short enough to read at a glance on a phone.
SUMMARY_LIMIT = 200


@dataclass(frozen=True)
class Channel:
    """What a game left in its channel: messages, those with pictures, and the pictures' area
    and height (the height a reader scrolls past, at full size)."""

    messages: int
    with_pictures: int
    pixels: int
    height: int


def sizes(message: Message) -> list[tuple[int, int]]:
    """Width and height of each of the message's pictures."""
    found = []
    for attachment in message.attachments:
        with Image.open(io.BytesIO(attachment.data)) as image:
            found.append(image.size)
    return found


def measure(messages: list[Message]) -> Channel:
    """The channel's weight as a reader scrolls it."""
    pictures = [size for m in messages for size in sizes(m)]
    with_pictures = sum(1 for m in messages if m.attachments)
    area = sum(w * h for w, h in pictures)
    return Channel(len(messages), with_pictures, area, sum(h for _, h in pictures))


def says_twice(board: Message) -> bool:
    """True when a turn ping lists moves above the embed that already tells them: the moves
    since a player's turn are told once, in the board's embed, and the mention line is alone."""
    assert len(board.mentions) == 1 and board.content.count("<@") == 1, board.content
    return "\n" in board.content.strip() or "•" in board.content


async def tidied(fake: FakeDiscord, ids: list[int], timeout: float = 20) -> None:
    """Wait until every earlier board has dropped its picture (the last tidy follows the end)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while any(fake.message(i).attachments for i in ids) and loop.time() < deadline:
        await asyncio.sleep(0.1)


async def takeoff_for_two(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> tuple[BotProcess, Table]:
    """The bot, and alice and bob at a Takeoff! game whose first board is up."""
    guild = fake.add_guild("Tidy")
    channel = fake.add_channel(guild, "takeoff")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot = await start_bot(fake, bots, guild, tmp_path / "hangar.sqlite3")
    return bot, await open_table(fake, channel, [alice, bob], "takeoff")


async def next_board(table: Table, after: Message) -> Message:
    """The board posted after `after` (the next turn's)."""
    channel = table.channel
    return await table.fake.wait_for_message(
        channel, lambda m: bool(m.attachments) and m.id > after.id, timeout=30
    )


@pytest.mark.long
async def test_a_finished_takeoff_game_leaves_a_readable_channel(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """One full 2-player game: pictures and pings before → after the tidy."""
    _, table = await takeoff_for_two(fake, bots, tmp_path)
    channel = table.channel

    rng = random.Random(2807)
    seen: dict[int, str] = {}  # board message id → the player it asked to play
    twice: list[str] = []
    for _ in range(MAX_STEPS):
        board = boards(table)[-1]
        if board.id not in seen and not is_over(board):
            twice += [board.content] if says_twice(board) else []
            seen[board.id] = active_player(table, board).name
        if not await step(table, rng):
            break
    final = boards(table)[-1]
    assert is_over(final), "the game did not finish"
    earlier = sorted(seen)
    await tidied(fake, earlier)

    after_start = [m for m in fake.messages(channel) if m.id >= earlier[0]]
    print(f"\nTIDY-MEASURE turns={len(earlier)} {measure(after_start)}")
    for message_id in earlier[1:4]:  # what a reader scrolling back sees
        print("TIDY-SAMPLE", repr(fake.message(message_id).content))
    assert len(earlier) > 20, "a whole game has many turns"
    assert not twice, f"{len(twice)} pings repeat the board's log, e.g. {twice[:2]}"
    # Only the final board keeps its picture (with the end-of-game chart under it).
    pictured = [m for m in after_start if m.attachments]
    assert final in pictured and len(pictured) <= 2, [m.id for m in pictured]
    assert all(a.filename != "board.png" for m in pictured if m is not final for a in m.attachments)
    # Every earlier board now reads as one line telling that turn in players' words.
    for message_id, player in seen.items():
        old = fake.message(message_id)
        text = old.content
        assert not old.attachments and not old.embeds, text
        assert not old.iter_components(), "a past turn offers no buttons"
        assert text and "\n" not in text and len(text) <= SUMMARY_LIMIT, text
        assert "<@" not in text, "a summary mentions nobody"
        assert text.startswith(f"{player} "), f"{player}'s turn reads {text!r}"


async def test_a_restart_between_posting_and_tidying_still_tidies(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """The bot dies right after posting the next board: the board before it still has its
    picture; after the restart it reads as the turn it showed, and nothing is posted twice."""
    bot, table = await takeoff_for_two(fake, bots, tmp_path)
    channel = table.channel
    first_board = boards(table)[-1]
    first = active_player(table, first_board)
    await bot.stop()

    bot.env[CRASH_AFTER_COMMIT] = "post"  # test-only hook: exit once the next board is posted
    await bot.start()
    await fake.wait_ready(60)
    await fake.slash(first, channel, "play", action="v1:end")
    assert bot.proc is not None and await asyncio.wait_for(bot.proc.wait(), 30) == CRASH_EXIT_CODE
    second_board = await next_board(table, first_board)
    assert fake.message(first_board.id).attachments, "the bot died before tidying"

    del bot.env[CRASH_AFTER_COMMIT]
    await bot.restart()
    await fake.wait_ready(60)
    await tidied(fake, [first_board.id], timeout=30)
    old = fake.message(first_board.id)
    assert not old.attachments and not old.embeds and not old.iter_components()
    assert old.content.startswith(f"{first.name} ended their turn"), old.content
    assert [b.id for b in boards(table)] == [second_board.id], "the next board is posted once"


async def test_a_deleted_or_locked_board_costs_no_move(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Someone deleted the previous board, then Discord refuses to edit the next: every move
    still counts and every turn's board comes; the board that could not be edited stays."""
    bot, table = await takeoff_for_two(fake, bots, tmp_path)
    channel = table.channel
    board = boards(table)[-1]
    fake.world.delete_message(board)  # a moderator tidied by hand

    version = 1
    for refused in (False, True, False):
        player = active_player(table, board)
        route = rf"^PATCH /api/v10/channels/{channel.id}/messages/{board.id}$"
        if refused:  # the board about to be tidied cannot be edited any more
            fake.world.faults.fail(route, 403)
        move = await fake.slash(player, channel, "play", action=f"v{version}:end")
        reply = await move.response()
        assert "✅" in reply.all_text, reply.all_text
        after = await next_board(table, board)
        assert active_player(table, after) is not player
        if not fake.message(board.id).deleted:
            await tidied(fake, [board.id], timeout=3)
            kept = bool(fake.message(board.id).attachments)
            assert kept == refused, "only the board Discord refused to edit keeps its picture"
        fake.world.faults.clear()
        board, version = after, version + 1
    assert not bot.log_errors(), bot.log_errors()
