"""Commit cost: one action through GameService.act vs a bare INSERT+COMMIT of the same bytes.

Run on SQLite (a temporary file) and on PostgreSQL (a temporary schema on HANGAR_BENCH_POSTGRES,
default the local server's `test` database; skipped with the reason when none answers).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from itertools import count
from pathlib import Path
from typing import cast

import rules
from bench.pg import postgres_problem, temporary_schema
from bot.services import GameService, LoadedGame
from bot.store import Store, open_store
from rules.core import Game

REPEATS = 300
# act() seconds, rules-only seconds, bare insert seconds, bytes per move, game id
Timings = tuple[list[float], list[float], list[float], list[int], str]
GUILD = 1
PLAYERS = (101, 102)


def bench_game() -> tuple[Game, dict[str, object]]:
    """Takeoff! once it is registered, the test suite's toy game until then (with its options)."""
    if "takeoff" in rules.GAMES:
        return rules.GAMES["takeoff"], {}
    from tests.support.toygame import TOY

    # The toy subclasses BaseGame, whose ClassVars mypy does not match to the Protocol.
    return cast(Game, TOY), {"rounds": 6}


class Table:
    """Keeps a game running: opens a fresh one in a new channel whenever the last one ends."""

    def __init__(self, service: GameService, game: Game, options: dict[str, object]) -> None:
        self.service, self.game, self.options = service, game, options
        self.channels = count(1)
        self.chooser = random.Random(1)
        self.loaded: LoadedGame | None = None

    async def current(self) -> LoadedGame:
        """The running game, starting a new one when needed."""
        if self.loaded is None or self.loaded.outcome is not None:
            channel = next(self.channels)
            await self.service.lobby.open(
                GUILD, channel, self.game.id, self.options, PLAYERS[0], "A", seed=channel
            )
            for user in PLAYERS[1:]:
                await self.service.lobby.join(channel, user, "B")
            self.loaded = (await self.service.lobby.start(channel, PLAYERS[0], False)).loaded
        return self.loaded

    async def timed_move(self) -> tuple[float, float, str]:
        """Seconds for one act(), for the bare rules apply, and the bytes act() stored."""
        loaded = await self.current()
        seat = loaded.active_seats[0]
        action = self.chooser.choice(self.game.legal_actions(loaded.state, seat))
        user = loaded.user_of(seat)
        assert user is not None
        start = time.perf_counter()
        self.game.apply(loaded.state, seat, action.key)
        pure = time.perf_counter() - start
        start = time.perf_counter()
        result = await self.service.act(
            loaded.record.channel_id, user, action.key, loaded.record.version
        )
        elapsed = time.perf_counter() - start
        self.loaded = result.loaded
        stored = [
            action.model_dump(mode="json"),
            [e.model_dump(mode="json") for e in result.events],
            self.game.dump_state(result.loaded.state),
        ]
        return elapsed, pure, json.dumps(stored, separators=(",", ":"), ensure_ascii=False)


async def bare_insert(store: Store, row_id: int, body: str) -> float:
    """Seconds for a write transaction + one INSERT of `body` + COMMIT, as the store does it."""
    start = time.perf_counter()
    async with store.transaction() as db:
        await db.execute("INSERT INTO bench_blob (id, body) VALUES (?, ?)", (row_id, body))
    return time.perf_counter() - start


async def measure(url: str) -> Timings:
    """Interleaved timings of act() and of the bare insert, over REPEATS moves."""
    store = await open_store(url)
    try:
        async with store.transaction() as db:
            await db.execute("CREATE TABLE bench_blob (id BIGINT PRIMARY KEY, body TEXT)")
        game, options = bench_game()
        table = Table(GameService(store, games={game.id: game}), game, options)
        acts, pures, bares, sizes = [], [], [], []
        for row_id in range(REPEATS):
            seconds, pure, body = await table.timed_move()
            acts.append(seconds)
            pures.append(pure)
            bares.append(await bare_insert(store, row_id, body))
            sizes.append(len(body.encode()))
        return acts, pures, bares, sizes, game.id
    finally:
        await store.close()


def report(
    label: str, timings: tuple[list[float], list[float], list[float], list[int], str]
) -> None:
    """Print the medians and the ratio for one backend."""
    acts, pures, bares, sizes, game_id = timings
    act, bare = statistics.median(acts), statistics.median(bares)
    pure = statistics.median(pures)
    print(f"commit bench on {label} ({game_id}, median of {REPEATS})")
    print(
        f"  act() load+apply+log+commit {act * 1000:.2f} ms, bare INSERT+COMMIT "
        f"{bare * 1000:.2f} ms, ratio = {act / bare:.2f}, "
        f"{statistics.median(sizes) / 1024:.1f} KiB written per move"
    )
    print(f"  (of which the rules alone, game.apply without the store: {pure * 1000:.2f} ms)")


def main() -> None:
    """Print apply+commit ÷ bare INSERT+COMMIT (medians) for one action, on both backends."""
    with tempfile.TemporaryDirectory(prefix="hangar-bench-") as tmp:
        timings = asyncio.run(measure(str(Path(tmp) / "bench.sqlite3")))
        report("SQLite (WAL, synchronous=FULL, temporary file)", timings)
    problem = postgres_problem()
    if problem:
        print(f"commit bench on PostgreSQL: skipped ({problem})")
        return
    with temporary_schema() as url:
        report("PostgreSQL (temporary schema, default durability)", asyncio.run(measure(url)))
