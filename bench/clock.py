"""Scheduler cost with 10,000 running games: find + fire due items vs one indexed SELECT."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import cast

from bot.services import GameService
from bot.services.clock import ClockService
from bot.services.gametime import Clock
from bot.services.timeouts import Timeouts
from bot.store import Store, open_store
from rules.core import Game

GAMES = 10_000
SMALL = 2_500
DUE = 100  # items due in one scheduler round
REPEATS = 20
HOUR = 3600.0
START = 1_800_000_000.0


class Time:
    """A settable clock."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def toy() -> Game:
    """The test suite's toy game (small snapshots: the bench measures the scheduler)."""
    from tests.support.toygame import TOY

    return cast(Game, TOY)


async def populate(store: Store, service: GameService, clocks: ClockService, count: int) -> None:
    """One real game, cloned `count` times in SQL, each with a running 72 h clock."""
    lobby = await service.lobby.open(1, 1, "toy", {"rounds": 6}, 101, "A", seed=1)
    await clocks.preferences.set_table(lobby.record, {"turn_limit": "72h", "on_timeout": "remind"})
    await service.lobby.join(1, 102, "B")
    await service.lobby.start(1, 101, False)
    async with store.transaction() as db:
        async with db.execute("SELECT * FROM games WHERE pk = ?", (lobby.record.pk,)) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        for n in range(2, count + 1):
            # Turns started so that the 50 % reminder of clone n is due at START + n seconds.
            started = START - 36 * HOUR + n
            await db.execute(
                "INSERT INTO games (pk, guild_id, channel_id, game_id, options, seed, status, "
                "version, snapshot, creator_id, created_at, updated_at) "
                "VALUES (?, 1, ?, 'toy', ?, 1, 'running', ?, ?, 101, ?, ?)",
                (n, n, row["options"], row["version"], row["snapshot"], started, started),
            )
            await db.executemany(
                "INSERT INTO seats (game_pk, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [(n, 0, 100_000 + 2 * n, "A"), (n, 1, 100_001 + 2 * n, "B")],
            )
            await db.execute(
                "INSERT INTO game_tables (game_pk, turn_limit, limit_s, on_timeout) "
                "VALUES (?, '72h', ?, 'remind')",
                (n, 72 * HOUR),
            )
            deadline = started + 72 * HOUR
            await db.executemany(
                "INSERT INTO seat_clocks (game_pk, seat, active, turn_no, stage, limit_s, "
                "started_at, deadline_at, next_due) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)",
                [
                    (n, 0, 1, 0, 72 * HOUR, started, deadline, deadline - 36 * HOUR),
                    (n, 1, 0, 3, 72 * HOUR, None, None, None),
                ],
            )


async def timed_select(store: Store, now: float) -> float:
    """One indexed SELECT of the due rows (the floor of any scheduler round)."""
    start = time.perf_counter()
    async with store.reading() as db:
        sql = "SELECT game_pk, seat FROM seat_clocks WHERE next_due <= ? ORDER BY next_due LIMIT ?"
        async with db.execute(sql, (now, DUE)) as cursor:
            await cursor.fetchall()
    return time.perf_counter() - start


async def measure(path: Path, count: int) -> dict[str, float]:
    """Per round: find (next_due) + fire DUE reminders, vs one SELECT; memory of a round."""
    store = await open_store(path)
    try:
        clock = Time()
        service = GameService(store, games={"toy": toy()}, clock=clock)
        clocks = ClockService(service, Clock(source=clock))
        service.moves.wire(clocks.on_commit)
        timeouts = Timeouts(clocks, service.moves, service.decoder)
        await populate(store, service, clocks, count)
        finds, fires, selects, peaks = [], [], [], []
        for round_no in range(REPEATS):
            # The next DUE clocks (seconds apart) have reached their 50 % reminder.
            clock.now = START + (round_no + 1) * DUE + 1
            selects.append(await timed_select(store, clock.now))
            start = time.perf_counter()
            await timeouts.next_due()
            found = time.perf_counter()
            tracemalloc.start()  # after the timed find: tracing slows Python code severalfold
            fired = await timeouts.fire_due()
            done = time.perf_counter()
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            assert len(fired) == DUE, len(fired)
            finds.append(found - start)
            fires.append(done - found)
        async with store.reading() as db:
            plan_sql = "EXPLAIN QUERY PLAN SELECT * FROM seat_clocks WHERE next_due <= 0"
            async with db.execute(plan_sql) as cursor:
                plan = " ".join(str(r[-1]) for r in await cursor.fetchall())
        assert "seat_clocks_due" in plan, plan
        return {
            "find": statistics.median(finds),
            "fire": statistics.median(fires),
            "select": statistics.median(selects),
            "peak": statistics.median(peaks),
        }
    finally:
        await store.close()


def main() -> None:
    """Print the scheduler's cost at 10,000 running games and its memory at 1,000 vs 10,000."""
    with tempfile.TemporaryDirectory(prefix="hangar-bench-") as tmp:
        small = asyncio.run(measure(Path(tmp) / "small.sqlite3", SMALL))
        big = asyncio.run(measure(Path(tmp) / "big.sqlite3", GAMES))
    per_item = big["fire"] / DUE
    print(f"clock bench ({GAMES} running games, {DUE} reminders due a round, median of {REPEATS})")
    print(
        f"  find next due {big['find'] * 1000:.2f} ms = {big['find'] / big['select']:.2f}x one "
        f"indexed SELECT ({big['select'] * 1000:.2f} ms); fire {DUE} items "
        f"{big['fire'] * 1000:.1f} ms ({per_item * 1000:.2f} ms each = "
        f"{per_item / big['select']:.1f}x the SELECT; one transaction + commit per item)"
    )
    print(
        f"  round memory peak: {small['peak'] / 1024:.0f} KiB at {SMALL} games, "
        f"{big['peak'] / 1024:.0f} KiB at {GAMES} games (no task or timer per game)"
    )


if __name__ == "__main__":
    main()
