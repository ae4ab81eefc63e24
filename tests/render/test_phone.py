"""The phone rule for every picture, and seat colours that survive colour blindness.

Rule (bot/render/common.py): shown 400 px wide, as a phone shows an image, the smallest text's
rendered glyph height ("Hg", cap top to descender) is at least 9 px, and the turn picture is at
most 1.8 times as tall as it is wide (it fits a portrait phone screen without scrolling).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import pytest
from PIL import Image, ImageColor
from pydantic import BaseModel

from bot.render import first_in_flight, renderer_for
from bot.render.common import (
    PHONE_ASPECT,
    PHONE_GLYPH_PX,
    PHONE_WIDTH,
    SEAT_COLOURS,
    glyph_height,
    trace_fonts,
)
from bot.render.fif_board import GUSTAVE_COLOUR
from bot.render.samples import after_moves, final, play_until
from rules import GAMES

NAMES = ["Alice", "Bob", "Chandrasekhar the Magnificent", "Dee"]


def _takeoff_pending(state: Any) -> bool:
    """A card is being placed (the private picture frames its seats)."""
    return state.pending is not None and not state.over


def _takeoff_pinch() -> Any:
    """Full hands during Pinch: the private picture shows both hands."""
    from tests.rules.takeoff.helpers import Y, play, rig

    hands = (
        ("pinch", "window", "drunk", "aisle", "stretcher"),
        ("aisle", "stretcher", "middle", "window", "drunk"),
    )
    state, _ = play(rig(hands=hands), Y, "play:pinch")
    return state


def _fif_flying(state: Any) -> bool:
    """A Flight with a few cards in its row."""
    return state.flight is not None and len(state.flight.row) >= 4


SAMPLES: dict[str, list[tuple[str, Callable[[], Any]]]] = {
    "takeoff": [
        ("start", lambda: after_moves("takeoff", 2, 0)),
        ("placing", lambda: play_until("takeoff", 2, 5, _takeoff_pending)),
        ("pinch", _takeoff_pinch),
        ("middle", lambda: after_moves("takeoff", 2, 40)),
        ("final", lambda: final("takeoff", 2)),
    ],
    "flight": [
        ("start", lambda: after_moves("flight", 4, 0)),
        ("middle", lambda: after_moves("flight", 4, 60, seed=2)),
        ("final-2p", lambda: final("flight", 2)),
        ("final-4p", lambda: final("flight", 4)),
    ],
    "first-in-flight": [
        ("start-4p", lambda: after_moves("first-in-flight", 4, 10)),
        ("flying-4p", lambda: play_until("first-in-flight", 4, 3, _fif_flying)),
        ("late-4p", lambda: after_moves("first-in-flight", 4, 400)),
        ("final-4p", lambda: final("first-in-flight", 4)),
        ("final-1p", lambda: final("first-in-flight", 1)),
    ],
}
# Games whose "Whole table" is paged: every page is a picture the bot posts.
TABLE_PAGES: dict[str, Callable[..., list[Image.Image]]] = {
    "first-in-flight": first_in_flight.render_table_pages,
}
CASES = [(game, moment, make) for game, moments in SAMPLES.items() for moment, make in moments]


def _pictures(game_id: str, state: Any) -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    """Every picture the bot posts for a state: the board, the live picture, each seat's view."""
    game = GAMES[game_id]
    renderer = renderer_for(game_id)
    assert renderer is not None
    names = NAMES[: state.players] if hasattr(state, "players") else NAMES[:2]
    public = game.view(state, None)

    def draw(fn: Callable[..., Image.Image], view: BaseModel) -> Callable[[], Image.Image]:
        return lambda: fn(view, names=names)

    yield "board", draw(renderer.board, public)
    if renderer.live is not None:
        yield "live", draw(renderer.live, public)
    pages = TABLE_PAGES.get(game_id)
    if pages is not None:  # the "Whole table" button sends every page
        for i in range(len(pages(public, names=names))):  # each page drawn under the tracer
            yield f"whole table page {i + 1}", lambda i=i: pages(public, names=names)[i]
    elif renderer.table is not None:
        yield "whole table", draw(renderer.table, public)
    for seat in range(len(names)):
        yield f"seat {seat}", draw(renderer.private, game.view(state, seat))


@pytest.mark.parametrize(
    ("game_id", "moment", "make"), CASES, ids=[f"{g}-{m}" for g, m, _ in CASES]
)
def test_every_picture_reads_on_a_phone(game_id: str, moment: str, make: Callable[[], Any]) -> None:
    """At 400 px wide no text is under 9 px tall, and every picture fits a phone screen."""
    state = make()
    for label, draw in _pictures(game_id, state):
        with trace_fonts() as sizes:
            image = draw()
        assert sizes, f"{label}: no text drawn"
        scale = PHONE_WIDTH / image.width
        smallest = min(glyph_height(size, bold=bold) for size, bold in sizes) * scale
        assert smallest >= PHONE_GLYPH_PX, f"{label}: text {smallest:.1f} px tall at 400 px"
        assert image.height <= PHONE_ASPECT * image.width, f"{label}: {image.size} too tall"


def test_the_rule_measures_rendered_ink() -> None:
    """The glyph height is measured from rendered pixels, and grows with the font size."""
    from bot.render.common import canvas, font

    image, draw = canvas(100, 60, "#ffffff")
    draw.text((10, 10), "Hg", font=font(20), fill="#000000")
    top, bottom = _ink_rows(image)
    assert abs((bottom - top) - glyph_height(20)) <= 1
    assert glyph_height(15) < glyph_height(16) < glyph_height(20)


def _ink_rows(image: Image.Image) -> tuple[int, int]:
    """First and last row with dark pixels."""
    box = image.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()
    assert box is not None
    return box[1], box[3]


# ---------------------------------------------------------------- colour blindness

# Machado, Oliveira & Fernandes (2009) simulation matrices at full severity, on linear RGB.
SIMULATIONS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
# CIE76 ΔE: ~2.3 is just noticeable; 15 is plainly different at a glance, stone against stone.
MIN_DELTA_E = 15.0
Matrix = tuple[tuple[float, float, float], ...]


def _linear(channel: int) -> float:
    """sRGB channel (0–255) to linear light."""
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(colour: str, matrix: Matrix | None) -> tuple[float, float, float]:
    """CIELAB of a colour as seen with the simulated deficiency (None = typical vision)."""
    rgb = [_linear(c) for c in ImageColor.getrgb(colour)[:3]]
    if matrix is not None:
        rgb = [
            min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
        ]
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def _delta_e(a: str, b: str, matrix: Matrix | None) -> float:
    """CIE76 colour difference of two colours under a simulation."""
    la, lb = _lab(a, matrix), _lab(b, matrix)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)


@pytest.mark.parametrize("vision", [None, *SIMULATIONS])
def test_seat_colours_stay_apart_for_colour_blind_players(vision: str | None) -> None:
    """Every pair of seat colours (and Gustave's grey against First in Flight's four seats)
    differs by at least ΔE 15 under protanopia, deuteranopia and tritanopia."""
    matrix = SIMULATIONS[vision] if vision else None
    pairs = [*combinations(SEAT_COLOURS, 2), *((GUSTAVE_COLOUR, c) for c in SEAT_COLOURS[:4])]
    worst = min(pairs, key=lambda p: _delta_e(*p, matrix))
    assert _delta_e(*worst, matrix) >= MIN_DELTA_E, f"{vision}: {worst} too close"


def test_the_simulation_tells_a_classic_confusion_apart_from_a_safe_pair() -> None:
    """Sanity check: red/green collapses under deuteranopia, blue/orange does not."""
    deut = SIMULATIONS["deuteranopia"]
    assert _delta_e("#d62728", "#2ca02c", None) > 40
    assert _delta_e("#c8553d", "#6b8e23", deut) < MIN_DELTA_E
    assert _delta_e("#0072b2", "#e69f00", deut) > 40
