"""Golden replays: recorded games replay to the same result (regenerate: see golden_games.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.first_in_flight import GAME
from tests.rules.first_in_flight.golden_games import FOLDER, GAMES, expected

FILES = sorted(FOLDER.glob("*.json"))


def test_every_golden_game_is_recorded() -> None:
    """Solo, 2 and 4 players, by the automatic player and by seeded random play."""
    assert {p.stem for p in FILES} == {g[0] for g in GAMES}
    records = [json.loads(p.read_text(encoding="utf-8")) for p in FILES]
    assert {r["players"] for r in records} >= {1, 2, 4}
    assert {r["player"] for r in records} == {"auto", "random"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_replays_to_its_outcome(path: Path) -> None:
    """Seed + options + every action key reproduce the recorded outcome, Year and trigger."""
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    state = GAME.new_game(record["seed"], record["players"], record["options"])
    for seat, key in record["actions"]:
        assert GAME.active_players(state) == (seat,)
        state = GAME.apply(state, seat, key).state  # type: ignore[assignment]
    assert state.over, "the recorded actions finish the game"
    assert expected(state) == record["expected"]
