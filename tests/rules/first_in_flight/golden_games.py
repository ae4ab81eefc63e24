"""Golden First in Flight games: seed, players, options and action keys with the expected result.

Regenerate after a rules or card-data change that alters outcomes (review the diff first):
    .venv/bin/python -m tests.rules.first_in_flight.golden_games
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules.first_in_flight import GAME
from rules.first_in_flight.auto import choose
from rules.first_in_flight.state import State

FOLDER = Path(__file__).parent / "golden"
STEP_LIMIT = 20000

# (file stem, seed, players, options, player: "auto" = the automatic player, "random" = seeded)
GAMES: tuple[tuple[str, int, int, dict[str, Any], str], ...] = (
    ("solo", 11, 1, {}, "auto"),
    ("solo-expert-random", 12, 1, {"solo_expert": True}, "random"),
    ("two-standard", 21, 2, {}, "auto"),
    ("two-advanced-odds", 22, 2, {"gustave": "advanced", "odds_aid": True}, "auto"),
    ("four", 41, 4, {}, "auto"),
    ("four-random", 42, 4, {}, "random"),
)


def expected(state: State) -> dict[str, Any]:
    """What a replay must reproduce: the outcome and how the game ended."""
    outcome = GAME.outcome(state)
    assert outcome is not None
    return {
        "scores": list(outcome.scores),
        "ranks": list(outcome.ranks),
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "year": state.year,
        "end_trigger": state.end_trigger,
        "gustave_record": state.gustave_record if state.gustave else None,
    }


def play(seed: int, players: int, options: dict[str, Any], player: str) -> dict[str, Any]:
    """Play one game to the end and return its golden record."""
    state = GAME.new_game(seed, players, options)
    rng = random.Random(seed)
    actions: list[list[Any]] = []
    for _ in range(STEP_LIMIT):
        active = GAME.active_players(state)
        if not active:
            break
        seat = active[0]
        legal = GAME.legal_actions(state, seat)
        key = choose(state, seat, legal, rng) if player == "auto" else rng.choice(legal).key
        state = GAME.apply(state, seat, key).state
        actions.append([seat, key])
    else:
        raise RuntimeError(f"golden game {seed} did not finish")
    return {
        "seed": seed,
        "players": players,
        "options": options,
        "player": player,
        "actions": actions,
        "expected": expected(state),
    }


def main() -> None:
    """Write every golden game's JSON file."""
    FOLDER.mkdir(exist_ok=True)
    for stem, seed, players, options, player in GAMES:
        record = play(seed, players, options, player)
        path = FOLDER / f"{stem}.json"
        path.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(record['actions'])} actions, {record['expected']['reason']}")


if __name__ == "__main__":
    main()
