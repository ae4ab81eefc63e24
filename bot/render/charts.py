"""Line charts a person can read on a phone: end-of-game scores (Takeoff! per pass, Flight per
hand) and a player's skill estimate after each game (/stats).

Drawn with Pillow rather than matplotlib: importing matplotlib.pyplot (Agg, 3.9 with numpy)
grows a process by 48 MiB RSS / 42 MiB PSS, 52 / 46 MiB after one chart, and takes 0.8 s
(measured for issue 28; the whole bot must stay under 160 MiB PSS), while these charts need
only lines, markers, 1-2-5 ticks and a legend. Each series has its own
marker shape AND line style (the seat symbols ● ■ ▲ ◆ ★), so colour is never the only cue, and
every line and marker has a dark edge so a yellow series still shows on the cream background.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, translate
from bot.render.common import (
    INK,
    MUTED,
    SEAT_COLOURS,
    canvas,
    fit_text,
    font,
    speaking,
    spoken,
    text_width,
    to_png,
)

WIDTH = 600  # shown 400 px wide on a phone: 16 px text reads at 10 px, above the 9 px rule
TEXT = 16
TITLE = 20
PLOT_TOP, PLOT_H, RIGHT = 78, 250, 28
LEGEND_ROW = 30
GRID = "#ddd6c6"
MAX_TICKS = 6
MAX_MARKERS = 40
# Dash patterns (on, off, on, off … in px) per style; None is a solid line.
DASHES: tuple[tuple[int, ...] | None, ...] = (None, (14, 7), (4, 6), (16, 5, 4, 5), (26, 8))
MARKERS = ("circle", "square", "triangle", "diamond", "star")
MINUS = "\u2212"  # a real minus sign: "-3" in a hyphen reads as a dash on a phone

Point = tuple[float, float]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Line:
    """One series: its name, colour, style (marker and dashes) and values at x = 1, 2, …"""

    name: str
    colour: str
    values: tuple[float, ...]
    style: int = 0


def nice_step(span: float, *, integer: bool, most: int = MAX_TICKS) -> float:
    """The smallest 1-2-5 step (1, 2, 5, 10, 20 …) that covers `span` in at most `most` ticks."""
    exponent = math.floor(math.log10(span / most)) if span > 0 else 0
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0**exponent
            if integer and step < 1:
                continue
            if math.ceil(span / step - 1e-9) <= most - 1:
                return step
        exponent += 1


def y_ticks(low: float, high: float, *, integer: bool) -> list[float]:
    """Evenly stepped tick values covering [low, high], each a multiple of a 1-2-5 step."""
    if high - low < 1e-9:  # one value: centred on a whole number, two steps either side
        centre = round(low)
        low, high = centre - 2, centre + 2
    step = nice_step(high - low, integer=integer)
    # the ends round outwards to a multiple of the step, which may need one step more
    while math.ceil(high / step - 1e-9) - math.floor(low / step + 1e-9) > MAX_TICKS - 1:
        step = next_step(step)
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [round(k * step, 9) for k in range(first, last + 1)]


def next_step(step: float) -> float:
    """The 1-2-5 step after `step`: 1 → 2 → 5 → 10 → 20 …"""
    power = 10.0 ** math.floor(math.log10(step) + 1e-9)
    mantissa = round(step / power)
    return (2 if mantissa == 1 else 5 if mantissa == 2 else 10) * power


def x_ticks(count: int) -> list[int]:
    """Which of x = 1 … count get a label: all up to 12, else the multiples of a 1-2-5 step."""
    if count <= 12:
        return list(range(1, count + 1))
    step = int(nice_step(count, integer=True, most=8))
    return list(range(step, count + 1, step))


def tick_text(value: float, step: float) -> str:
    """A tick value with as many decimals as its step needs, and a real minus sign."""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    text = f"{abs(value):.{decimals}f}"
    return f"{MINUS}{text}" if value < 0 and float(text) != 0 else text


def line_chart(
    title: str,
    lines: Sequence[Line],
    *,
    x_title: str,
    y_title: str,
    from_zero: bool,
    whole: bool = False,
) -> Image.Image:
    """A titled chart: y axis with its title on top, x axis numbered 1, 2, … with its title
    below, and a legend under it naming each series with its marker, line style and last value.
    Ticks are whole numbers when the data is (or `whole` says the reader sees it rounded)."""
    values = [v for line in lines for v in line.values] or [0.0]
    integer = whole or all(float(v).is_integer() for v in values)
    low, high = min(values), max(values)
    ticks = y_ticks(min(0.0, low) if from_zero else low, high, integer=integer)
    labels = [tick_text(t, ticks[1] - ticks[0]) for t in ticks]
    left = 20 + max(text_width(t, TEXT) for t in labels)
    box = (left, PLOT_TOP, WIDTH - RIGHT, PLOT_TOP + PLOT_H)
    count = max((len(line.values) for line in lines), default=1)
    height = box[3] + 70 + LEGEND_ROW * len(lines) + 10
    image, draw = canvas(WIDTH, height)
    draw.text((16, 14), fit_text(title, WIDTH - 32, TITLE, bold=True), font=font(TITLE, bold=True),
              fill=INK)  # fmt: skip
    draw.text((16, PLOT_TOP - 30), y_title, font=font(TEXT, bold=True), fill=INK)
    _y_axis(draw, box, ticks, labels)
    _x_axis(draw, box, count, x_title)
    for line in lines:
        _series(draw, [_point(box, i, count, v, ticks) for i, v in enumerate(line.values)], line)
    for n, line in enumerate(lines):
        _legend(draw, (16, box[3] + 70 + n * LEGEND_ROW), line, ticks[1] - ticks[0], integer)
    return image


def _point(box: Box, i: int, count: int, value: float, ticks: Sequence[float]) -> Point:
    """Pixel position of the value at x = i + 1 of `count`."""
    x0, y0, x1, y1 = box
    pad = 18  # the first and last markers stay clear of the axes
    x = x0 + pad + (x1 - x0 - 2 * pad) * (i / (count - 1) if count > 1 else 0.5)
    y = y1 - (y1 - y0) * (value - ticks[0]) / (ticks[-1] - ticks[0])
    return x, y


def _y_axis(draw: ImageDraw.ImageDraw, box: Box, ticks: Sequence[float], labels: list[str]) -> None:
    """Grid lines at each tick with its value on the left, and the axis line."""
    x0, y0, x1, y1 = box
    for n, label in enumerate(labels):
        y = y1 - (y1 - y0) * n / (len(ticks) - 1)
        draw.line((x0, y, x1, y), fill=GRID if ticks[n] != 0 else MUTED)
        draw.text((x0 - 8, y), label, font=font(TEXT), fill=INK, anchor="rm")
    draw.line((x0, y0, x0, y1), fill=INK, width=2)
    draw.line((x0, y1, x1, y1), fill=INK, width=2)


def _x_axis(draw: ImageDraw.ImageDraw, box: Box, count: int, x_title: str) -> None:
    """Tick marks and numbers under the plot, then the axis title."""
    x0, _, x1, y1 = box
    for n in x_ticks(count):
        x, _ = _point(box, n - 1, count, 0, (0, 1))
        draw.line((x, y1, x, y1 + 5), fill=INK, width=2)
        draw.text((x, y1 + 8), str(n), font=font(TEXT), fill=INK, anchor="ma")
    draw.text(((x0 + x1) // 2, y1 + 34), x_title, font=font(TEXT, bold=True), fill=INK, anchor="ma")


def _series(draw: ImageDraw.ImageDraw, points: list[Point], line: Line) -> None:
    """The line in its dash style with a dark edge, then its markers (thinned past 40)."""
    dashes = DASHES[line.style % len(DASHES)]
    if len(points) > 1:
        polyline(draw, points, dashes, INK, 6)
        polyline(draw, points, dashes, line.colour, 3)
    every = max(1, math.ceil(len(points) / MAX_MARKERS))
    for i, (x, y) in enumerate(points):
        if i % every == 0 or i == len(points) - 1:
            marker(draw, (x, y), line.style, line.colour, 6)


def polyline(
    draw: ImageDraw.ImageDraw,
    points: list[Point],
    dashes: tuple[int, ...] | None,
    fill: str,
    width: int,
) -> None:
    """A solid or dashed polyline; the dash pattern runs on across the corners."""
    if dashes is None:
        draw.line(points, fill=fill, width=width, joint="curve")
        return
    phase, index = 0.0, 0  # distance into the current dash and which dash it is
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        length = math.hypot(bx - ax, by - ay)
        done = 0.0
        while done < length - 1e-9:
            take = min(dashes[index] - phase, length - done)
            if index % 2 == 0:
                s, e = done / length, (done + take) / length
                draw.line(
                    (
                        ax + (bx - ax) * s,
                        ay + (by - ay) * s,
                        ax + (bx - ax) * e,
                        ay + (by - ay) * e,
                    ),
                    fill=fill,
                    width=width,
                )
            done += take
            phase += take
            if phase >= dashes[index] - 1e-9:
                phase, index = 0.0, (index + 1) % len(dashes)


def marker(draw: ImageDraw.ImageDraw, at: Point, style: int, colour: str, r: float) -> None:
    """The style's marker shape (● ■ ▲ ◆ ★) filled with `colour`, edged in ink."""
    x, y = at
    shape = MARKERS[style % len(MARKERS)]
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
        return
    if shape == "square":
        s = r * 0.9
        draw.rectangle((x - s, y - s, x + s, y + s), fill=colour, outline=INK, width=2)
        return
    if shape == "triangle":
        corners = [(x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
    elif shape == "diamond":
        corners = [(x, y - r * 1.25), (x + r * 1.1, y), (x, y + r * 1.25), (x - r * 1.1, y)]
    else:
        radii = [r * 1.35 if k % 2 == 0 else r * 0.6 for k in range(10)]
        corners = [
            (x + rk * math.sin(k * math.pi / 5), y - rk * math.cos(k * math.pi / 5))
            for k, rk in enumerate(radii)
        ]
    draw.polygon(corners, fill=colour, outline=INK, width=2)


def _legend(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], line: Line, step: float, integer: bool
) -> None:
    """One legend row: a sample of the line with its marker, the name and the last value."""
    x, y = at
    mid = y + LEGEND_ROW // 2
    dashes = DASHES[line.style % len(DASHES)]
    sample = [(float(x), float(mid)), (float(x + 52), float(mid))]
    polyline(draw, sample, dashes, INK, 6)
    polyline(draw, sample, dashes, line.colour, 3)
    marker(draw, (x + 26, mid), line.style, line.colour, 6)
    last = line.values[-1] if line.values else None
    value = "" if last is None else f" — {tick_text(last, 1 if integer else min(step, 0.1))}"
    room = WIDTH - RIGHT - (x + 64)
    label = fit_text(line.name, room - text_width(value, TEXT), TEXT) + value
    draw.text((x + 64, mid), label, font=font(TEXT), fill=INK, anchor="lm")


def axis_words(labels: Sequence[str], *, language: str = ENGLISH) -> str:
    """'Pass' from 'Pass 1', 'Pass 2' …: the checkpoints' common word names the x axis (the
    labels come in the reader's language already; the fallback is said in `language`)."""
    words = {label.rsplit(" ", 1)[0] for label in labels if " " in label}
    return words.pop() if len(words) == 1 else translate(language, "Checkpoint")


def scores_png(
    title: str,
    labels: Sequence[str],
    scores: Sequence[Sequence[int]],
    names: Sequence[str],
    colours: Sequence[str] = SEAT_COLOURS,
    *,
    language: str = ENGLISH,
    y_title: str | None = None,
) -> bytes:
    """End-of-game chart: one line per seat through the checkpoints ('Pass 1', 'Hand 2' …).

    `title`, `labels` and `y_title` come in `language` already (the edge words them); without
    `y_title` the y axis is named by the English title's head ('Points' of 'Points after …').
    """
    with speaking(language):
        return to_png(scores_chart(title, labels, scores, names, colours, y_title=y_title))


def scores_chart(
    title: str,
    labels: Sequence[str],
    scores: Sequence[Sequence[int]],
    names: Sequence[str],
    colours: Sequence[str] = SEAT_COLOURS,
    *,
    y_title: str | None = None,
) -> Image.Image:
    """The end-of-game chart as an image; line n has colour n and style n (the seat's)."""
    lines = [
        Line(name, colours[n % len(colours)], tuple(float(s[n]) for s in scores), n)
        for n, name in enumerate(names)
    ]
    unit = title.split(" after ")[0] if y_title is None else y_title
    x_title = axis_words(labels, language=spoken())
    return line_chart(title, lines, x_title=x_title, y_title=unit, from_zero=True)


SKILL_TITLE = translate(ENGLISH, "Skill estimate after each game")


def skill_png(series: Sequence[tuple[str, Sequence[float]]], *, language: str = ENGLISH) -> bytes:
    """/stats chart: the skill estimate (as /stats words it) after each rated game, per game."""
    with speaking(language):
        return to_png(skill_chart(series))


def skill_chart(series: Sequence[tuple[str, Sequence[float]]]) -> Image.Image:
    """The /stats chart as an image: one line per game title, whole-number skill estimates."""
    lines = [
        Line(title, SEAT_COLOURS[(n + 1) % len(SEAT_COLOURS)], tuple(values), n + 1)
        for n, (title, values) in enumerate(series)
    ]
    language = spoken()
    # /stats shows the estimate as a whole number ("Skill estimate 21"), so the chart does too
    return line_chart(
        translate(language, "Skill estimate after each game"),
        lines,
        x_title=translate(language, "Games played"),
        y_title=translate(language, "Skill estimate"),
        from_zero=False,
        whole=True,
    )
