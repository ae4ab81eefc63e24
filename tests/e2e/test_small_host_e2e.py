"""A small host: the bot sizes its drawing to the CPUs it may use (issue 29).

On a 1-CPU machine (here: the bot started with the affinity `taskset -c 0` gives) the bot
draws in its own process — no worker process, no multiprocessing helper — and every move still
shows its pictures, exactly as drawn. On two CPUs it starts one lean worker and still no helper.
"""

from __future__ import annotations

import io
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PIL import Image

from .botproc import BotProcess, bot_env
from .driver import PNG_MAGIC, Table, boards, play
from .fakediscord import FakeDiscord
from .fakediscord.state import Guild

MOVES = 12


@contextmanager
def pinned(cpus: set[int]) -> Iterator[None]:
    """Processes started meanwhile inherit this affinity (as under `taskset`)."""
    saved = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, saved)


def processes_below(root: int) -> list[bytes]:
    """The command lines of every process below `root`."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found: list[bytes] = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        try:
            found.append(Path(f"/proc/{pid}/cmdline").read_bytes())
        except OSError:
            continue
        todo.extend(children.get(pid, []))
    return found


async def _play_takeoff(fake: FakeDiscord, guild: Guild, bot: BotProcess, cpus: set[int]) -> Table:
    """Start the bot on `cpus`, open a Takeoff! game and make MOVES moves from the panels."""
    with pinned(cpus):
        await bot.start()
    await fake.wait_ready(60)
    channel = fake.add_channel(guild, "small-host")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    await (await fake.slash(alice, channel, "game new takeoff")).response(settle=0)
    await (await fake.slash(bob, channel, "game join")).response(settle=0)
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game start")).response(settle=0)
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    await play(table, random.Random(29), max_steps=MOVES)
    return table


def _pictures_shown(table: Table) -> None:
    """The newest board and every panel show a real picture."""
    board = boards(table)[-1].attachments[0].data
    assert board.startswith(PNG_MAGIC)
    assert Image.open(io.BytesIO(board)).size[0] > 100
    for panel_id in table.panels.values():
        hand = table.fake.message(panel_id).attachments[0].data
        assert hand.startswith(PNG_MAGIC)


async def test_on_one_cpu_the_bot_draws_in_its_own_process(
    fake: FakeDiscord,
    bots: Callable[..., BotProcess],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 1-CPU host: moves show their pictures, and the bot runs no other process at all."""
    guild = fake.add_guild("Small host")
    env = bot_env(fake, guild, tmp_path / "hangar.sqlite3")
    monkeypatch.delenv("HANGAR_RENDER_WORKERS", raising=False)  # the default is what is tested
    bot = bots(env)
    table = await _play_takeoff(fake, guild, bot, {0})
    _pictures_shown(table)
    assert bot.proc is not None
    assert processes_below(bot.proc.pid) == []


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to pin to")
async def test_on_two_cpus_one_lean_worker_and_no_helper(
    fake: FakeDiscord,
    bots: Callable[..., BotProcess],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two CPUs: one render worker (the bot keeps a CPU), no multiprocessing helper process."""
    guild = fake.add_guild("Two CPUs")
    env = bot_env(fake, guild, tmp_path / "hangar.sqlite3")
    monkeypatch.delenv("HANGAR_RENDER_WORKERS", raising=False)
    bot = bots(env)
    table = await _play_takeoff(fake, guild, bot, set(sorted(os.sched_getaffinity(0))[:2]))
    _pictures_shown(table)
    assert bot.proc is not None
    below = processes_below(bot.proc.pid)
    assert len(below) == 1 and b"bot.render.pool" in below[0], below
