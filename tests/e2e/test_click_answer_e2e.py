"""A click on a private panel, through the real bot: answered by the refreshed panel itself
(after the board, in one callback), also when many come at once, and deferred in time when the
board is slow, so that the click never fails."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from .botproc import BotProcess, bot_env
from .driver import (
    Table,
    action_choices,
    active_player,
    board_version,
    boards,
    choices_version,
    open_panel,
    random_policy,
    wait_edited,
)
from .fakediscord import FakeDiscord, InteractionHandle
from .fakediscord.state import Channel, Guild, Message, User

BOARD_CALLS = r"^(POST|PATCH) /api/v10/channels/\d+/messages"
DEFERRED_UPDATE, UPDATE_MESSAGE = 6, 7


async def _bot(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> tuple[Guild, BotProcess]:
    """A guild and a real bot process serving it."""
    guild = fake.add_guild("Hangar answers")
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    return guild, bot


async def _game(fake: FakeDiscord, channel: Channel, alice: User, bob: User) -> Table:
    """A started Takeoff! game between alice and bob in `channel`."""
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    await (await fake.slash(alice, channel, "game new takeoff")).response()
    await (await fake.slash(bob, channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    return table


async def _table(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> tuple[Table, BotProcess]:
    """A started Takeoff! game between alice and bob, run by a real bot process."""
    guild, bot = await _bot(fake, bots, tmp_path)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    return await _game(fake, fake.add_channel(guild, "answers"), alice, bob), bot


class Ready(NamedTuple):
    """A started game, its bot, the player to move and their open panel."""

    table: Table
    bot: BotProcess
    user: User
    panel: Message


async def _ready(fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path) -> Ready:
    """A started game whose player to move has opened their panel."""
    table, bot = await _table(fake, bots, tmp_path)
    user = active_player(table, boards(table)[-1])
    return Ready(table, bot, user, await open_panel(table, user, boards(table)[-1]))


def _assert_current(table: Table, shown: Message) -> None:
    """A panel with moves offers those of the latest board's version."""
    if action_choices(shown):
        assert choices_version(shown) == board_version(boards(table)[-1])


async def _click(table: Table, user: User, panel: Message, seed: int) -> InteractionHandle:
    """Press one of the panel's actions."""
    custom_id, value = random_policy(action_choices(panel), random.Random(seed))
    if value is None:
        return await table.fake.click(user, panel, custom_id)
    return await table.fake.select(user, panel, custom_id, [value])


def _index(log: list[str], pattern: str) -> int:
    """Position of the first call in `log` starting with `pattern` (past the end: none)."""
    return next((i for i, line in enumerate(log) if line.startswith(pattern)), len(log))


async def test_a_calm_click_is_answered_by_its_refreshed_panel_after_the_board(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """One callback carries the new panel (no separate deferral), it comes after the board, and
    the panel it shows offers the moves of the board's new version."""
    table, _, user, panel = await _ready(fake, bots, tmp_path)
    edits, calls = panel.edits, len(fake.http_log)

    handle = await _click(table, user, panel, seed=1)
    reply = await handle.response(settle=0.3)

    assert not reply.failed
    assert reply.callback_type == UPDATE_MESSAGE, "the refreshed panel answers the click"
    shown = fake.message(panel.id)
    assert shown.edits > edits and shown.attachments
    log = fake.http_log[calls:]
    callback = _index(log, f"POST /api/v10/interactions/{handle.id}/")
    assert (
        _index(log, "POST /api/v10/channels/") < callback
        or _index(log, "PATCH /api/v10/channels/") < callback
    ), "the board is updated before the clicker's panel"
    _assert_current(table, shown)
    assert not fake.violations


async def test_a_click_waiting_for_a_slow_board_is_deferred_before_it_can_fail(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Discord takes 3.5 s to accept the board: the click is acknowledged (a deferred update)
    well within its 3 s, then the panel is refreshed once the board is up."""
    table, _, user, panel = await _ready(fake, bots, tmp_path)
    edits, before = panel.edits, len(boards(table))
    fake.world.faults.slow(BOARD_CALLS, 3.5, times=1)

    handle = await _click(table, user, panel, seed=2)
    reply = await handle.response(timeout=15, settle=0)

    assert not reply.failed, "the click failed while the board was slow"
    assert reply.callback_type == DEFERRED_UPDATE
    await wait_edited(fake, panel.id, edits)
    assert len(boards(table)) >= before and boards(table)[-1].attachments
    _assert_current(table, fake.message(panel.id))
    assert not fake.violations


async def test_a_click_waiting_for_its_panel_is_acknowledged_when_the_bot_stops(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """The bot is stopped (a deploy) while a committed move's board is slow to reach Discord:
    the click is acknowledged before the process ends, and the next start delivers the board."""
    table, bot, user, panel = await _ready(fake, bots, tmp_path)
    version = board_version(boards(table)[-1])
    fake.world.faults.slow(BOARD_CALLS, 3.5, times=1)

    handle = await _click(table, user, panel, seed=3)
    await asyncio.sleep(0.3)  # the move is committed; its board is on its slow way
    await bot.stop()

    assert handle.acknowledged and not handle.failed, "the click failed as the bot stopped"
    fake.world.faults.clear()
    await bot.start()
    await fake.wait_ready(60)
    latest = await fake.wait_for_message(
        table.channel, lambda m: bool(m.attachments) and board_version(m) > version, timeout=30
    )
    assert latest.attachments and not fake.violations


async def test_clicks_at_once_in_many_channels_are_each_answered_by_their_panel(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Eight players click at the same moment, each in a game of their own: no click fails, each
    is answered once, and each panel shows its game's new version; a busy bot still answers
    most of them with the panel itself rather than a deferral and a second call."""
    guild, _ = await _bot(fake, bots, tmp_path)
    bob = fake.add_user("bob")
    ready: list[tuple[Table, User, Message]] = []
    for n in range(8):
        alice = fake.add_user(f"alice{n}")
        table = await _game(fake, fake.add_channel(guild, f"rush-{n}"), alice, bob)
        user = active_player(table, boards(table)[-1])
        ready.append((table, user, await open_panel(table, user, boards(table)[-1])))
    edits = [panel.edits for _, _, panel in ready]

    handles = await asyncio.gather(
        *(_click(table, user, panel, seed=n) for n, (table, user, panel) in enumerate(ready))
    )
    replies = await asyncio.gather(*(h.response(timeout=15, settle=0) for h in handles))

    assert not any(reply.failed for reply in replies), "a click failed under load"
    for (table, _, panel), before in zip(ready, edits, strict=True):
        await wait_edited(fake, panel.id, before)
        _assert_current(table, fake.message(panel.id))
    answers = [reply.callback_type for reply in replies]
    assert set(answers) <= {UPDATE_MESSAGE, DEFERRED_UPDATE}
    assert answers.count(UPDATE_MESSAGE) >= len(answers) // 2, answers
    assert not fake.violations


async def test_a_double_click_makes_one_move_and_says_why_the_second_did_nothing(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A player taps the same choice twice at once: the move is made once, one click is answered
    by the refreshed panel, the other is told the prompt is out of date; neither fails."""
    table, _, user, panel = await _ready(fake, bots, tmp_path)
    version = board_version(boards(table)[-1])

    # the same seed picks the same choice: both taps press the same thing
    first, second = await asyncio.gather(
        _click(table, user, panel, seed=4), _click(table, user, panel, seed=4)
    )
    replies = await asyncio.gather(
        first.response(timeout=15, settle=0.3), second.response(timeout=15, settle=0.3)
    )

    assert not any(reply.failed for reply in replies)
    assert any(reply.callback_type == UPDATE_MESSAGE for reply in replies)
    said = [m.content for reply in replies for m in reply.messages if m.ephemeral]
    assert any("out of date" in text for text in said), "the second tap is told why: " + repr(said)
    assert board_version(boards(table)[-1]) == version + 1, "the move was made once"
    _assert_current(table, fake.message(panel.id))
    assert not fake.violations
