"""Scoring versions A and B and ties (rulebook "Count Version A" / "Count Version B")."""

from __future__ import annotations

import pytest

from rules.takeoff import GAME

from .helpers import BL, Y, fill_row, rig


def final(stones: dict[str, int], scoring: str) -> tuple[int, ...]:
    """Final scores of a finished rigged game."""
    state = rig(stones=stones, options={"scoring": scoring}, over=True, end_reason="test")
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.scores


@pytest.mark.parametrize(("scoring", "business", "economy"), [("A", 10, 5), ("B", 11, 7)])
def test_full_single_rows_score_the_rulebook_totals(
    scoring: str, business: int, economy: int
) -> None:
    """A: complete Business row 10, Economy 5. B: 11 and 7 (table in Version B)."""
    assert final(fill_row(2, Y, "ABC"), scoring) == (business, 0)
    assert final(fill_row(8, BL, "DEF"), scoring) == (0, economy)


def test_version_b_values_seats_by_popularity() -> None:
    """B: Business aisle 5, middle 1, window 3; Economy aisle 2, middle 1, window 3."""
    stones = {"1C": Y, "1B": Y, "1F": Y, "5D": BL, "5E": BL, "5A": BL}
    assert final(stones, "B") == (9, 6)
    assert final(stones, "A") == (6, 3)


def test_mixed_row_gets_no_bonus() -> None:
    """Only a single row occupied by one colour earns the bonus."""
    assert final({"4A": Y, "4B": Y, "4C": BL}, "A") == (2, 1)


def test_equal_scores_are_a_draw() -> None:
    """Ruling: ties are a draw — both players share rank 1."""
    state = rig(stones={"4A": Y, "6F": BL}, over=True, end_reason="test")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.winners == (Y, BL)


def test_scores_so_far_are_public() -> None:
    """The public view carries running scores for the board image."""
    view = GAME.view(rig(stones=fill_row(1, Y, "ABC")), None)
    assert view.scores == (11, 0) and view.rows[0].protected == (True, False)
