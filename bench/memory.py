"""Memory of the whole bot after a mixed session, and its slope over an accelerated soak.

The real bot (`python -m bot`, default settings: HANGAR_RENDER_WORKERS unset) plays all three
games through the fake Discord, several tables of each at once, moves made from the players'
hand panels as a person makes them. The whole bot is its process and every process below it
(render workers, any multiprocessing helper); each is counted by its PSS (proportional set
size, /proc/<pid>/smaps_rollup), so pages shared between them count once in the sum.

A real session spreads its moves over 30 minutes and a soak over 2 hours; here they come as
fast as the bot answers (SESSION moves, then SOAK more), so caches fill the way hours of play
fill them, but whatever grows with wall-clock time alone (timers, the heartbeat) barely shows.
The session's footprint is read once the bot is quiet (QUIET); the soak's samples right after a
move, busy, so they include the free heap a busy process keeps for its next pictures, and once
more quiet at its end: whether the soak is flat is read from the quiet footprints at its start
and end. `BENCH_SOAK_MOVES` sets the soak's length.

A host serves many channels, and the soak's six tables show nothing kept per channel: the
spread then opens CHANNELS more tables round the games, a few moves in each, and reads the
quiet footprint every SPREAD_EVERY tables (BENCH_CHANNELS sets how many).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.e2e_moves import Series, World, hangar_move, open_game
from bot.heap import IDLE_SECONDS
from tests.e2e.botproc import BotProcess
from tests.e2e.driver import Table, boards, is_over
from tests.e2e.fakediscord import FakeDiscord

GAMES = (("takeoff", 2), ("flight", 3), ("first-in-flight", 4))
TABLES = 2  # tables of each game played side by side
SESSION = int(os.environ.get("BENCH_SESSION_MOVES", "240"))
SOAK = int(os.environ.get("BENCH_SOAK_MOVES", "900"))
SAMPLE_EVERY = 60  # moves between two memory samples of the soak
CHANNELS = int(os.environ.get("BENCH_CHANNELS", "240"))
SPREAD_EVERY = 60  # tables between two quiet samples of the spread over channels
SPREAD_MOVES = 3  # moves in each of those tables
FLAT = 2 * 1024 * 1024  # bytes per 1,000 moves (or channels) below which memory is flat
LIMIT_MIB = 160.0
UNSET = ("HANGAR_RENDER_WORKERS",)  # the bot runs with its own defaults
MIB = 1024 * 1024
# A session's footprint is read once the bot is quiet, as it is between most moves of play by
# post: a bot and its workers give their free heap back after bot.heap.IDLE_SECONDS without work.
QUIET = IDLE_SECONDS + 0.5


@dataclass
class Run:
    """What the memory bench measured."""

    after: Footprint  # quiet, after the mixed session
    samples: list[tuple[int, int]]  # the soak: (moves, bytes), busy
    soak_end: Footprint  # quiet, after the soak
    spread: list[tuple[int, int]]  # the spread: (channels opened, bytes), quiet

    @property
    def workers(self) -> int:
        """Render workers the bot ran after the session."""
        return sum(1 for name in self.after.names.values() if name == "worker")

    @property
    def soak_moves(self) -> int:
        """Moves the soak made."""
        return self.samples[-1][0] - self.samples[0][0]


@dataclass
class Footprint:
    """PSS in bytes of each process of a bot, by pid, with its command line."""

    pss: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Bytes of the whole bot."""
        return sum(self.pss.values())

    def describe(self) -> str:
        """Each process's share, largest first."""
        parts = sorted(self.pss.items(), key=lambda item: -item[1])
        return ", ".join(f"{self.names[pid]} {pss / MIB:.0f}" for pid, pss in parts)


def descendants(root: int) -> list[int]:
    """`root` and every process below it."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def pss_of(pid: int) -> int | None:
    """A process's PSS in bytes (None when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return None


def role(pid: int, root: int) -> str:
    """What a process of the bot is: the bot, a render worker, or a multiprocessing helper."""
    if pid == root:
        return "bot"
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "gone"
    if b"resource_tracker" in cmdline or b"forkserver" in cmdline:
        return "mp-helper"
    return "worker"


def footprint(bot: BotProcess) -> Footprint:
    """The bot's processes and their PSS now."""
    assert bot.proc is not None
    root = bot.proc.pid
    found = Footprint()
    for pid in descendants(root):
        pss = pss_of(pid)
        if pss is not None:
            found.pss[pid], found.names[pid] = pss, role(pid, root)
    return found


@contextmanager
def bot_defaults() -> Iterator[None]:
    """Hide the variables in UNSET from the bot process (it inherits os.environ)."""
    saved = {name: os.environ.pop(name) for name in UNSET if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


class Session:
    """TABLES tables of each game in one fake Discord; each move goes to the next table."""

    def __init__(self, fake: FakeDiscord, world: World, bot: BotProcess) -> None:
        self.fake, self.world, self.bot = fake, world, bot
        self.tables: list[tuple[str, Table]] = []
        self.users = {g: [fake.add_user(f"{g}-p{i}") for i in range(n)] for g, n in GAMES}
        self.rng = random.Random(11)
        self.opened = 0
        self.moves = 0

    async def open(self, game_id: str) -> Table:
        """A new table of `game_id` in a new channel."""
        self.opened += 1
        channel = self.fake.add_channel(self.world.guild, f"{game_id}-{self.opened}")
        return await open_game(self.fake, channel, game_id, self.users[game_id])

    async def start(self) -> None:
        """Open every table."""
        for game_id, _ in GAMES:
            for _ in range(TABLES):
                self.tables.append((game_id, await self.open(game_id)))

    async def play(self, moves: int) -> None:
        """`moves` more moves, round the tables; an ended game's table opens a new game."""
        series = Series()
        for _ in range(moves):
            index = self.moves % len(self.tables)
            game_id, table = self.tables[index]
            if is_over(boards(table)[-1]):
                table = await self.open(game_id)
                self.tables[index] = (game_id, table)
            await hangar_move(table, self.bot, self.rng, series)
            self.moves += 1

    async def spread(self, channels: int) -> list[tuple[int, int]]:
        """`channels` more tables, SPREAD_MOVES moves in each; the quiet footprint (channels
        opened, bytes) before the first and every SPREAD_EVERY tables."""
        samples = [(0, footprint(self.bot).total)]
        series = Series()
        for n in range(1, channels + 1):
            game_id = GAMES[n % len(GAMES)][0]
            table = await self.open(game_id)
            for _ in range(SPREAD_MOVES):
                if not await hangar_move(table, self.bot, self.rng, series):
                    break
            if n % SPREAD_EVERY == 0:
                await asyncio.sleep(QUIET)
                samples.append((n, footprint(self.bot).total))
        return samples


def slope(samples: list[tuple[int, int]]) -> float:
    """Least-squares bytes per move of (moves, bytes) samples."""
    xs, ys = [float(m) for m, _ in samples], [float(b) for _, b in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


@asynccontextmanager
async def started_bot(cpus: set[int] | None = None) -> AsyncIterator[Session]:
    """A bot with its defaults against a fake Discord (on `cpus` only, when given), and a
    session to play in it; stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="hangar-bench-") as tmp:
        async with FakeDiscord() as fake:
            world = World(fake, Path(tmp), cpus)
            bot = await world.start("bot", {"DATABASE_URL": str(Path(tmp) / "memory.sqlite3")})
            try:
                yield Session(fake, world, bot)
            finally:
                await world.stop()


async def run() -> Run:
    """The session, its footprint, the soak's samples, the spread over channels."""
    async with started_bot() as session:
        bot = session.bot
        after = await session_footprint(session)
        samples, now = [(session.moves, after.total)], after
        while session.moves < SESSION + SOAK:
            await session.play(min(SAMPLE_EVERY, SESSION + SOAK - session.moves))
            now = footprint(bot)  # busy: taken right after a move
            samples.append((session.moves, now.total))
        print(f"    at the soak's end, busy, by process (MiB): {now.describe()}")
        await asyncio.sleep(QUIET)
        soak_end = footprint(bot)
        print(f"    a moment later, quiet (MiB): {soak_end.describe()}")
        spread = await session.spread(CHANNELS)
    return Run(after, samples, soak_end, spread)


async def session_footprint(session: Session) -> Footprint:
    """Open the tables, play the mixed session, and read the footprint once the bot is quiet."""
    await session.start()
    await session.play(SESSION)
    await asyncio.sleep(QUIET)
    return footprint(session.bot)


async def one_cpu() -> Footprint:
    """The mixed session's quiet footprint with the bot on one CPU, as on a 1-vCPU host: its
    defaults then start no render worker."""
    async with started_bot(cpus={0}) as session:
        return await session_footprint(session)


def report(run: Run) -> None:
    """Print the footprint against the target, the soak's slope and the spread's."""
    after, samples = run.after, run.samples
    total = after.total / MIB
    holds = "holds" if total <= LIMIT_MIB else "does not hold"
    print(
        f"  1. memory after a mixed session ({SESSION} moves of 3 games, default settings, "
        f"{run.workers} render workers): {total:.0f} MiB PSS ÷ {LIMIT_MIB:.0f} MiB = "
        f"×{total / LIMIT_MIB:.2f} (target ≤ ×1.00: {holds})"
    )
    print(f"    by process (MiB): {after.describe()}")
    busy = slope(samples)
    first, last = samples[0][1] / MIB, samples[-1][1] / MIB
    print(
        f"    soak of {run.soak_moves} more moves (as fast as answered, not 2 hours), busy: "
        f"{first:.0f} → {last:.0f} MiB, slope {busy / 1024:.1f} KiB per move"
    )
    quiet = soak_growth(run)
    print(
        f"    quiet before and after it: {total:.0f} → {run.soak_end.total / MIB:.0f} MiB, "
        f"{quiet * 1000 / MIB:.2f} MiB per 1000 moves: {verdict(quiet)}"
    )
    spread = spread_growth(run)
    print(
        f"    spread over {run.spread[-1][0]} more channels ({SPREAD_MOVES} moves each), quiet: "
        + " → ".join(f"{b / MIB:.0f}" for _, b in run.spread)
        + f" MiB; from the first {SPREAD_EVERY} on, {spread * 1000 / MIB:.2f} MiB per 1000 "
        f"channels: {verdict(spread)}"
    )


def soak_growth(run: Run) -> float:
    """Quiet bytes per move over the soak."""
    return (run.soak_end.total - run.after.total) / max(1, run.soak_moves)


def spread_growth(run: Run) -> float:
    """Quiet bytes per channel once the first SPREAD_EVERY channels have filled what fills per
    channel up to a bound (caches of the busiest channels)."""
    return slope(run.spread[1:]) if len(run.spread) > 2 else slope(run.spread)


def verdict(per_unit: float) -> str:
    """ "flat" or "growing", for bytes per move or per channel."""
    return "flat" if per_unit * 1000 < FLAT else "growing"


def report_one_cpu(after: Footprint) -> None:
    """Print the one-CPU session's footprint."""
    print(
        f"    the same session on one CPU (as on a 1-vCPU host, no render worker): "
        f"{after.total / MIB:.0f} MiB ({after.describe()})"
    )


def standalone() -> None:
    """`python -m bench.memory` alone; `make bench` prints the same in bench/e2e_moves.py's
    targets (named so that `python -m bench`, which runs every `main`, skips this module)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    print("Memory of the whole bot (PSS of its process and every process below it):")
    with bot_defaults():
        report(asyncio.run(run()))
        report_one_cpu(asyncio.run(one_cpu()))


if __name__ == "__main__":
    standalone()
