"""Small line charts: end-of-game scores (Takeoff! per pass, Flight per hand) and ratings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.common import INK, MUTED, SEAT_COLOURS, canvas, fit_text, font, to_png

WIDTH, HEIGHT = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 170, 48, 52


@dataclass(frozen=True)
class Line:
    """One series: its name, colour and values (one per x position)."""

    name: str
    colour: str
    values: tuple[float, ...]


def line_chart(title: str, labels: Sequence[str], lines: Sequence[Line]) -> Image.Image:
    """A titled chart: x labels below, a y scale on the left, a legend on the right."""
    image, draw = canvas(WIDTH, HEIGHT)
    draw.text((LEFT, 14), title, font=font(18, bold=True), fill=INK)
    values = [v for line in lines for v in line.values] or [0.0]
    low, high = min(0.0, min(values)), max(values)
    high = high if high > low else low + 1
    box = (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM)
    _axes(draw, box, low, high)
    _x_labels(draw, box, labels)
    for n, line in enumerate(lines):
        points = [_point(box, i, len(labels), v, low, high) for i, v in enumerate(line.values)]
        if len(points) > 1:
            draw.line(points, fill=line.colour, width=3, joint="curve")
        if len(points) <= 40:
            for x, y in points:
                draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=line.colour)
        _legend(draw, n, line)
    return image


def _point(
    box: tuple[int, int, int, int], i: int, count: int, value: float, low: float, high: float
) -> tuple[float, float]:
    """Pixel position of value `i` of `count`."""
    x0, y0, x1, y1 = box
    x = x0 + (x1 - x0) * (i / (count - 1) if count > 1 else 0.5)
    y = y1 - (y1 - y0) * (value - low) / (high - low)
    return x, y


def _axes(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], low: float, high: float
) -> None:
    """Frame, four grid lines and their values."""
    x0, y0, x1, y1 = box
    for k in range(5):
        y = y1 - (y1 - y0) * k / 4
        draw.line((x0, y, x1, y), fill="#ddd6c6")
        value = low + (high - low) * k / 4
        draw.text((x0 - 8, y), f"{value:.0f}", font=font(13), fill=MUTED, anchor="rm")
    draw.line((x0, y0, x0, y1), fill=INK)
    draw.line((x0, y1, x1, y1), fill=INK)


def _x_labels(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], labels: Sequence[str]
) -> None:
    """At most ten x labels, spread evenly."""
    x0, _, x1, y1 = box
    count = len(labels)
    step = max(1, -(-count // 10))
    for i in range(0, count, step):
        x = x0 + (x1 - x0) * (i / (count - 1) if count > 1 else 0.5)
        draw.text((x, y1 + 8), labels[i], font=font(13), fill=INK, anchor="ma")


def _legend(draw: ImageDraw.ImageDraw, n: int, line: Line) -> None:
    """One legend row on the right."""
    x, y = WIDTH - RIGHT + 16, TOP + 6 + n * 24
    draw.rectangle((x, y, x + 14, y + 14), fill=line.colour)
    label = fit_text(line.name, RIGHT - 44, 14)
    draw.text((x + 20, y + 7), label, font=font(14), fill=INK, anchor="lm")


def scores_png(
    title: str, labels: Sequence[str], scores: Sequence[Sequence[int]], names: Sequence[str]
) -> bytes:
    """End-of-game chart: one line per seat through the checkpoints."""
    lines = [
        Line(name, SEAT_COLOURS[seat % len(SEAT_COLOURS)], tuple(float(s[seat]) for s in scores))
        for seat, name in enumerate(names)
    ]
    return to_png(line_chart(title, labels, lines))


def ratings_png(series: Sequence[tuple[str, Sequence[float]]]) -> bytes:
    """Rating (mu − 3σ) after each rated game, one line per game title."""
    longest = max((len(values) for _, values in series), default=0)
    labels = [str(i + 1) for i in range(longest)]
    lines = [
        Line(title, SEAT_COLOURS[(n + 1) % len(SEAT_COLOURS)], tuple(values))
        for n, (title, values) in enumerate(series)
    ]
    return to_png(line_chart("Rating after each game", labels, lines))
