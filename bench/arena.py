"""AI arena: AI levels play each other; prints win rates (95 % CIs) and decision times.

Usage: python -m bench.arena --game takeoff --seats hard,easy --games 1000 --jobs 2
Seats rotate between games so every level sits in every position equally often. For First in
Flight, `auto` is the simulator's automatic player (it reads the full state; a baseline only).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

import rules
from rules.core.ai import LEVELS, ai_rng, decide

STEP_LIMIT = 50000


@dataclass
class Tally:
    """Wins (shared wins split) and decision times by level."""

    games: int = 0
    seats: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    wins: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    automa_wins: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def merge(self, other: Tally) -> None:
        """Add another tally's figures."""
        self.games += other.games
        self.automa_wins += other.automa_wins
        for level, n in other.seats.items():
            self.seats[level] += n
        for level, w in other.wins.items():
            self.wins[level] += w
        for level, ts in other.times.items():
            self.times[level].extend(ts)


def _choose(game: Any, state: Any, seat: int, level: str, seed: int, actions: int) -> str:
    """One decision by a level (or the simulator's `auto` player)."""
    if level == "auto":
        from rules.first_in_flight.auto import choose

        legal = game.legal_actions(state, seat)
        return choose(state, seat, legal, ai_rng(seed, actions, seat))
    return decide(game, state, seat, level, seed, actions)


def play_one(job: tuple[str, int, tuple[str, ...], dict[str, Any]]) -> Tally:
    """One game; seat i plays level levels[i]."""
    game_id, seed, levels, options = job
    game = rules.get_game(game_id)
    state = game.new_game(seed, len(levels), options or None)
    tally = Tally(games=1)
    for actions in range(STEP_LIMIT):
        active = game.active_players(state)
        if not active:
            break
        seat = active[0]
        start = time.perf_counter()
        key = _choose(game, state, seat, levels[seat], seed, actions)
        tally.times[levels[seat]].append(time.perf_counter() - start)
        state = game.apply(state, seat, key).state
    outcome = game.outcome(state)
    if outcome is None:
        raise RuntimeError(f"{game_id} game {seed} did not finish")
    if not outcome.winners:
        tally.automa_wins += 1
    for seat, level in enumerate(levels):
        tally.seats[level] += 1
        if seat in outcome.winners:
            tally.wins[level] += 1 / len(outcome.winners)
    return tally


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate."""
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def jobs_for(
    game_id: str, seats: list[str], games: int, seed: int, options: dict[str, Any]
) -> list[tuple[str, int, tuple[str, ...], dict[str, Any]]]:
    """The games to play, seats rotated one place per game."""
    n = len(seats)
    return [
        (game_id, seed + i, tuple(seats[(j - i) % n] for j in range(n)), options)
        for i in range(games)
    ]


def run(
    game_id: str, seats: list[str], games: int, seed: int, jobs: int, options: dict[str, Any]
) -> Tally:
    """Play all games (in `jobs` processes) and sum the tallies."""
    work = jobs_for(game_id, seats, games, seed, options)
    total = Tally()
    if jobs <= 1:
        for part in map(play_one, work):
            total.merge(part)
        return total
    with Pool(jobs) as pool:
        for part in pool.imap_unordered(play_one, work, chunksize=2):
            total.merge(part)
    return total


def report(tally: Tally, game_id: str, seats: list[str]) -> str:
    """The printed table: win rate per level with its CI, and decision times."""
    lines = [f"{tally.games} games of {game_id}, seats {','.join(seats)} (rotated)"]
    lines.append(
        f"{'level':8} {'seats':>6} {'wins':>8} {'rate':>7}  95% CI           p50 ms  p95 ms"
    )
    for level in dict.fromkeys(seats):
        n = tally.seats[level]
        wins = tally.wins[level]
        low, high = wilson(wins, n)
        times = tally.times[level]
        lines.append(
            f"{level:8} {n:6} {wins:8.1f} {wins / max(n, 1):7.1%}  [{low:5.1%}, {high:5.1%}]"
            f"  {1000 * percentile(times, 0.5):6.1f}  {1000 * percentile(times, 0.95):6.1f}"
        )
    if tally.automa_wins:
        rate = tally.automa_wins / max(tally.games, 1)
        lines.append(f"Gustave won {tally.automa_wins} games ({rate:.1%})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="takeoff", choices=sorted(rules.GAMES))
    parser.add_argument("--seats", default="normal,easy", help="levels, one per seat")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--options", default="{}", help="game options as JSON")
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    seats = args.seats.split(",")
    for level in seats:
        if level not in (*LEVELS, "auto"):
            parser.error(f"unknown level {level!r}")
    tally = run(args.game, seats, args.games, args.seed, args.jobs, json.loads(args.options))
    sys.stdout.write(report(tally, args.game, seats) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
