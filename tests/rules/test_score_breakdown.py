"""Issue 28: Takeoff! and Flight end with a per-player score breakdown that sums to the scores."""

from __future__ import annotations

import random
import re

import pytest

from rules.core import Game
from rules.flight import GAME as FLIGHT
from rules.flight.scoring import score_parts as flight_parts
from rules.flight.state import FlightOptions
from rules.takeoff import GAME as TAKEOFF
from rules.takeoff.scoring import score, score_parts

MINUS = "\u2212"


def finished(game: Game, seed: int, players: int, options: dict[str, object]) -> object:
    """A game played to its end by random legal moves."""
    rng = random.Random(seed)
    state = game.new_game(seed, players, options)
    for _ in range(20000):
        if game.outcome(state) is not None:
            return state
        seat = game.active_players(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
    raise AssertionError("the game did not end")


def signed_sum(line: str) -> int:
    """The signed figures before '=' of a breakdown line ('+25', '−3'), added up."""
    head = line.split(" = ")[0]
    return sum(int(m.replace(MINUS, "-")) for m in re.findall(rf"[+{MINUS}]\d+", head))


def total_of(line: str) -> int:
    """The total after '=' ('= −3 points')."""
    match = re.search(rf"= ({MINUS}?\d+) points?", line)
    assert match, line
    return int(match.group(1).replace(MINUS, "-"))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("version", ["A", "B"])
def test_takeoff_breakdown_sums_to_the_scores(seed: int, version: str) -> None:
    state = finished(TAKEOFF, seed, 2, {"scoring": version})
    outcome = TAKEOFF.outcome(state)
    assert outcome is not None
    lines = TAKEOFF.score_breakdown(state)
    assert len(lines) == 2
    opts = state.options  # type: ignore[attr-defined]
    for seat, line in enumerate(lines):
        parts = score_parts(state.board, seat, version, opts.business_rows)  # type: ignore[attr-defined]
        points = sum(v for k, v in parts.items() if k.endswith("_points"))
        assert points == score(state.board, seat, version, opts.business_rows)  # type: ignore[attr-defined]
        assert points == outcome.scores[seat]
        assert line.startswith(f"{{seat{seat}}}: Business ") and "; Economy " in line
        assert signed_sum(line) == total_of(line) == outcome.scores[seat]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_flight_breakdown_sums_to_the_scores(seed: int, players: int) -> None:
    state = finished(FLIGHT, seed, players, {"match": "hands", "hands": 2})
    outcome = FLIGHT.outcome(state)
    assert outcome is not None
    results = state.results  # type: ignore[attr-defined]
    for seat, part in enumerate(flight_parts(results, players)):
        figures = ("landing_points", "first_out_points", "both_points", "penalties")
        assert sum(part[k] for k in figures) == outcome.scores[seat]
    lines = FLIGHT.score_breakdown(state)
    assert len(lines) == players
    for seat, line in enumerate(lines):
        assert line.startswith(f"{{seat{seat}}}: ") and "Safe Landing" in line
        before_hands = line.split(" (by hand")[0]
        assert signed_sum(before_hands) == total_of(line) == outcome.scores[seat]
        by_hand = line.split("(by hand: ")[1]
        assert signed_sum(by_hand) == outcome.scores[seat]
        assert "-" not in line.replace("one-colour", ""), "real minus signs only"


def test_no_breakdown_before_the_end() -> None:
    assert FLIGHT.score_breakdown(FLIGHT.new_game(1, 3, None)) == []
    assert TAKEOFF.score_breakdown(TAKEOFF.new_game(1, 2, None)) == []


def test_flight_lists_only_the_options_that_apply() -> None:
    hands = FlightOptions(match="hands")
    target = FlightOptions(match="target")
    assert not FLIGHT.option_applies(hands, "target")
    assert not FLIGHT.option_applies(hands, "max_hands")
    assert FLIGHT.option_applies(hands, "hands")
    assert FLIGHT.option_applies(target, "target") and FLIGHT.option_applies(target, "max_hands")
    assert not FLIGHT.option_applies(target, "hands")
    assert FLIGHT.option_applies(target, "match")
    assert TAKEOFF.option_applies(TAKEOFF.parse_options(None), "scoring")
