"""State version 2: a game stored by version 1 (before the write-only fields went) plays on."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules.first_in_flight import GAME
from rules.first_in_flight.auto import choose

STORED = Path(__file__).parent / "stored" / "v1-two-in-flight.json"
DROPPED = ("turn_seat", "year_used", "reduced_to")


def _fixture() -> dict[str, Any]:
    """The version-1 snapshot (made by the code before the upgrade) and how it was reached."""
    return dict(json.loads(STORED.read_text(encoding="utf-8")))


def test_the_fixture_is_a_real_version_1_game_in_a_flight() -> None:
    """The stored snapshot carries version 1 and the fields version 2 drops."""
    stored = _fixture()["stored"]
    assert stored["v"] == 1 and GAME.STATE_VERSION == 2
    assert "turn_seat" in stored["state"] and "year_used" in stored["state"]["seats"][0]
    assert stored["state"]["flight"]["row"] and "reduced_to" in stored["state"]["flight"]["row"][0]


def test_a_version_1_game_loads_as_the_same_game() -> None:
    """Upgraded, the stored game equals replaying its recorded moves with today's engine."""
    fixture = _fixture()
    loaded = GAME.load_state(fixture["stored"])
    state = GAME.new_game(fixture["seed"], fixture["players"], fixture["options"])
    for seat, key in fixture["actions"]:
        state = GAME.apply(state, seat, key).state
    assert loaded == state
    dumped = json.dumps(GAME.dump_state(loaded))
    assert GAME.dump_state(loaded)["v"] == 2
    assert not any(f'"{field}"' in dumped for field in DROPPED)


def test_a_version_1_game_plays_on_to_the_end() -> None:
    """The loaded game keeps going: legal moves, a finished Flight, and a final outcome."""
    state = GAME.load_state(_fixture()["stored"])
    seat = GAME.active_players(state)[0]
    assert GAME.legal_actions(state, seat)
    rng = random.Random(5)
    for _ in range(5000):
        active = GAME.active_players(state)
        if not active:
            break
        legal = GAME.legal_actions(state, active[0])
        state = GAME.apply(state, active[0], choose(state, active[0], legal, rng)).state
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ending is not None
    assert GAME.load_state(json.loads(json.dumps(GAME.dump_state(state)))) == state


def test_a_state_from_a_newer_version_is_refused() -> None:
    """A snapshot written by a future engine is not guessed at."""
    stored = _fixture()["stored"]
    with pytest.raises(ValueError, match="version 3"):
        GAME.load_state({**stored, "v": 3})
