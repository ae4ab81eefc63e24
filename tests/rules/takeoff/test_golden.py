"""Golden replays: seed + options + action keys must reproduce the stored outcome and board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.takeoff import GAME, TakeoffState

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def _board_text(state: TakeoffState) -> str:
    """The board as one character per seat: . free, Y yellow, B blue."""
    return "".join("." if owner < 0 else "YB"[owner] for owner in state.board)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay(path: Path) -> None:
    """Replaying the stored action keys gives the same final board, scores and end reason."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    state = GAME.new_game(data["seed"], 2, data["options"])
    for seat, key in data["actions"]:
        state = GAME.apply(state, seat, key).state
    outcome = GAME.outcome(state)
    expected = data["expected"]
    assert outcome is not None
    assert list(outcome.scores) == expected["scores"]
    assert list(outcome.winners) == expected["winners"]
    assert outcome.reason == expected["reason"]
    assert state.pass_number == expected["pass_number"]
    assert _board_text(state) == expected["board"]


def test_golden_files_exist() -> None:
    """At least three stored games guard against regressions."""
    assert len(GOLDEN) >= 3
