"""The phone rule over the pictures test_phone.py does not draw: end-of-game charts of every game
and player count, the /stats chart, every /card picture and the replay frames.

Rule (bot/render/common.py): as shown on a phone — 400 px wide, or its own width when narrower
(Discord never enlarges a small picture) — no text is under 9 px tall, and the picture is at
most 1.8 times as tall as it is wide.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.edge.endchart import chart_png, end_chart
from bot.render.card import card_image
from bot.render.charts import scores_chart, skill_chart
from bot.render.common import PHONE_ASPECT, PHONE_GLYPH_PX, PHONE_WIDTH, glyph_height, trace_fonts
from bot.render.replay import board, downscale, frames, sample
from bot.services.timeline import turn_views
from rules import GAMES
from rules.catalogue import catalogue
from tests.support.gamelog import played


def shown_scale(width: int) -> float:
    """How much a phone shrinks a picture this wide (never enlarges it)."""
    return min(1.0, PHONE_WIDTH / width)


def smallest_text(sizes: set[tuple[int, bool]], scale: float) -> float:
    """The smallest traced text's glyph height at `scale`."""
    assert sizes, "no text drawn"
    return min(glyph_height(size, bold=bold) for size, bold in sizes) * scale


def assert_phone_rule(label: str, draw: Callable[[], Image.Image]) -> Image.Image:
    """Draw, then check the smallest text and the shape as a phone shows the picture."""
    with trace_fonts() as sizes:
        image = draw()
    smallest = smallest_text(sizes, shown_scale(image.width))
    assert smallest >= PHONE_GLYPH_PX, f"{label}: text {smallest:.1f} px tall on a phone"
    assert image.height <= PHONE_ASPECT * image.width, f"{label}: {image.size} too tall"
    return image


PLAYER_COUNTS = [
    (game.id, players)
    for game in GAMES.values()
    for players in range(game.min_players, game.max_players + 1)
]


@cache
def _log(game_id: str, players: int) -> Any:
    """A finished seeded game (Flight: a two-hand match, to keep the test quick)."""
    options = {"match": "hands", "hands": 2} if game_id == "flight" else None
    return played(game_id, players, seed=players, options=options)


@pytest.mark.parametrize(("game_id", "players"), PLAYER_COUNTS, ids=lambda v: str(v))
def test_end_of_game_chart_reads_on_a_phone(game_id: str, players: int) -> None:
    """Every game's end chart, 1 to 5 players, passes the phone rule and names every line."""
    log = _log(game_id, players)
    chart = end_chart(log.loaded, log)
    assert chart is not None, f"{game_id} with {players} players posts no end chart"
    assert set(log.loaded.names) <= set(chart.names)
    assert_phone_rule(f"{game_id} {players}p", lambda: _decoded(chart_png(chart)))


def _decoded(data: bytes) -> Image.Image:
    """A PNG's image (the picture exactly as posted)."""
    import io

    return Image.open(io.BytesIO(data)).convert("RGB")


LONG_NAMES = ["Alice", "Bob", "Chandrasekhar the Magnificent", "Dee", "Evangeline"]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_score_chart_with_long_names_reads_on_a_phone(players: int) -> None:
    """Long player names in the legend keep every text readable."""
    scores = [tuple((n + 1) * (k + 3) for k in range(players)) for n in range(8)]
    labels = [f"Hand {n + 1}" for n in range(8)]
    assert_phone_rule(
        f"{players}p",
        lambda: scores_chart("Score after each hand", labels, scores, LONG_NAMES[:players]),
    )


@pytest.mark.parametrize("games", [1, 2, 30])
def test_stats_chart_reads_on_a_phone(games: int) -> None:
    """The skill estimate chart after 1, 2 and 30 games, for one and for three game titles."""
    one = [("Flight", [25.0 + (n % 7) - 3 for n in range(games)])]
    three = [
        *one,
        ("Takeoff!", [22.0] * games),
        ("First in Flight", [30.5 - n for n in range(games)]),
    ]
    assert_phone_rule(f"{games} games", lambda: skill_chart(one))
    assert_phone_rule(f"{games} games, three titles", lambda: skill_chart(three))


@pytest.mark.parametrize("entry", catalogue(), ids=lambda e: e.key)
def test_every_card_picture_reads_on_a_phone(entry: Any) -> None:
    """/card: every card of every game has a picture, and it reads as shown."""
    assert_phone_rule(entry.key, lambda: card_image(entry))


REPLAYS = [("takeoff", 2), ("flight", 3), ("first-in-flight", 2), ("first-in-flight", 4)]


@pytest.mark.parametrize(("game_id", "players"), REPLAYS, ids=lambda v: str(v))
def test_replay_frames_read_on_a_phone(game_id: str, players: int) -> None:
    """Each replay frame is a board shrunk to fit the animation and padded to its size: its
    text, shrunk by both, still reads on a phone, and the animation fits a phone screen."""
    log = _log(game_id, players)
    views = turn_views(log)
    names = log.loaded.names
    canvas = frames(game_id, views, names)[0].size
    assert canvas[1] <= PHONE_ASPECT * canvas[0], f"{game_id}: frames {canvas} too tall"
    for index in [*sample(len(views))[:: max(1, len(sample(len(views))) // 6)], len(views) - 1]:
        with trace_fonts() as sizes:
            full = board(game_id, views[index], names)
        shrink = downscale(full).width / full.width
        smallest = smallest_text(sizes, shrink * shown_scale(canvas[0]))
        assert smallest >= PHONE_GLYPH_PX, (
            f"{game_id} frame {index}: text {smallest:.1f} px tall on a phone"
        )
