"""History at scale: /stats and /leaderboard over 10,000 finished games, and the longest replay.

Targets (issue 13): /stats and /leaderboard ≤ 50 ms each with 10,000 finished games (printed
next to one indexed SELECT of the same rows), a replay of the longest game ≤ 10 s and ≤ 10 MiB.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.render import charts
from bot.render import replay as replay_render
from bot.services.games import LoadedGame
from bot.services.history import HistoryService, user_key
from bot.services.ratings import rebuild_all
from bot.services.timeline import GameLog, turn_views
from bot.store import ActionRecord, GameRecord, SeatRecord, Store, open_store
from rules import GAMES

GAMES_COUNT = 10_000
GUILD = 1
HERO = 1  # plays every game: the largest /stats there can be
REPEATS = 15


async def fill(store: Store, count: int = GAMES_COUNT, seed: int = 1) -> None:
    """`count` finished Flight games of 2–5 players (HERO always seated), then rate them all."""
    rng = random.Random(seed)
    async with store.transaction() as db:
        for pk in range(1, count + 1):
            players = [HERO, *rng.sample(range(2, 60), rng.randint(1, 4))]
            scores = [rng.randint(0, 120) for _ in players]
            places = [1 + sum(o > s for o in scores) for s in scores]
            at = 1_700_000_000.0 + pk * 3600
            outcome = {"scores": scores, "ranks": places, "winners": [], "reason": ""}
            await db.execute(
                "INSERT INTO games (pk, guild_id, channel_id, game_id, options, seed, status, "
                "version, creator_id, created_at, updated_at, finished_at, result) "
                "VALUES (?, ?, ?, 'flight', '{}', 1, 'finished', 100, ?, ?, ?, ?, ?)",
                (pk, GUILD, 10_000 + pk, HERO, at - 3000, at, at, json.dumps(outcome)),
            )
            await db.executemany(
                "INSERT INTO results (game_pk, entry, guild_id, game_id, finished_at, player, "
                "user_id, name, place, score, won, turns, think_seconds) "
                "VALUES (?, ?, ?, 'flight', ?, ?, ?, ?, ?, ?, ?, 20, 600.0)",
                [
                    (
                        pk,
                        n,
                        GUILD,
                        at,
                        user_key(u),
                        u,
                        f"P{u}",
                        places[n],
                        scores[n],
                        places[n] == 1,
                    )
                    for n, u in enumerate(players)
                ],
            )
        await rebuild_all(db)


async def median_ms(work: Callable[[], Awaitable[Any]]) -> float:
    """Median wall time of `work()` in milliseconds."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        await work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


async def indexed_select(store: Store) -> None:
    """The baseline: one indexed SELECT of the hero's result rows."""
    async with (
        store.reading() as db,
        db.execute(
            "SELECT * FROM results WHERE guild_id = ? AND player = ? AND game_id = 'flight'",
            (GUILD, user_key(HERO)),
        ) as cursor,
    ):
        await cursor.fetchall()


async def bench_queries() -> None:
    """Print /stats and /leaderboard service times next to the baseline."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "bench.sqlite3", synchronous="OFF")
        try:
            start = time.perf_counter()
            await fill(store)
            print(f"  filled and rated {GAMES_COUNT} games in {time.perf_counter() - start:.1f} s")
            service = HistoryService(store)
            base = await median_ms(lambda: indexed_select(store))
            stats = await median_ms(lambda: service.stats(GUILD, HERO, "flight"))
            board = await median_ms(lambda: service.leaderboard(GUILD, "flight"))
            figures = await service.stats(GUILD, HERO, "flight")
            series = [("Flight", [mu for _, _, mu, _ in figures.series])]
            chart = await median_ms(lambda: asyncio.to_thread(charts.skill_png, series))
        finally:
            await store.close()
    print(f"  one indexed SELECT of the hero's {GAMES_COUNT} rows: {base:.1f} ms")
    print(
        f"  /stats service: {stats:.1f} ms ({stats / base:.2f}× the SELECT); "
        f"with its rating chart {stats + chart:.1f} ms"
    )
    print(f"  /leaderboard service: {board:.1f} ms ({board / base:.2f}× the SELECT)")


def longest_game(tries: int = 6) -> GameLog:
    """The game with the most turns among seeded random plays of every game at its most players."""
    best: GameLog | None = None
    best_turns = -1
    for game in GAMES.values():
        for seed in range(tries):
            players = game.max_players
            state = game.new_game(seed, players, None)
            rng, actions = random.Random(seed), []
            while active := game.active_players(state):
                action = rng.choice(game.legal_actions(state, active[0]))
                actions.append(ActionRecord(len(actions) + 1, active[0], {"key": action.key}, 1, 0))
                state = game.apply(state, active[0], action).state
            record = GameRecord(
                1, GUILD, 1, game.id, {}, seed, "finished", len(actions), 1, None, None, 0.0, 0.0
            )
            seats = tuple(SeatRecord(n, n + 1, f"Player {n + 1}") for n in range(players))
            log = GameLog(LoadedGame(record, seats, state, game), tuple(actions))
            turns = sum(1 for a, b in itertools.pairwise(actions) if a.seat != b.seat)
            if turns > best_turns:
                best, best_turns = log, turns
    assert best is not None
    return best


def bench_replay() -> None:
    """Print time and size of the longest game's replay (replay + render + encode)."""
    log = longest_game()
    loaded = log.loaded
    start = time.perf_counter()
    views = turn_views(log)
    data = replay_render.animation(loaded.game.id, views, loaded.names)
    seconds = time.perf_counter() - start
    frames = len(replay_render.sample(len(views)))
    print(
        f"  longest replay: {loaded.game.id}, {len(log.actions)} moves, {len(views)} turns → "
        f"{frames} frames, {seconds:.1f} s, {len(data) / 2**20:.2f} MiB (WebP)"
    )


def main() -> None:
    """Print the history figures."""
    print(f"history bench ({GAMES_COUNT} finished games; median of {REPEATS})")
    asyncio.run(bench_queries())
    bench_replay()


if __name__ == "__main__":
    main()
