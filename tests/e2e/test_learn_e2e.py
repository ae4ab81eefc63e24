"""/game learn through the fake Discord (issue 31): a learner plays a whole practice game of each
game; every decision's panel explains every offered move in players' words; the table leaves no
trace in /game history, /stats or /leaderboard; the learner can leave at any time."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.core.explain import internal_words

from .botproc import BotProcess
from .driver import (
    TO_PLAY,
    Table,
    action_choices,
    boards,
    current_panel,
    description,
    is_over,
    prefer_progress,
    start_bot,
    wait_edited,
)
from .fakediscord import FakeDiscord
from .fakediscord.state import PRIVATE_THREAD, Channel, Message, User

MAX_DECISIONS = 900  # far above a random learner's whole game of any of the three
SETTLE = 120.0  # seconds for the AI seats to hand the turn back


async def setup(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> tuple[Channel, User, User]:
    """A server with a channel, the learner alice, bob, and a running bot."""
    guild = fake.add_guild("Learning")
    channel = fake.add_channel(guild, "lounge")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await start_bot(fake, bots, guild, tmp_path / "hangar.sqlite3")
    return channel, alice, bob


async def open_practice(fake: FakeDiscord, channel: Channel, learner: User, game: str) -> Channel:
    """`/game learn`: the answer names the new thread, whose first board comes at once."""
    reply = await (await fake.slash(learner, channel, "game learn", game=game)).response()
    assert not reply.failed, reply.all_text
    found = re.search(r"<#(\d+)>", reply.all_text)
    assert found, reply.all_text
    assert all(m.ephemeral for m in reply.messages), "the answer is for the learner only"
    thread = fake.world.channels[int(found[1])]
    # Only the learner sees the table: a private thread of the channel, nobody else added to it.
    assert thread.type == PRIVATE_THREAD and thread.parent_id == channel.id
    assert thread.members == {fake.world.bot.id, learner.id}
    assert not thread.invitable, "other players cannot be invited into someone's practice"
    await fake.wait_for_message(thread, lambda m: bool(m.attachments), timeout=30)
    return thread


async def learner_board(table: Table) -> Message:
    """The latest board once it is the learner's turn or the game is over (AIs play between)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE
    while True:
        board = boards(table)[-1]
        found = TO_PLAY.search(description(board))
        if is_over(board) or (found and found["who"] == table.players[0].name):
            return board
        assert loop.time() < deadline, f"the turn never came back: {description(board)!r}"
        await asyncio.sleep(0.05)


def offered_labels(panel: Message) -> list[str]:
    """The label of every move a panel offers (buttons and select options)."""
    labels: list[str] = []
    for comp in panel.iter_components():
        cid = comp.get("custom_id", "")
        if cid.startswith("hg:b:"):
            labels.append(str(comp.get("label", "")))
        elif cid.startswith("hg:s:"):
            labels += [str(opt["label"]) for opt in comp.get("options", [])]
    return labels


def explanations(panel: Message) -> dict[str, str]:
    """The panel's explanation fields: move label → what it does."""
    fields: list[dict[str, Any]] = panel.embeds[0].get("fields", []) if panel.embeds else []
    return {str(f["name"]): str(f["value"]) for f in fields}


async def command_texts(fake: FakeDiscord, user: User, channel: Channel, game: str) -> list[str]:
    """What /game history, /stats and /leaderboard tell `user` now."""
    texts = []
    for command, options in (
        ("game history", {}),
        ("stats", {}),
        ("leaderboard", {"game": game}),
    ):
        reply = await (await fake.slash(user, channel, command, **options)).response()
        assert not reply.failed, command
        texts.append(reply.all_text)
    return texts


async def play_learner_game(table: Table, rng: random.Random) -> list[str]:
    """The learner plays to the end by random clicks; every explanation shown, in order."""
    fake, learner = table.fake, table.players[0]
    shown: list[str] = []
    for _ in range(MAX_DECISIONS):
        board = await learner_board(table)
        if is_over(board):
            return shown
        panel = await current_panel(table, learner, board)
        choices = action_choices(panel)
        assert choices, f"the learner's panel offers nothing: {description(panel)}"
        fields = explanations(panel)
        for label in offered_labels(panel):
            # a button's label is cut at 80 characters, a field's name at 256: match the start
            named = [text for name, text in fields.items() if name.startswith(label[:75])]
            assert named and named[0].strip(), f"no explanation for {label!r}: {list(fields)}"
        shown += fields.values()
        custom_id, value = rng.choice(prefer_progress(choices))
        edits = panel.edits
        if value is None:
            handle = await fake.click(learner, panel, custom_id)
        else:
            handle = await fake.select(learner, panel, custom_id, [value])
        reply = await handle.response(settle=0.0)
        assert not reply.failed, f"the click failed: {custom_id} {value}"
        await wait_edited(fake, panel.id, edits)
    raise AssertionError("the practice game did not end")


@pytest.mark.long
@pytest.mark.parametrize("game", ["takeoff", "flight", "first-in-flight"])
async def test_a_learner_plays_a_whole_explained_practice_game_that_leaves_no_trace(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path, game: str
) -> None:
    """alice learns by playing to the end; each decision's panel explains each offered move,
    in players' words; /game history, /stats and /leaderboard look as if nothing was played."""
    channel, alice, bob = await setup(fake, bots, tmp_path)
    before = await command_texts(fake, alice, channel, game)

    thread = await open_practice(fake, channel, alice, game)
    welcome = fake.messages(thread)[0].content
    assert "Practice table" in welcome and "history" in welcome
    table = Table(fake, thread, [alice], stranger=bob)
    shown = await play_learner_game(table, random.Random(31))

    assert is_over(boards(table)[-1])
    assert len(shown) > 20, "a whole game explains more than a handful of moves"
    leaks = {text: internal_words(text) for text in shown if internal_words(text)}
    assert not leaks, f"engine words in explanations: {leaks}"
    assert await command_texts(fake, alice, channel, game) == before


async def test_the_learner_can_leave_the_practice_table_at_once(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Leave practice ends the table for the learner only; nobody else may close it."""
    channel, alice, bob = await setup(fake, bots, tmp_path)
    thread = await open_practice(fake, channel, alice, "flight")
    board = boards(Table(fake, thread, [alice], stranger=bob))[-1]
    leave = next(c for c in board.custom_ids if c.endswith(":leave"))

    refused = await (await fake.click(bob, board, leave)).response()
    assert "Only the learner" in refused.all_text
    assert all(m.ephemeral for m in refused.messages)

    mark = fake.mark()
    left = await (await fake.click(alice, board, leave)).response()
    assert "You left the practice table" in left.all_text
    await fake.wait_for_message(
        thread, lambda m: "left the practice table" in m.content, after=mark
    )
    status = await (await fake.slash(alice, thread, "game status")).response()
    assert "No game" in status.all_text or "no game" in status.all_text, status.all_text
