"""Simulate games between automatic players and print balance figures.

Usage: python -m rules.first_in_flight.simulate --games 100 --players 3
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing import Pool

from rules.first_in_flight import GAME
from rules.first_in_flight.auto import choose
from rules.first_in_flight.common import data_of
from rules.first_in_flight.state import State

STEP_LIMIT = 20000


@dataclass
class Tally:
    """Figures collected over many games."""

    games: int = 0
    by_40: Counter[int] = field(default_factory=Counter)  # Year in which 40 was reached
    by_year4: int = 0
    records: Counter[int] = field(default_factory=Counter)  # winning records, in buckets of 5
    pilot_games: Counter[str] = field(default_factory=Counter)
    pilot_wins: Counter[str] = field(default_factory=Counter)
    gustave_wins: int = 0
    turns: int = 0


def play_one(seed: int, players: int, options: dict[str, object] | None = None) -> State:
    """One full game between automatic players."""
    state = GAME.new_game(seed, players, options)
    rng = random.Random(seed)
    for _ in range(STEP_LIMIT):
        active = GAME.active_players(state)
        if not active:
            return state
        seat = active[0]
        key = choose(state, seat, GAME.legal_actions(state, seat), rng)
        state = GAME.apply(state, seat, key).state
    raise RuntimeError(f"game {seed} did not finish")


def record_game(tally: Tally, state: State, end_year: int) -> None:
    """Add one finished game to the tally."""
    outcome = GAME.outcome(state)
    assert outcome is not None
    tally.games += 1
    if state.end_trigger == -1:
        tally.by_year4 += 1
    else:
        tally.by_40[end_year] += 1
    best = max(outcome.scores)
    tally.records[best // 5 * 5] += 1
    gustave_won = outcome.automa_won
    tally.gustave_wins += int(gustave_won)
    for seat, mat in enumerate(state.seats):
        tally.pilot_games[mat.pilot] += 1
        if seat in outcome.winners and not gustave_won:
            tally.pilot_wins[mat.pilot] += 1
    tally.turns += state.turns


def report(tally: Tally, players: int) -> str:
    """The printed summary."""
    n = max(tally.games, 1)
    data = data_of(GAME.new_game(0, players, None))
    lines = [f"{tally.games} games, {players} players ({data.name})"]
    ended = ", ".join(f"Year {y}: {c}" for y, c in sorted(tally.by_40.items()))
    lines.append(f"ended by a 40+ record: {sum(tally.by_40.values())} ({ended or 'none'})")
    lines.append(f"ended after Year 4: {tally.by_year4}")
    lines.append(
        "winning record: "
        + ", ".join(f"{r}-{r + 4}: {c}" for r, c in sorted(tally.records.items()))
    )
    if tally.gustave_wins:
        lines.append(f"Gustave won: {tally.gustave_wins}")
    lines.append("win rate by Pilot:")
    for pilot in sorted(tally.pilot_games):
        games, wins = tally.pilot_games[pilot], tally.pilot_wins[pilot]
        lines.append(f"  {pilot:15} {wins:4}/{games:<4} {wins / games:6.1%}")
    played = sum(tally.pilot_games.values())
    if played:
        mean = sum(tally.pilot_wins.values()) / played
        top = max(tally.pilot_wins[p] / tally.pilot_games[p] for p in tally.pilot_games)
        ratio = f"{top / mean:.2f}x" if mean else "n/a"
        lines.append(f"Pilot balance: best {top:.1%} vs average {mean:.1%} ({ratio})")
    lines.append(
        f"mean turns per game: {tally.turns / n:.1f} ({tally.turns / n / players:.1f} per player)"
    )
    return "\n".join(lines)


def _play_tallied(job: tuple[int, int, str]) -> Tally:
    """One game as a one-game tally (runs in a worker process)."""
    seed, players, gustave = job
    tally = Tally()
    state = play_one(seed, players, {"gustave": gustave})
    record_game(tally, state, state.year)
    return tally


def merge(total: Tally, part: Tally) -> None:
    """Add one tally's figures into another."""
    total.games += part.games
    total.by_40.update(part.by_40)
    total.by_year4 += part.by_year4
    total.records.update(part.records)
    total.pilot_games.update(part.pilot_games)
    total.pilot_wins.update(part.pilot_wins)
    total.gustave_wins += part.gustave_wins
    total.turns += part.turns


def simulate(games: int, players: int, seed: int, gustave: str, jobs: int) -> Tally:
    """Play `games` games from `seed` on, in `jobs` worker processes (1 = in this process)."""
    work = [(seed + i, players, gustave) for i in range(games)]
    tally = Tally()
    if jobs <= 1:
        parts = map(_play_tallied, work)
        for part in parts:
            merge(tally, part)
        return tally
    with Pool(jobs) as pool:
        for part in pool.imap_unordered(_play_tallied, work, chunksize=4):
            merge(tally, part)
    return tally


def main(argv: list[str] | None = None) -> int:
    """Run the simulation from the command line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gustave", choices=("standard", "advanced"), default="standard")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (one per core)")
    args = parser.parse_args(argv)
    tally = simulate(args.games, args.players, args.seed, args.gustave, args.jobs)
    sys.stdout.write(report(tally, args.players) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
