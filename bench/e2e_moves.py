"""End-to-end speed: Hangar's moves through the fake Discord ÷ a floor bot in the same run.

The floor (`bench/floor_bot.py`) is a minimal discord.py bot making the same calls with PNGs of
the same bytes, so each ratio says what Hangar costs above discord.py itself (issue 14):

- move from the hand panel, click → panel updated: median and p95, per game;
- bot CPU per move (the process's user+system time, from /proc);
- bytes a move uploads (the pictures Discord receives), per game;
- 50 moves at once in 50 channels: throughput and the slowest acknowledgement;
- the same moves and a burst with both bots on one core (`taskset`-like affinity, as on a 1-vCPU
  host), the driver and fake Discord left on the other cores as Discord is on its own machines;
- Takeoff! moves with every Discord call ROUND_TRIP away, as over a host's real uplink;
- Takeoff! moves and bursts again with every picture free (bench/pictures_free: drawn a few
  times, then reused as new bytes of the same size): the least the rest of a move allows;
- the whole bot's memory after a mixed session (bench/memory.py);
- `/mygames` for a user in 500 open games among 10,000 stored ÷ a reply of the same size.

It ends with issue 29's six targets, each as a ratio with "holds" or "does not hold".

Moves and `/mygames` replies alternate between Hangar and the floor, one by one, and so do the
bursts, so both meet the machine in the same state. Run with `make bench` (or
`python -m bench.e2e_moves`). Times are only compared within one run.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.parts import SPACING, Parts, move_parts
from tests.e2e.botproc import BotProcess, bot_env
from tests.e2e.driver import (
    Table,
    action_choices,
    active_player,
    boards,
    current_panel,
    is_over,
    random_policy,
)
from tests.e2e.fakediscord import FakeDiscord, InteractionHandle, Message
from tests.e2e.fakediscord.state import Channel, Guild, User

GAMES = (("takeoff", 2), ("flight", 3), ("first-in-flight", 4))
MOVES = int(os.environ.get("BENCH_MOVES", "40"))
WARMUP = 4
BURST = 50
BURST_ROUNDS = 3
SETTLE = 0.5  # seconds of quiet before a burst
ONE_CORE = {0}  # the CPU both bots are pinned to for the one-core figures
ONE_CORE_MOVES = int(os.environ.get("BENCH_ONE_CORE_MOVES", "30"))
ONE_CORE_ROUNDS = 2
KIB = 1024
# A Discord API call's round trip from a host (tens of ms; loopback has none), for one series
# that shows what players meet: the same moves, each call answered this much later.
ROUND_TRIP = 0.05
UPLINK_MOVES = 20
# On PYTHONPATH, this folder's sitecustomize makes the bot's pictures free (reused, real bytes):
# what Hangar costs above the floor besides drawing, measured end to end.
PICTURES_FREE = Path(__file__).resolve().parent / "pictures_free"
MYGAMES_OPEN, MYGAMES_STORED = 500, 10_000
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Series:
    """Latencies (s) and CPU seconds of a run of moves."""

    latencies: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    workers: list[float] = field(default_factory=list)  # the part of `cpu` in render workers
    patterns: list[str] = field(default_factory=list)
    uploads: list[int] = field(default_factory=list)  # bytes of the files each move uploaded
    faults: list[int] = field(default_factory=list)  # page faults of the bot's processes

    @property
    def faults_per_move(self) -> float:
        """Mean page faults per move: each a new page the kernel zeroed (~2 µs here)."""
        return statistics.fmean(self.faults) if self.faults else 0.0

    @property
    def median(self) -> float:
        """Median latency."""
        return statistics.median(self.latencies)

    @property
    def p95(self) -> float:
        """95th percentile latency."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    @property
    def cpu_per_move(self) -> float:
        """Mean bot CPU seconds per move."""
        return statistics.fmean(self.cpu)

    @property
    def workers_per_move(self) -> float:
        """Mean render workers' CPU seconds per move (0 for a bot without workers)."""
        return statistics.fmean(self.workers) if self.workers else 0.0


def usage(bot: BotProcess) -> tuple[tuple[float, float], int]:
    """CPU seconds so far of the bot's own process (its event loop and threads) and of its
    children (the render workers: work moved to a worker still counts), and the minor page
    faults of both, from /proc."""
    assert bot.proc is not None
    pid = str(bot.proc.pid)
    own = children = faults = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if stat.parent.name != pid and fields[1] != pid:
            continue
        ticks = int(fields[11]) + int(fields[12])
        faults += int(fields[7])
        if stat.parent.name == pid:
            own += ticks
        else:
            children += ticks
    return (own / TICKS, children / TICKS), faults


async def answered(
    handle: InteractionHandle, message_id: int, edits_before: int, fake: FakeDiscord
) -> float:
    """Wait until the click is acknowledged and `message_id` edited; returns the ack time."""
    rec, loop = handle.record, asyncio.get_running_loop()
    acked = 0.0
    deadline = loop.time() + 30
    while True:
        if rec.failed:
            raise RuntimeError(f"{rec.label}: This interaction failed")
        if not acked and rec.callback_type is not None:
            acked = time.perf_counter()
        if acked and fake.message(message_id).edits > edits_before:
            return acked
        if not await rec.changes.wait_change(rec.changes.version, deadline - loop.time()):
            raise TimeoutError(f"{rec.label}: no answer")


async def press(
    fake: FakeDiscord, user: User, panel: Message, choice: tuple[str, str | None]
) -> InteractionHandle:
    """Click a button or choose a select option."""
    custom_id, value = choice
    if value is None:
        return await fake.click(user, panel, custom_id)
    return await fake.select(user, panel, custom_id, [value])


class World:
    """A fake Discord with one guild, and bot processes started in it."""

    def __init__(self, fake: FakeDiscord, tmp: Path, cpus: set[int] | None = None) -> None:
        self.fake, self.tmp, self.cpus = fake, tmp, cpus
        self.guild: Guild = fake.add_guild("Bench")
        self.bots: list[BotProcess] = []

    async def start(self, module: str, env: dict[str, str]) -> BotProcess:
        """Start a bot process against the fake and wait until it is ready; with `cpus`, the
        bot (and every process it starts) may run on those CPUs only, as under `taskset`."""
        base = bot_env(self.fake, self.guild, self.tmp / "hangar.sqlite3")
        base["LOG_LEVEL"] = "WARNING"
        log = self.tmp / f"{module.replace('.', '-')}-{len(self.bots)}.log"
        bot = BotProcess({**base, **env}, module=module, log_path=log, fake=self.fake)
        self.bots.append(bot)
        with pinned(self.cpus):
            await bot.start()  # the child inherits the affinity when it is forked
        await self.fake.wait_ready(60)
        return bot

    async def stop(self) -> None:
        """Stop every bot process."""
        for bot in self.bots:
            await bot.stop()
        self.bots.clear()


def pictures_free_env() -> dict[str, str]:
    """The environment of a bot whose pictures cost nothing (bench/pictures_free)."""
    path = [str(PICTURES_FREE), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {"PYTHONPATH": os.pathsep.join(path)}


@contextmanager
def pinned(cpus: set[int] | None) -> Iterator[None]:
    """This process on `cpus` only while a bot is started (None: as it was)."""
    if cpus is None:
        yield
        return
    saved = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, saved)


def attachment_sizes(fake: FakeDiscord) -> dict[int, int]:
    """Every file the fake holds, by attachment id: an upload is a new id."""
    return {a.id: a.size for m in fake.world.messages.values() for a in m.attachments}


async def open_game(fake: FakeDiscord, channel: Channel, game_id: str, users: list[User]) -> Table:
    """Open, fill and start a game in `channel`; wait for its first board."""
    await (await fake.slash(users[0], channel, f"game new {game_id}")).response(settle=0)
    for user in users[1:]:
        await (await fake.slash(user, channel, "game join")).response(settle=0)
    mark = fake.mark()
    await (await fake.slash(users[0], channel, "game start")).response(settle=0)
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    return Table(fake, channel, users, stranger=users[0])


async def hangar_move(table: Table, bot: BotProcess, rng: random.Random, series: Series) -> bool:
    """One measured move from the active player's hand panel; False when the game is over."""
    board = boards(table)[-1]
    if is_over(board):
        return False
    user = active_player(table, board)
    panel = await current_panel(table, user, board)
    choice = random_policy(action_choices(panel), rng)
    edits = panel.edits
    files = attachment_sizes(table.fake)
    ((own, workers), faults), start = usage(bot), time.perf_counter()
    handle = await press(table.fake, user, panel, choice)
    await answered(handle, panel.id, edits, table.fake)
    series.latencies.append(time.perf_counter() - start)
    await asyncio.sleep(0.05)  # let the bot finish what it does after the panel (retiring)
    (own_after, workers_after), faults_after = usage(bot)
    series.faults.append(faults_after - faults)
    new = attachment_sizes(table.fake)
    series.uploads.append(sum(size for i, size in new.items() if i not in files))
    series.cpu.append(own_after + workers_after - own - workers)
    series.workers.append(workers_after - workers)
    # a new board message (the old one may have been tidied into a line without its picture)
    series.patterns.append("post" if boards(table)[-1].id != board.id else "edit")
    return True


async def paired_series(
    tmp: Path,
    game_id: str,
    players: int,
    moves: int = MOVES,
    cpus: set[int] | None = None,
    env: dict[str, str] | None = None,
    round_trip: float = 0.0,
) -> tuple[Series, Series, bytes, bytes]:
    """MOVES moves of `game_id` (new games as they end), each followed at once by a floor move
    of the same pattern with the same pictures; also the board and hand PNGs the floor uploads.

    Each bot has a fake Discord of its own, both served by this process, and the two series
    alternate move by move, so both meet the machine in the same state: on this noisy machine the
    floor measured alone moved by a quarter between back-to-back runs.
    """
    async with FakeDiscord() as hangar_fake, FakeDiscord() as floor_fake:
        for fake in (hangar_fake, floor_fake) if round_trip else ():
            fake.world.faults.slow(".", round_trip)  # every call answered this much later
        hangar_world = World(hangar_fake, tmp, cpus)
        floor_world = World(floor_fake, tmp, cpus)
        database = str(tmp / f"{game_id}-{len(list(tmp.iterdir()))}.sqlite3")
        hangar = await hangar_world.start("bot", {"DATABASE_URL": database, **(env or {})})
        users = [hangar_fake.add_user(f"{game_id}-p{i}") for i in range(players)]
        rng, ours, floor = random.Random(7), Series(), Series()
        channel = hangar_fake.add_channel(hangar_world.guild, game_id)
        table = await open_game(hangar_fake, channel, game_id, users)
        while len(ours.latencies) < WARMUP:
            await hangar_move(table, hangar, rng, ours)
        board = boards(table)[-1].attachments[0].data
        hand = hangar_fake.message(next(iter(table.panels.values()))).attachments[0].data
        floor_move = await floor_mover(floor_world, board, hand)
        for _ in range(WARMUP):
            await floor_move("post", floor)
        while len(ours.latencies) < moves + WARMUP:
            if await hangar_move(table, hangar, rng, ours):
                await floor_move(ours.patterns[-1], floor)
                continue
            name = f"{game_id}-{len(ours.latencies)}"
            channel = hangar_fake.add_channel(hangar_world.guild, name)
            table = await open_game(hangar_fake, channel, game_id, users)
        await hangar_world.stop()
        await floor_world.stop()
    drop_warmup(ours)
    drop_warmup(floor)
    return ours, floor, board, hand


def drop_warmup(series: Series) -> None:
    """Forget the first moves (imports, caches and connections warming up)."""
    del series.latencies[:WARMUP], series.cpu[:WARMUP], series.patterns[:WARMUP]
    del series.workers[:WARMUP], series.uploads[:WARMUP], series.faults[:WARMUP]


async def floor_panel(fake: FakeDiscord, user: User, channel: Channel) -> Message:
    """Open a floor panel (buttons for both patterns) in `channel`."""
    reply = await (await fake.slash(user, channel, "floor panel")).response(settle=0)
    panel = reply.followups[-1] if reply.followups else reply.message
    assert panel is not None
    return panel


def floor_choice(panel: Message, pattern: str) -> tuple[str, None]:
    """The panel's button for `pattern`."""
    return next(c for c in panel.custom_ids if c.startswith(f"floor:{pattern}:")), None


FloorMove = Callable[[str, Series], Awaitable[None]]


async def floor_mover(world: World, board: bytes, hand: bytes) -> FloorMove:
    """Start the floor bot with these pictures and open its panel; returns a function making
    one measured floor move of a pattern ("post" or "edit")."""
    fake = world.fake
    bot = await world.start("bench.floor_bot", floor_env(world, board, hand))
    user = fake.add_user("floor")
    panel = await floor_panel(fake, user, fake.add_channel(world.guild, "floor"))

    async def move(pattern: str, series: Series) -> None:
        edits, ((own, children), faults) = panel.edits, usage(bot)
        start = time.perf_counter()
        handle = await press(fake, user, panel, floor_choice(panel, pattern))
        await answered(handle, panel.id, edits, fake)
        series.latencies.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)
        (own_after, children_after), faults_after = usage(bot)
        series.cpu.append(own_after + children_after - own - children)
        series.faults.append(faults_after - faults)
        series.patterns.append(pattern)

    return move


def floor_env(world: World, board: bytes, hand: bytes) -> dict[str, str]:
    """The floor bot's environment: the PNGs it uploads, written where it reads them."""
    (world.tmp / "floor-board.png").write_bytes(board)
    (world.tmp / "floor-hand.png").write_bytes(hand)
    return {
        "FLOOR_BOARD_PNG": str(world.tmp / "floor-board.png"),
        "FLOOR_HAND_PNG": str(world.tmp / "floor-hand.png"),
    }


@dataclass
class Burst:
    """Moves fired at once: total seconds, and the slowest acknowledgement."""

    total: float
    slowest_ack: float
    failed: int

    @property
    def throughput(self) -> float:
        """Moves per second."""
        return BURST / self.total


async def fire(
    clicks: list[Callable[[], Awaitable[InteractionHandle]]],
    panels: list[Message],
    fake: FakeDiscord,
) -> Burst:
    """Fire every click at once and wait until every panel is updated."""
    edits = [p.edits for p in panels]
    start = time.perf_counter()
    handles = await asyncio.gather(*(click() for click in clicks))
    results = await asyncio.gather(
        *(answered(h, p.id, e, fake) for h, p, e in zip(handles, panels, edits, strict=True)),
        return_exceptions=True,
    )
    total = time.perf_counter() - start
    acks = [r - start for r in results if isinstance(r, float)]
    failed = sum(1 for r in results if not isinstance(r, float))
    return Burst(total, max(acks, default=float("nan")), failed)


Fire = Callable[[], Awaitable[Burst]]


async def hangar_round(world: World, users: list[User], rnd: int) -> Fire:
    """BURST Takeoff! games opened in new channels, their players' panels open; returns the
    function that fires one move in each at once."""
    fake = world.fake
    clicks, panels = [], []
    rng = random.Random(3 + rnd)
    for n in range(BURST):
        channel = fake.add_channel(world.guild, f"burst-{rnd}-{n}")
        table = await open_game(fake, channel, "takeoff", users)
        board = boards(table)[-1]
        user = active_player(table, board)
        panel = await current_panel(table, user, board)
        choice = random_policy(action_choices(panel), rng)
        clicks.append(lambda u=user, p=panel, c=choice: press(fake, u, p, c))
        panels.append(panel)
    return lambda: fire(clicks, panels, fake)


async def floor_round(world: World, user: User, rnd: int) -> Fire:
    """BURST floor panels in new channels (each move posts a new board), like `hangar_round`."""
    fake = world.fake
    clicks, panels = [], []
    for n in range(BURST):
        panel = await floor_panel(fake, user, fake.add_channel(world.guild, f"fburst-{rnd}-{n}"))
        choice = floor_choice(panel, "post")
        clicks.append(lambda p=panel, c=choice: press(fake, user, p, c))
        panels.append(panel)
    return lambda: fire(clicks, panels, fake)


async def paired_bursts(
    tmp: Path,
    board: bytes,
    hand: bytes,
    rounds: int = BURST_ROUNDS,
    cpus: set[int] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[list[Burst], list[Burst]]:
    """BURST_ROUNDS bursts of Hangar and of the floor (uploading Takeoff!'s pictures), in turn:
    like the moves, each bot on a fake Discord of its own, so that both meet the machine in the
    same state (one floor burst alone ranged over 220-400 moves/s from run to run)."""
    async with FakeDiscord() as hangar_fake, FakeDiscord() as floor_fake:
        hangar_world, floor_world = World(hangar_fake, tmp, cpus), World(floor_fake, tmp, cpus)
        database = str(tmp / f"burst-{len(list(tmp.iterdir()))}.sqlite3")
        await hangar_world.start("bot", {"DATABASE_URL": database, **(env or {})})
        await floor_world.start("bench.floor_bot", floor_env(floor_world, board, hand))
        users = [hangar_fake.add_user("burst-a"), hangar_fake.add_user("burst-b")]
        floor_user = floor_fake.add_user("floor-burst")
        ours: list[Burst] = []
        theirs: list[Burst] = []
        for rnd in range(rounds):
            hangar_fire = await hangar_round(hangar_world, users, rnd)
            floor_fire = await floor_round(floor_world, floor_user, rnd)
            await asyncio.sleep(SETTLE)  # the set-up's last pictures and records are done
            # who goes first alternates: neither always meets the machine just after the other
            if rnd % 2:
                ours.append(await hangar_fire())
                theirs.append(await floor_fire())
            else:
                theirs.append(await floor_fire())
                ours.append(await hangar_fire())
        await hangar_world.stop()
        await floor_world.stop()
    return ours, theirs


async def seed_games(path: Path, user_id: int, guild_id: int) -> None:
    """MYGAMES_STORED running Takeoff! games, MYGAMES_OPEN of them with `user_id` seated."""
    from bot.services.games import GameService
    from bot.store import open_store

    store = await open_store(path, synchronous="OFF")  # seeding only: durability is not measured
    service = GameService(store)
    for n in range(MYGAMES_STORED):
        first = user_id if n % (MYGAMES_STORED // MYGAMES_OPEN) == 0 else 10_000 + n
        await service.lobby.open(guild_id, 1_000_000 + n, "takeoff", {}, first, "p", seed=n)
        await service.lobby.join(1_000_000 + n, 20_000_000 + n, "q")
        await service.lobby.start(1_000_000 + n, first, True)
    await store.close()


async def timed_reply(
    fake: FakeDiscord, user: User, channel: Channel, command: str, **options: object
) -> tuple[float, str]:
    """Seconds from a slash command to its finished (non-loading) answer, and its text."""
    start = time.perf_counter()
    reply = await (await fake.slash(user, channel, command, **options)).response(settle=0)
    return time.perf_counter() - start, reply.all_text


async def mygames(tmp: Path, board: bytes, hand: bytes) -> tuple[float, float, int]:
    """Median /mygames time, median same-size floor reply time, and the answer's size; the two
    alternate, each bot on a fake Discord of its own (as in `paired_series`)."""
    async with FakeDiscord() as hangar_fake, FakeDiscord() as floor_fake:
        hangar_world, floor_world = World(hangar_fake, tmp), World(floor_fake, tmp)
        user = hangar_fake.add_user("busy")
        path = tmp / "mygames.sqlite3"
        await seed_games(path, user.id, hangar_world.guild.id)
        await hangar_world.start("bot", {"DATABASE_URL": str(path)})
        await floor_world.start("bench.floor_bot", floor_env(floor_world, board, hand))
        channel = hangar_fake.add_channel(hangar_world.guild, "mygames")
        floor_user = floor_fake.add_user("busy")
        floor_channel = floor_fake.add_channel(floor_world.guild, "mygames")
        hangar: list[float] = []
        floor: list[float] = []
        size = 0
        for _ in range(12):
            seconds, text = await timed_reply(hangar_fake, user, channel, "mygames")
            hangar.append(seconds)
            size = len(text)
            floor_reply = timed_reply(
                floor_fake, floor_user, floor_channel, "floor reply", size=size
            )
            floor.append((await floor_reply)[0])
        await hangar_world.stop()
        await floor_world.stop()
    return statistics.median(hangar[2:]), statistics.median(floor[2:]), size


def row(name: str, value: float, floor: float, target: str) -> str:
    """One printed line: Hangar's figure, the floor's, the ratio and the target."""
    figures = f"{value * 1000:8.1f} ms  vs {floor * 1000:7.1f} ms  ×{value / floor:5.2f}"
    return f"  {name:<44} {figures}  (target {target})"


def game_report(game_id: str, players: int, ours: Series, floor: Series, sizes: str) -> None:
    """Print one game's move figures."""
    limit = "≤ 3.0×" if game_id == "first-in-flight" else "≤ 2.0×"
    print(row(f"{game_id} ({players}p) move, median", ours.median, floor.median, limit))
    print(row(f"{game_id} move p95 ÷ its own median", ours.p95, ours.median, "≤ 1.5×"))
    print(row(f"{game_id} bot CPU per move", ours.cpu_per_move, floor.cpu_per_move, "≤ 3×"))
    loop = ours.cpu_per_move - ours.workers_per_move
    print(
        f"    (bot process {loop * 1000:.1f} ms ×{loop / floor.cpu_per_move:.2f} of the floor, "
        f"render workers {ours.workers_per_move * 1000:.1f} ms; page faults per move "
        f"{ours.faults_per_move:.0f}, floor {floor.faults_per_move:.0f})"
    )
    posts = ours.patterns.count("post")
    print(f"    ({len(ours.latencies)} moves, {posts} new boards; {sizes})")


def parts_report(game_id: str, ours: Series, floor: Series, parts: Parts) -> float:
    """Print where one game's move goes and the least it can cost with this work; returns that
    least CPU per move (the burst's bound)."""
    ms = 1000
    print(
        f"    parts per move (medians, ms): move transaction {parts.act * ms:.1f} wall / "
        f"{parts.act_cpu * ms:.1f} CPU (bare INSERT+COMMIT {parts.bare_commit * ms:.1f}); "
        f"board picture {parts.board * ms:.1f}, panel picture {parts.panel * ms:.1f} (drawn and "
        "encoded as a worker does it: repainted where the move changed it)"
    )
    least = floor.median + parts.act + parts.slower_picture
    least_cpu = floor.cpu_per_move + parts.act_cpu + parts.pictures_cpu
    print(
        f"    least a move can take with these parts: floor {floor.median * ms:.1f} + move "
        f"{parts.act * ms:.1f} + slower picture {parts.slower_picture * ms:.1f} = "
        f"{least * ms:.1f} ms (×{least / floor.median:.2f}); left above it "
        f"{(ours.median - least) * ms:.1f} ms"
    )
    print(
        f"    least CPU: floor {floor.cpu_per_move * ms:.1f} + move {parts.act_cpu * ms:.1f} + "
        f"both pictures {parts.pictures_cpu * ms:.1f} = {least_cpu * ms:.1f} ms "
        f"(×{least_cpu / floor.cpu_per_move:.2f}); left above it "
        f"{(ours.cpu_per_move - least_cpu) * ms:.1f} ms"
    )
    pictures = parts.spaced_pictures_cpu
    spaced = floor.cpu_per_move + parts.act_cpu + pictures
    print(
        f"    with the pictures drawn {SPACING * ms:.0f} ms apart, as clicks come: "
        f"{pictures * ms:.1f} ms (×{pictures / parts.pictures_cpu:.2f} of back to back); "
        f"least CPU {spaced * ms:.1f} ms (×{spaced / floor.cpu_per_move:.2f}), "
        f"left above it {(ours.cpu_per_move - spaced) * ms:.1f} ms"
    )
    return least_cpu


def burst_ratios(ours: list[Burst], theirs: list[Burst]) -> list[float]:
    """Each paired burst's throughput ÷ the floor's, in order."""
    return [o.throughput / t.throughput for o, t in zip(ours, theirs, strict=True)]


def burst_report(ours: list[Burst], theirs: list[Burst], least_cpu: float) -> None:
    """Print the burst figures: medians over the paired rounds."""
    ratios = burst_ratios(ours, theirs)
    each = ", ".join(f"×{r:.2f}" for r in ratios)
    ours_rate = statistics.median(b.throughput for b in ours)
    floor_rate = statistics.median(b.throughput for b in theirs)
    print(
        f"  {BURST} moves at once in {BURST} channels: {ours_rate:.1f} moves/s vs "
        f"{floor_rate:.1f} ×{statistics.median(ratios):.2f} (target ≥ 0.6×; median of "
        f"{len(ratios)} paired bursts: {each})"
    )
    slowest = max(b.slowest_ack for b in ours)
    failed = sum(b.failed for b in ours)
    print(
        f"    slowest acknowledgement {slowest:.2f} s (target ≤ 1 s on one core), failed {failed}; "
        f"floor {max(b.slowest_ack for b in theirs):.2f} s"
    )
    if least_cpu != least_cpu:  # NaN: no parts measured for this burst
        return
    cores = os.cpu_count() or 1
    bound = cores / least_cpu
    print(
        f"    bound from the parts: {cores} cores ÷ least CPU per Takeoff! move "
        f"{least_cpu * 1000:.1f} ms = {bound:.0f} moves/s (×{bound / floor_rate:.2f})"
    )


@dataclass
class Target:
    """One of issue 29's targets as measured: the ratio, its bound, and which side holds."""

    name: str
    ratio: float
    bound: float
    at_most: bool  # True: the ratio must stay at or below the bound
    detail: str

    @property
    def holds(self) -> bool:
        """Whether the measurement meets the target."""
        return self.ratio <= self.bound if self.at_most else self.ratio >= self.bound

    def line(self) -> str:
        """The printed line."""
        sign = "≤" if self.at_most else "≥"
        verdict = "holds" if self.holds else "does not hold"
        line = f"  {self.name:<40} ×{self.ratio:5.2f} (target {sign} ×{self.bound:.2f}): {verdict}"
        return f"{line} ({self.detail})" if self.detail else line


def uploads_report(game_id: str, ours: Series) -> str:
    """Median and largest bytes a move uploaded."""
    median = statistics.median(ours.uploads) / KIB
    return (
        f"{game_id} uploads per move: median {median:.0f} KiB, most {max(ours.uploads) / KIB:.0f}"
    )


async def one_core(tmp: Path, pictures: tuple[bytes, bytes]) -> tuple[Series, Series, Burst, Burst]:
    """Takeoff! moves and bursts with both bots pinned to ONE_CORE: the paired series, and the
    paired bursts' medians (by throughput) with the slowest acknowledgement of every round."""
    print(f"  on one core (both bots pinned to CPU {min(ONE_CORE)}, default settings):")
    ours, floor, _, _ = await paired_series(tmp, "takeoff", 2, ONE_CORE_MOVES, ONE_CORE)
    print(row("takeoff (2p) move on one core, median", ours.median, floor.median, "≤ 2.0×"))
    print(row("takeoff bot CPU per move on one core", ours.cpu_per_move, floor.cpu_per_move, "-"))
    # the other choice of worker count on one core, to compare the default with
    workers = {"HANGAR_RENDER_WORKERS": "1"}
    other, other_floor, _, _ = await paired_series(
        tmp, "takeoff", 2, ONE_CORE_MOVES, ONE_CORE, workers
    )
    print(row("  the same with 1 render worker", other.median, other_floor.median, "-"))
    print(row("  its bot CPU per move", other.cpu_per_move, other_floor.cpu_per_move, "-"))
    hangar, theirs = await paired_bursts(tmp, *pictures, ONE_CORE_ROUNDS, ONE_CORE)
    burst_report(hangar, theirs, float("nan"))
    slowest = max(b.slowest_ack for b in hangar)
    mid = sorted(hangar, key=lambda b: b.throughput)[len(hangar) // 2]
    floor_mid = sorted(theirs, key=lambda b: b.throughput)[len(theirs) // 2]
    return ours, floor, Burst(mid.total, slowest, sum(b.failed for b in hangar)), floor_mid


@dataclass(frozen=True)
class Free:
    """Takeoff! with every picture free ÷ the floor, in the same run: the least ratios Hangar's
    other work (rules, database, messages, the worker's round trip) allows."""

    latency: float
    cpu: float
    burst: float


async def pictures_free(tmp: Path, pictures: tuple[bytes, bytes]) -> Free:
    """Takeoff! moves and bursts, paired with the floor as above, by a bot whose pictures after
    the first few are reused (bench/pictures_free): new bytes of the same size, the same calls."""
    print("  Takeoff! with every picture free (each kind drawn a few times, then reused):")
    env = pictures_free_env()
    ours, floor, _, _ = await paired_series(tmp, "takeoff", 2, env=env)
    print(row("takeoff (2p) move, pictures free, median", ours.median, floor.median, "-"))
    print(
        row("takeoff bot CPU per move, pictures free", ours.cpu_per_move, floor.cpu_per_move, "-")
    )
    print(f"    ({uploads_report('takeoff', ours)})")
    hangar, theirs = await paired_bursts(tmp, *pictures, env=env)
    ratios = burst_ratios(hangar, theirs)
    print(
        f"  {BURST} moves at once, pictures free ÷ floor: ×{statistics.median(ratios):.2f} "
        f"(median of {len(ratios)}: {', '.join(f'×{r:.2f}' for r in ratios)})"
    )
    return Free(
        ours.median / floor.median,
        ours.cpu_per_move / floor.cpu_per_move,
        statistics.median(ratios),
    )


async def uplink(tmp: Path) -> None:
    """Takeoff! moves paired with the floor as above, every Discord call answered ROUND_TRIP
    later for both bots, as over a host's real uplink (context for the loopback ratios)."""
    ours, floor, _, _ = await paired_series(tmp, "takeoff", 2, UPLINK_MOVES, round_trip=ROUND_TRIP)
    label = f"takeoff move, each call {ROUND_TRIP * 1000:.0f} ms away"
    print(row(label, ours.median, floor.median, "-"))


async def run() -> None:
    """Every measurement, printed as it completes; the targets at the end."""
    from bench import memory  # imports this module: not at the top

    targets: list[Target] = []
    with tempfile.TemporaryDirectory(prefix="hangar-bench-") as tmp:
        print("End to end through the fake Discord (Hangar vs floor bot, same run):")
        pictures: dict[str, tuple[bytes, bytes]] = {}
        least_cpu: dict[str, float] = {}
        latency: list[tuple[str, float]] = []
        cpu: list[tuple[str, float]] = []
        uploads: dict[str, Series] = {}
        for game_id, players in GAMES:
            series, floor, board, hand = await paired_series(Path(tmp), game_id, players)
            pictures[game_id] = board, hand
            sizes = f"board {len(board) // 1024} KiB, hand {len(hand) // 1024} KiB"
            game_report(game_id, players, series, floor, sizes)
            print(f"    ({uploads_report(game_id, series)})")
            parts = await move_parts(game_id, players)
            least_cpu[game_id] = parts_report(game_id, series, floor, parts)
            latency.append((game_id, series.median / floor.median))
            cpu.append((game_id, series.cpu_per_move / floor.cpu_per_move))
            uploads[game_id] = series
        # the floor posts pictures of the same bytes as the burst's game (Takeoff!)
        ours, theirs = await paired_bursts(Path(tmp), *pictures["takeoff"])
        burst_report(ours, theirs, least_cpu["takeoff"])
        free = await pictures_free(Path(tmp), pictures["takeoff"])
        await uplink(Path(tmp))
        core, core_floor, core_burst, _ = await one_core(Path(tmp), pictures["takeoff"])
        hangar_t, floor_t, size = await mygames(Path(tmp), *pictures["takeoff"])
        label = f"/mygames, {MYGAMES_OPEN} open of {MYGAMES_STORED} ({size} chars)"
        print(row(label, hangar_t, floor_t, "≤ 3×"))
    print("Memory of the whole bot (PSS of its process and every process below it):")
    with memory.bot_defaults():
        measured = await memory.run()
        memory.report(measured)
        memory.report_one_cpu(await memory.one_cpu())
    total = measured.after.total / memory.MIB
    targets.append(
        Target("1. memory ÷ 160 MiB", total / memory.LIMIT_MIB, 1.0, True, f"{total:.0f} MiB")
    )
    for name, growth in (
        ("1. soak: growth per 1000 moves ÷ 2 MiB", memory.soak_growth(measured)),
        ("1. channels: growth per 1000 ÷ 2 MiB", memory.spread_growth(measured)),
    ):
        targets.append(Target(name, max(0.0, growth) * 1000 / memory.FLAT, 1.0, True, ""))
    targets.append(
        Target("2. one core: panel move ÷ floor", core.median / core_floor.median, 2.0, True, "")
    )
    targets.append(
        Target("2. one core: slowest ack in a burst ÷ 1 s", core_burst.slowest_ack, 1.0, True, "")
    )
    takeoff_uploads = statistics.median(uploads["takeoff"].uploads) / KIB
    targets.append(
        Target("3. Takeoff! uploads per move ÷ 72 KiB", takeoff_uploads / 72, 1.0, True, "")
    )
    for game_id, ratio in latency:
        # the same move with every picture free (Takeoff!): the least the rest allows
        bound = f"pictures free ×{free.latency:.2f}" if game_id == "takeoff" else ""
        targets.append(Target(f"4. {game_id} panel move ÷ floor", ratio, 1.6, True, bound))
    ratios = burst_ratios(ours, theirs)
    targets.append(
        Target(
            "5. 50-move burst throughput ÷ floor",
            statistics.median(ratios),
            0.6,
            False,
            f"pictures free ×{free.burst:.2f}",
        )
    )
    for game_id, ratio in cpu:
        bound = f"pictures free ×{free.cpu:.2f}" if game_id == "takeoff" else ""
        targets.append(Target(f"6. {game_id} bot CPU per move ÷ floor", ratio, 3.0, True, bound))
    print("Issue 29's targets (each a ratio measured in this run):")
    for target in targets:
        print(target.line())
    other = ", ".join(
        f"{g} {statistics.median(s.uploads) / KIB:.0f} KiB"
        for g, s in uploads.items()
        if g != "takeoff"
    )
    print(f"    (uploads per move of the other games, median: {other})")


def main() -> None:
    """Entry point for `python -m bench` and `python -m bench.e2e_moves`."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    asyncio.run(run())


if __name__ == "__main__":
    main()
