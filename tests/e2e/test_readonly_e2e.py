"""The database's disk stops taking writes while the bot runs (issue 26): every interaction is
still answered within 3 s and says what happened, the log says why in one line, and the next move
after the disk is writable again goes through without a restart.

How the files are made read-only for real: `chmod` does not do it. SQLite keeps its descriptors
open, the OS checks permissions only when a file is opened, and root ignores them anyway. As
root, `chattr +i` marks the database, its -wal and -shm files and their folder immutable: the
kernel then refuses every write to them, root's and already-open descriptors' included, as a
disk remounted read-only does. SQLite maps the -shm file into memory, and before the fix the
next write into that mapping was answered with SIGBUS: the bot died without a word. As another
user, the files and folder lose their write permission instead (the bot checks exactly that
before it lets SQLite near them); where neither is possible the test is skipped.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.edge.announce import CRASH_AFTER_COMMIT
from bot.edge.commands.play import NO_MOVES, NOT_A_MOVE, UNREADABLE_CHOICE
from bot.edge.errors import MOVE_NOT_SAVED

from .botproc import BotProcess, bot_env
from .driver import Table, active_player
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, User
from .test_reliability_e2e import (
    db_moves,
    db_version,
    pinged_boards,
    start_takeoff,
    wait_turn_board,
    world,
)

ANSWER_WITHIN = 3.0  # Discord's deadline for the first answer; the words must come by then too


def _files(folder: Path) -> list[Path]:
    """The database, its -wal and -shm files, and the folder holding them."""
    return [*sorted(folder.glob("hangar.sqlite3*")), folder]


def _set_read_only(folder: Path, read_only: bool) -> None:
    """Make the database's files refuse writes (or take them again), as the OS sees it."""
    for path in _files(folder):
        if os.geteuid() == 0:
            flag = "+i" if read_only else "-i"
            subprocess.run(["chattr", flag, str(path)], check=True, capture_output=True)
        else:
            writable = 0o755 if path.is_dir() else 0o644
            path.chmod(writable & 0o555 if read_only else writable)


def copy_of(database: Path, into: Path) -> Path:
    """The database as it is now, copied file by file: reading it through SQLite in place would
    set a read mark in the -shm file and hide what the bot's own next read does."""
    into.mkdir()
    for path in (database, Path(f"{database}-wal")):
        if path.exists():
            shutil.copy(path, into / path.name)
    return into / database.name


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """The database's files refuse writes inside the block (always undone: pytest cleans up)."""
    try:
        _set_read_only(folder, True)
    except (OSError, subprocess.CalledProcessError) as exc:
        _set_read_only(folder, False)
        pytest.skip(f"cannot make files read-only here ({exc}); needs chattr as root or non-root")
    try:
        yield
    finally:
        _set_read_only(folder, False)


async def timed_play(fake: FakeDiscord, user: User, channel: Channel, action: str) -> str:
    """`/play action:…`; its answer's text, checked to arrive within 3 s."""
    loop = asyncio.get_running_loop()
    sent = loop.time()
    reply = await (await fake.slash(user, channel, "play", action=action)).response(settle=0)
    assert not reply.failed and loop.time() - sent < ANSWER_WITHIN
    return reply.all_text


async def test_a_read_only_database_is_explained_and_recovered_from(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Read-only mid-game: click, /play and its autocomplete are answered in words within 3 s,
    nothing changes, one ERROR line names the file; writable again, the same move goes through."""
    guild, channel, alice, bob, _carol, admin = world(fake)
    folder = tmp_path / "data"
    database = folder / "hangar.sqlite3"
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    table = Table(fake, channel, [alice, bob], stranger=admin)
    board = await wait_turn_board(fake, channel, 1)
    first = active_player(table, board)
    before = copy_of(database, tmp_path / "before")
    moves_before = db_moves(before)
    assert db_version(before) == 1
    loop = asyncio.get_running_loop()

    with read_only(folder):
        typed = loop.time()
        offered = await fake.autocomplete(first, channel, "play", option="action")
        assert loop.time() - typed < ANSWER_WITHIN
        assert offered == [{"name": UNREADABLE_CHOICE, "value": NO_MOVES}]

        end = next(cid for cid in board.custom_ids if cid.endswith(":end"))
        clicked = loop.time()
        reply = await (await fake.click(first, board, end)).response(settle=0)
        assert not reply.failed and loop.time() - clicked < ANSWER_WITHIN
        assert [(m.content, m.ephemeral) for m in reply.followups] == [(MOVE_NOT_SAVED, True)]
        assert await timed_play(fake, first, channel, "v1:end") == MOVE_NOT_SAVED
        assert await timed_play(fake, first, channel, NO_MOVES) == NOT_A_MOVE
        assert bot.running, "the bot must survive a read-only disk"

    errors = bot.log_errors()
    assert len(errors) == 1, errors  # one line for the episode, no traceback per interaction
    assert "database cannot be written" in errors[0] and str(database) in errors[0]

    assert "✅" in await timed_play(fake, first, channel, "v1:end")
    turn = await wait_turn_board(fake, channel, 2)
    assert turn.mentions and turn.mentions[0] != first.id
    assert db_version(database) == 2
    assert db_moves(database) == moves_before | {max(db_moves(database))}
    assert len(db_moves(database)) == len(moves_before) + 1, "one move: the refused ones left none"
    assert "database can be written again" in bot.log_path.read_text()
    verify = await (await fake.slash(admin, channel, "admin verify")).response()
    assert "✅" in verify.all_text


async def wait_log(bot: BotProcess, text: str, timeout: float = 30.0) -> None:
    """Wait until the bot's log has a line containing `text`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in bot.log_path.read_text(errors="replace"):
        assert loop.time() < deadline, f"{text!r} not logged; log:\n{bot.tail()}"
        await asyncio.sleep(0.05)


async def test_a_board_owed_at_start_up_waits_out_a_read_only_disk(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """The disk turns read-only as a restarted bot logs in owing a board: no traceback, and the
    board reaches the next player once the disk takes writes again."""
    guild, channel, alice, bob, _carol, admin = world(fake)
    folder = tmp_path / "data"
    database = folder / "hangar.sqlite3"
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    table = Table(fake, channel, [alice, bob], stranger=admin)
    first = active_player(table, await wait_turn_board(fake, channel, 1))
    second = bob if first is alice else alice
    await bot.stop()

    bot.env[CRASH_AFTER_COMMIT] = "1"  # test-only hook: exit after the next move's commit
    await bot.start()
    await fake.wait_ready(60)
    await fake.slash(first, channel, "play", action="v1:end")
    assert bot.proc is not None and await asyncio.wait_for(bot.proc.wait(), 30) == 70
    assert 2 not in pinged_boards(fake, channel), "the board is owed, not posted"

    del bot.env[CRASH_AFTER_COMMIT]
    await bot.start()
    await fake.wait_ready(60)  # the gateway is up; discord.py reports ready ~2 s later
    with read_only(folder):
        await wait_log(bot, "Start-up catch-up postponed")
        assert 2 not in pinged_boards(fake, channel)
    await wait_log(bot, "Start-up catch-up done")
    board = await wait_turn_board(fake, channel, 2)
    assert board.mentions == [second.id]
    assert len(pinged_boards(fake, channel)[2]) == 1
    assert bot.running
    errors = bot.log_errors()
    assert len(errors) == 1 and "database cannot be written" in errors[0], errors
