"""Charts a person can read: 1-2-5 ticks, whole numbers for whole data, players told apart by
marker and line style (not colour alone), and the /stats chart in /stats's own words."""

from __future__ import annotations

import itertools
import math

import pytest
from PIL import Image, ImageChops

from bot.render.charts import (
    SKILL_TITLE,
    Line,
    line_chart,
    skill_chart,
    tick_text,
    x_ticks,
    y_ticks,
)
from bot.render.common import trace_fonts


def _steps(ticks: list[float]) -> set[float]:
    """The distinct gaps between neighbouring ticks."""
    return {round(b - a, 9) for a, b in itertools.pairwise(ticks)}


@pytest.mark.parametrize(
    ("low", "high", "integer"),
    [(-3, 3, True), (0, 1, True), (0, 137, True), (21.4, 21.4, True), (0.1, 0.35, False),
     (-48, 250, True), (18.2, 31.7, True)],
)  # fmt: skip
def test_ticks_are_even_1_2_5_steps_that_cover_the_data(
    low: float, high: float, integer: bool
) -> None:
    """Evenly spaced, never duplicated, a 1-2-5 step, whole numbers for whole data, ≤ 6 ticks."""
    ticks = y_ticks(low, high, integer=integer)
    assert ticks[0] <= low and ticks[-1] >= high
    assert 2 <= len(ticks) <= 6
    (step,) = _steps(ticks)
    assert step >= 1 or not integer
    assert round(step / 10 ** math.floor(math.log10(step)), 6) in (1, 2, 5), step
    labels = [tick_text(t, step) for t in ticks]
    assert len(set(labels)) == len(labels), labels
    if integer:
        assert all("." not in label for label in labels)


def test_the_issues_ticks_3_2_0_minus_1_minus_3_cannot_happen() -> None:
    """Data from −3 to 3 gets −4, −2, 0, 2, 4 (real minus signs), not 3, 2, 0, -1, -3."""
    ticks = y_ticks(-3, 3, integer=True)
    assert [tick_text(t, 2) for t in ticks] == ["−4", "−2", "0", "2", "4"]


def test_x_ticks_number_the_games_in_even_steps() -> None:
    """Up to 12 games are all numbered; 30 games every 5."""
    assert x_ticks(1) == [1]
    assert x_ticks(12) == list(range(1, 13))
    assert x_ticks(30) == [5, 10, 15, 20, 25, 30]


def _chart(styles: tuple[int, int]) -> Image.Image:
    """Two players in the same colour with the given styles."""
    lines = [
        Line("Alice", "#0072b2", (1.0, 4.0, 9.0, 12.0), styles[0]),
        Line("Bob", "#0072b2", (2.0, 5.0, 7.0, 10.0), styles[1]),
    ]
    return line_chart("Points after each pass", lines, x_title="Pass", y_title="Points",
                      from_zero=True)  # fmt: skip


def test_two_players_differ_without_colour() -> None:
    """With one colour for both, each player's line and marker still look different: the chart
    differs from one where both share a style, and the two legend samples differ."""
    styled, same = _chart((0, 1)), _chart((0, 0))
    assert ImageChops.difference(styled, same).getbbox() is not None
    rows = [styled.crop((16, y, 76, y + 30)) for y in _legend_rows(styled)]
    assert ImageChops.difference(rows[0], rows[1]).getbbox() is not None


def _legend_rows(image: Image.Image) -> list[int]:
    """The top of the two legend rows (the legend sits at the bottom, 30 px a row)."""
    return [image.height - 10 - 60, image.height - 10 - 30]


@pytest.mark.parametrize("style", range(5))
def test_each_style_has_its_own_marker_and_dashes(style: int) -> None:
    """No two of the five seat styles draw the same line."""
    others = [s for s in range(5) if s != style]
    for other in others:
        assert ImageChops.difference(_chart((style, 0)), _chart((other, 0))).getbbox()


def test_stats_chart_speaks_of_a_skill_estimate() -> None:
    """Its title and axis say 'skill estimate' as /stats does; ticks are whole numbers."""
    assert SKILL_TITLE == "Skill estimate after each game"
    assert "Rating" not in SKILL_TITLE
    with trace_fonts():
        image = skill_chart([("Flight", [21.4, 23.9, 22.2])])
    assert image.width == 600
