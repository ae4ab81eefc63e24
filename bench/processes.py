"""Moves per second end to end, pictures on, with 1 bot process running both shards and with 2
processes (SHARD_COUNT=2, SHARD_IDS=0 / 1), all on one fresh PostgreSQL schema per run.

The real bot (`python -m bot`, its render workers at the bot's default: HANGAR_RENDER_WORKERS is
left unset) plays GAMES human-vs-human Takeoff! games at once through a sharded fake Discord,
spread over guilds so that each shard owns half of them. Each game is a coroutine here playing
random legal choices from the active player's hand panel; a move counts when its click is
acknowledged, the panel edited and the board posted or edited with the next version (new games
open in new channels as games end). After WARMUP seconds, the moves completed in a WINDOW of
seconds are counted. The 1- and 2-process runs alternate, ROUNDS of each, so both meet the
machine in the same state; the fake Discord and the players run in this process, whose CPU is
printed too. Times are only compared within one run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.pg import postgres_problem, temporary_schema
from tests.e2e.botproc import BotProcess
from tests.e2e.driver import (
    Table,
    action_choices,
    active_player,
    board_version,
    current_panel,
    is_over,
    random_policy,
)
from tests.e2e.fakediscord import InteractionHandle, Message
from tests.e2e.fakediscord.shards import ShardedFakeDiscord
from tests.e2e.fakediscord.state import Guild, User

GAME_ID = "takeoff"
GAMES = 20
SHARDS = 2
GUILDS_PER_SHARD = 2
WARMUP = 3.0
WINDOW = 15.0
ROUNDS = 2
MOVE_TIMEOUT = 10.0  # a move not settled by then counts as failed
TICKS = os.sysconf("SC_CLK_TCK")
# Not passed to the bots, so that they run with their own defaults (render workers included).
UNSET = ("HANGAR_RENDER_WORKERS", "SHARD_COUNT", "SHARD_IDS", "HANGAR_TIME_SCALE")


class MoveFailed(Exception):
    """A move that was refused, not acknowledged in time or never settled."""


@dataclass
class Cpu:
    """CPU seconds of one bot process: its own (event loop and threads) and its children's
    (render workers), and the render workers seen."""

    own: float = 0.0
    children: float = 0.0
    workers: set[tuple[int, int]] = field(default_factory=set)  # (pid, start time) of each

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(self.own - other.own, self.children - other.children, self.workers)


def proc_stat(pid: str) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (None if the process is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def bot_cpu(bot: BotProcess) -> Cpu:
    """CPU seconds so far of a bot process and of its children."""
    assert bot.proc is not None
    pid = str(bot.proc.pid)
    cpu = Cpu()
    for entry in Path("/proc").glob("[0-9]*"):
        fields = proc_stat(entry.name)
        if fields is None:
            continue
        ticks = (int(fields[11]) + int(fields[12])) / TICKS
        if entry.name == pid:
            cpu.own += ticks
        elif fields[1] == pid:
            cpu.children += ticks
            with contextlib.suppress(OSError):
                if b"bot.render.pool" in (entry / "cmdline").read_bytes():
                    cpu.workers.add((int(entry.name), int(fields[19])))
    return cpu


def kill_leftovers(seen: set[tuple[int, int]]) -> int:
    """SIGKILL render workers seen during the run that outlived their bot (same pid and start
    time, so never a process that merely reused the pid); returns how many there were."""
    killed = 0
    for pid, started in seen:
        fields = proc_stat(str(pid))
        if fields is not None and int(fields[19]) == started:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
    return killed


@contextlib.contextmanager
def bot_defaults() -> Iterator[None]:
    """Hide the variables in UNSET from the bot processes (they inherit os.environ)."""
    saved = {name: os.environ.pop(name) for name in UNSET if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def shard_of(guild: Guild) -> int:
    """The shard Discord routes this guild's events to."""
    return (guild.id >> 22) % SHARDS


async def spread_guilds(fake: ShardedFakeDiscord) -> list[Guild]:
    """GUILDS_PER_SHARD guilds on each shard (a guild's shard follows its id's timestamp)."""
    chosen: list[Guild] = []
    while len(chosen) < GUILDS_PER_SHARD * SHARDS:
        guild = fake.add_guild(f"bench-{len(chosen)}")
        if sum(shard_of(g) == shard_of(guild) for g in chosen) < GUILDS_PER_SHARD:
            chosen.append(guild)
        await asyncio.sleep(0.002)
    return chosen


def bot_env(fake: ShardedFakeDiscord, url: str, shard: int | None) -> dict[str, str]:
    """One process running every shard (shard None) or only `shard`; commands synced globally."""
    env = {
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DATABASE_URL": url,
        "DEV_GUILD_ID": "",
        "SHARD_COUNT": str(SHARDS),
        "LOG_LEVEL": "WARNING",
    }
    if shard is not None:
        env["SHARD_IDS"] = str(shard)
    return env


async def press(
    fake: ShardedFakeDiscord, user: User, panel: Message, choice: tuple[str, str | None]
) -> InteractionHandle:
    """Click a button or choose a select option."""
    custom_id, value = choice
    if value is None:
        return await fake.click(user, panel, custom_id)
    return await fake.select(user, panel, custom_id, [value])


class Game:
    """One of the GAMES tables: two players in a guild, the current game's channel and newest
    board; when a game ends, the next one opens in a new channel."""

    def __init__(self, fake: ShardedFakeDiscord, guild: Guild, players: list[User], n: int):
        self.fake, self.guild, self.players, self.n = fake, guild, players, n
        self.shard = shard_of(guild)
        self.rng = random.Random(1000 + n)
        self.table: Table | None = None
        self.board_id = 0
        self.opened = 0

    def newest_board(self, after: int) -> Message | None:
        """This channel's newest finished board message with an id above `after`: messages are
        stored in id order, so only the newer ones are looked at (the driver's `boards` reads
        every message of the world, which grows with the run)."""
        assert self.table is not None
        channel_id = self.table.channel.id
        for msg in reversed(self.fake.world.messages.values()):
            if msg.id <= after:
                return None
            if (
                msg.channel_id == channel_id
                and not msg.deleted
                and not msg.ephemeral
                and not msg.loading
                and any(a.filename == "board.png" for a in msg.attachments)
            ):
                return msg
        return None

    def board(self) -> Message:
        """The game's current board (the newest one, as it stands now)."""
        newer = self.newest_board(self.board_id)
        if newer is not None:
            self.board_id = newer.id
        return self.fake.message(self.board_id)

    async def open(self) -> None:
        """Open, fill and start a new game in a new channel; wait for its first board."""
        fake, (first, *others) = self.fake, self.players
        self.opened += 1
        channel = fake.add_channel(self.guild, f"{GAME_ID}-{self.n}-{self.opened}")
        self.table = Table(fake, channel, self.players, stranger=first)
        await (await fake.slash(first, channel, f"game new {GAME_ID}")).response(settle=0)
        for user in others:
            await (await fake.slash(user, channel, "game join")).response(settle=0)
        mark = fake.mark()
        await (await fake.slash(first, channel, "game start")).response(settle=0)
        changes, deadline = fake.world.changes, time.monotonic() + MOVE_TIMEOUT
        while (board := self.newest_board(mark)) is None:
            if not await changes.wait_change(changes.version, deadline - time.monotonic()):
                raise MoveFailed("no first board")
        self.board_id = board.id

    async def move(self) -> bool:
        """One move by the active player from their hand panel; False when the game had ended
        (a new one is opened instead)."""
        assert self.table is not None
        board = self.board()
        if is_over(board):
            await self.open()
            return False
        user = active_player(self.table, board)
        panel = await current_panel(self.table, user, board)
        choice = random_policy(action_choices(panel), self.rng)
        version, edits = board_version(board), panel.edits
        handle = await press(self.fake, user, panel, choice)
        await self.settled(handle, panel.id, edits, version)
        return True

    async def settled(
        self, handle: InteractionHandle, panel_id: int, edits: int, version: int
    ) -> None:
        """Wait until the click is acknowledged, the panel edited and the board shows a newer
        version (or the end of the game)."""
        rec, fake = handle.record, self.fake
        deadline = time.monotonic() + MOVE_TIMEOUT
        while rec.callback_type is None or fake.message(panel_id).edits <= edits:
            if rec.failed:
                raise MoveFailed("not acknowledged within 3 s")
            refused = [fake.message(i) for i in rec.followup_ids]
            if any(m.ephemeral and m.content for m in refused):
                raise MoveFailed(f"refused: {refused[-1].content[:80]}")
            if not await rec.changes.wait_change(rec.changes.version, deadline - time.monotonic()):
                raise MoveFailed("panel not updated")
        changes = fake.world.changes
        while True:
            board = self.board()
            if is_over(board) or board_version(board) > version:
                return
            if not await changes.wait_change(changes.version, deadline - time.monotonic()):
                raise MoveFailed("board not updated")


@dataclass
class Run:
    """What one run measured."""

    processes: int
    moves: list[int]  # per shard, completed inside the window
    cpu: list[Cpu]  # per bot process, during the window
    driver_cpu: float  # this process (fake Discord + players), during the window
    machine_cpu: float  # every process on the machine, during the window
    failures: list[str]
    games_ended: int
    violations: list[str]
    log_errors: list[str]

    @property
    def rate(self) -> float:
        """Moves per second in the window."""
        return sum(self.moves) / WINDOW


async def play(
    game: Game, until: float, done: list[tuple[float, int]], failures: list[str]
) -> None:
    """Make moves until `until` (perf_counter), recording each completed one's time."""
    while time.perf_counter() < until:
        try:
            if await game.move():
                done.append((time.perf_counter(), game.shard))
        except (MoveFailed, AssertionError, TimeoutError) as exc:
            failures.append(f"game {game.n}: {type(exc).__name__}: {exc}")
            await asyncio.sleep(0.2)


def machine_busy() -> float:
    """CPU seconds every core of the machine has spent busy (not idle or waiting for I/O)."""
    ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICKS


@dataclass
class Sample:
    """CPU seconds so far: each bot's, this process's (fake Discord + players), the machine's."""

    bots: list[Cpu]
    driver: float
    machine: float


async def sample_cpu(bots: list[BotProcess], at: float) -> Sample:
    """A sample at perf_counter `at`."""
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    return Sample([bot_cpu(bot) for bot in bots], time.process_time(), machine_busy())


async def measure(url: str, processes: int, tmp: Path, index: int) -> Run:
    """One run: start the bot process(es), open the games, play, count."""
    fake = ShardedFakeDiscord(SHARDS)
    await fake.start()
    bots: list[BotProcess] = []
    seen: set[tuple[int, int]] = set()
    try:
        guilds = await spread_guilds(fake)
        shards: list[int | None] = [None] if processes == 1 else list(range(SHARDS))
        for shard in shards:
            log = tmp / f"run{index}-{processes}p-{'all' if shard is None else shard}.log"
            # no fake=: its stop() would wait for every shard's gateway to close, the others too
            bots.append(BotProcess(bot_env(fake, url, shard), log_path=log))
        await asyncio.gather(*(bot.start() for bot in bots))
        await fake.wait_ready(90)
        games = []
        for n in range(GAMES):
            players = [fake.add_user(f"g{n}-p{seat}") for seat in range(2)]
            games.append(Game(fake, guilds[n % len(guilds)], players, n))
        await asyncio.gather(*(game.open() for game in games))
        start = time.perf_counter() + WARMUP
        end = start + WINDOW
        done: list[tuple[float, int]] = []
        failures: list[str] = []
        playing = asyncio.gather(*(play(game, end, done, failures) for game in games))
        try:
            before = await sample_cpu(bots, start)
            after = await sample_cpu(bots, end)
            await playing
        finally:
            playing.cancel()
        moves = [0] * SHARDS
        for at, shard in done:
            if start <= at <= end:
                moves[shard] += 1
        return Run(
            processes=processes,
            moves=moves,
            cpu=[a - b for a, b in zip(after.bots, before.bots, strict=True)],
            driver_cpu=after.driver - before.driver,
            machine_cpu=after.machine - before.machine,
            failures=failures,
            games_ended=sum(game.opened - 1 for game in games),
            violations=[str(v) for v in fake.violations],
            log_errors=[line for bot in bots for line in bot.log_errors()],
        )
    finally:
        for bot in bots:
            if bot.running:
                seen |= bot_cpu(bot).workers
        codes = await asyncio.gather(*(bot.stop() for bot in bots), return_exceptions=True)
        await fake.stop()
        if any(code not in (0, None) for code in codes):
            print(f"  (bot processes ended with {codes})")
        if kill_leftovers(seen):
            print("  (render workers outlived their bot and were killed)")


def run_once(processes: int, tmp: Path, index: int) -> Run:
    """A run on a fresh schema, dropped afterwards."""
    with temporary_schema() as url:
        return asyncio.run(measure(url, processes, tmp, index))


def cpu_text(run: Run) -> str:
    """Per-process CPU seconds during the window."""
    parts = []
    for n, cpu in enumerate(run.cpu):
        name = "bot" if run.processes == 1 else f"shard {n}"
        parts.append(
            f"{name} {cpu.own:.1f} + render workers {cpu.children:.1f} ({len(cpu.workers)})"
        )
    ours = sum(c.own + c.children for c in run.cpu) + run.driver_cpu
    return (
        f"CPU s in the window: {'; '.join(parts)}; fake Discord + players "
        f"{run.driver_cpu:.1f}; machine busy {run.machine_cpu:.1f} of "
        f"{WINDOW * (os.cpu_count() or 1):.0f} ({max(0.0, run.machine_cpu - ours):.1f} in other "
        "processes: PostgreSQL and whatever else runs)"
    )


def report(n: int, run: Run) -> None:
    """Print one run's lines."""
    label = "1 process " if run.processes == 1 else f"{run.processes} processes"
    split = " / ".join(str(m) for m in run.moves)
    print(
        f"  run {n}, {label}: {run.rate:6.1f} moves/s ({sum(run.moves)} moves, per shard "
        f"{split}; {run.games_ended} games ended; failed {len(run.failures)})"
    )
    per_move = sum(c.own + c.children for c in run.cpu) / max(1, sum(run.moves))
    print(f"    {cpu_text(run)}; bot CPU per move {per_move * 1000:.1f} ms")
    for problem in [*run.failures[:3], *run.violations[:3], *run.log_errors[:3]]:
        print(f"    ! {problem[:200]}")
    if run.violations or run.log_errors:
        broken, errors = len(run.violations), len(run.log_errors)
        print(f"    ({broken} Discord rule violations, {errors} log errors)")


def main() -> None:
    """Print moves/s of 1 and 2 bot processes, alternating, with the median ratio."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    problem = postgres_problem()
    if problem:
        print(f"processes bench on PostgreSQL: skipped ({problem})")
        return
    print(
        f"processes bench: {GAMES} {GAME_ID} games at once through the fake Discord, pictures on, "
        f"{GUILDS_PER_SHARD * SHARDS} guilds on {SHARDS} shards, PostgreSQL; "
        f"{WARMUP:.0f} s warm-up, {WINDOW:.0f} s counted per run"
    )
    rates: dict[int, list[float]] = {1: [], 2: []}
    per_move: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="hangar-bench-") as tmp, bot_defaults():
        n = 0
        for _ in range(ROUNDS):
            for processes in (1, 2):
                n += 1
                run = run_once(processes, Path(tmp), n)
                rates[processes].append(run.rate)
                cpu = sum(c.own + c.children for c in run.cpu)
                per_move[processes].append(cpu / max(1, sum(run.moves)))
                report(n, run)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    each = ", ".join(f"{r:.1f}" for r in rates[1]), ", ".join(f"{r:.1f}" for r in rates[2])
    print(f"  1 process: median {one:.1f} moves/s ({each[0]}); 2 processes: {two:.1f} ({each[1]})")
    paired = ", ".join(f"×{b / a:.2f}" for a, b in zip(rates[1], rates[2], strict=True))
    print(
        f"  2 processes ÷ 1 process: ×{two / one:.2f} (pictures on, {os.cpu_count()} cores; "
        f"each round's pair: {paired})"
    )
    cpu_one, cpu_two = statistics.median(per_move[1]), statistics.median(per_move[2])
    print(
        f"  bot CPU per move (processes + render workers), median: 1 process "
        f"{cpu_one * 1000:.1f} ms, 2 processes {cpu_two * 1000:.1f} ms (×{cpu_two / cpu_one:.2f})"
    )


if __name__ == "__main__":
    main()
