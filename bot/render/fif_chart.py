"""First in Flight records: the record track 0–40+ and, at the end, the standings chart."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import translate
from bot.render.charts import DASHES, marker, polyline
from bot.render.common import HIGHLIGHT, INK, MUTED, canvas, font, spoken, tint
from bot.render.fif_board import (
    INNER,
    LINE,
    MARGIN,
    PANEL,
    WIDTH,
    seat_colour,
    seat_name,
    text,
)
from rules.first_in_flight.view import GameView

REC_MAX = 40
REC_H = 112
REC_X0, REC_X1 = MARGIN + 74, WIDTH - MARGIN - 44


def rec_x(value: int) -> int:
    """The x of a record value on the record track (40 and above share the last cell)."""
    step = (REC_X1 - REC_X0) / REC_MAX
    return round(REC_X0 + min(value, REC_MAX) * step)


@lru_cache(maxsize=2)
def record_background(famous_at: int = 15) -> Image.Image:
    """The record track 0–40+ with its ticks, the Famous mark and the end-of-game flag."""
    image, draw = canvas(WIDTH, REC_H)
    draw.text((MARGIN, 66), "Record", font=font(15, bold=True), fill=INK)
    bar_y = 74
    draw.rounded_rectangle((REC_X0 - 8, bar_y, REC_X1 + 36, bar_y + 12), radius=6, fill="#e2dccd")
    draw.rectangle((rec_x(famous_at), bar_y, REC_X1, bar_y + 12), fill="#f3d98b")
    draw.rounded_rectangle((REC_X1, bar_y, REC_X1 + 36, bar_y + 12), radius=6, fill=HIGHLIGHT)
    for v in range(REC_MAX + 1):
        x = rec_x(v)
        tall = v % 5 == 0
        draw.line((x, bar_y - (4 if tall else 1), x, bar_y + 12), fill=INK if tall else MUTED)
        if tall:
            label = f"{v}+" if v == REC_MAX else str(v)
            draw.text((x, bar_y + 16), label, font=font(14), fill=INK, anchor="ma")
    draw.text((rec_x(famous_at) + 4, bar_y + 16), "★ Famous", font=font(14), fill="#9a7b10")
    return image


def draw_record_track(view: GameView) -> Image.Image:
    """The record track with every tracker; trackers on one value stack upwards."""
    image = record_background().copy()
    draw = ImageDraw.Draw(image)
    trackers: list[tuple[int, int | None]] = [(s.record, s.seat) for s in view.seats]
    if view.gustave_record is not None:
        trackers.append((view.gustave_record, None))
    heights: dict[int, int] = {}
    for value, seat in trackers:
        level = heights.get(min(value, REC_MAX), 0)
        heights[min(value, REC_MAX)] = level + 1
        x, y = rec_x(value), 58 - level * 12
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=seat_colour(seat), outline=INK, width=2)
        if value > REC_MAX:
            draw.text((x + 12, y), str(value), font=font(14, bold=True), fill=INK, anchor="lm")
    return image


WIN = "#1f8a4c"
ROW_H = 30
BAR_X0 = MARGIN + 200
BAR_X1 = MARGIN + INNER - 150
CHART_H = 200
CHART_X0, CHART_X1 = MARGIN + 60, MARGIN + INNER - 150

Entry = tuple[int | None, int, int]  # (seat or None for Gustave, record, Year it was set)


def entries(view_seats: Sequence[tuple[int, int, int]], gustave: int | None) -> list[Entry]:
    """Every record holder: players (seat, record, Year set) and Gustave (Year unknown: 0)."""
    rows: list[Entry] = [(s, r, y) for s, r, y in view_seats]
    if gustave is not None:
        rows.append((None, gustave, 0))
    return rows


def view_entries(view: GameView) -> list[Entry]:
    """Standings entries of a view: every player, then Gustave."""
    return entries([(s.seat, s.record, s.record_year) for s in view.seats], view.gustave_record)


def won_by(view: GameView) -> set[int | None]:
    """The winners as the engine decided them (None = Gustave)."""
    return {None} if view.gustave_won else set(view.winners)


def standings_height(view: GameView) -> int:
    """Height of the standings panel: ranked bars, then the record-per-Year chart."""
    return 48 + len(view_entries(view)) * ROW_H + 40 + CHART_H


def draw_standings(draw: ImageDraw.ImageDraw, view: GameView, names: Sequence[str], y: int) -> None:
    """Ranked players with their record as a bar on a 0–40+ scale, the winner(s) marked."""
    rows = view_entries(view)
    won = won_by(view)
    height = standings_height(view)
    draw.rounded_rectangle(
        (MARGIN, y, MARGIN + INNER, y + height - 8), radius=10, fill=PANEL, outline=WIN, width=3
    )
    lang = spoken()
    champions = " & ".join(seat_name(names, s) for s, _, _ in rows if s in won)
    over = translate(
        lang, "Game over — {players} won", players=champions or translate(lang, "nobody")
    )
    text(draw, (MARGIN + 12, y + 8), over, 19, bold=True, fill=WIN)
    if view.gustave_won:
        line = translate(lang, "Gustave had the highest record: the players compete for 2nd place.")
        text(draw, (MARGIN + 400, y + 12), line, 14, fill=MUTED, max_width=INNER - 400)
    scale = max(45, *(r + 3 for _, r, _ in rows))
    top = y + 42
    ranked = sorted(rows, key=lambda e: (-e[1], e[0] is None, e[0] or 0))
    for i, entry in enumerate(ranked):
        _standing_row(draw, entry, rows, names, won, scale, top + i * ROW_H)
    bottom = top + len(rows) * ROW_H
    x40 = BAR_X0 + round((BAR_X1 - BAR_X0) * 40 / scale)
    draw.line((x40, top - 4, x40, bottom), fill=LINE, width=2)
    draw.text((x40, bottom + 2), "40", font=font(14, bold=True), fill=MUTED, anchor="ma")
    draw.text((BAR_X0, bottom + 2), "0", font=font(14), fill=MUTED, anchor="ma")
    draw_year_chart(draw, view, names, bottom + 30)


def _standing_row(
    draw: ImageDraw.ImageDraw,
    entry: Entry,
    rows: Sequence[Entry],
    names: Sequence[str],
    won: set[int | None],
    scale: int,
    row_y: int,
) -> None:
    """One ranked line: place (★ for a winner), pawn colour, name, record bar, Year set."""
    seat, record, year = entry
    rank = 1 + sum(1 for _, r, _ in rows if r > record)
    mark = "★" if seat in won else f"{rank}."
    text(draw, (MARGIN + 12, row_y + 4), mark, 15, bold=True, fill=WIN if seat in won else INK)
    box = (MARGIN + 40, row_y + 6, MARGIN + 56, row_y + 22)
    draw.ellipse(box, fill=seat_colour(seat), outline=INK, width=2)
    name = seat_name(names, seat)
    text(draw, (MARGIN + 62, row_y + 4), name, 15, bold=seat in won, max_width=BAR_X0 - MARGIN - 70)
    end = BAR_X0 + round((BAR_X1 - BAR_X0) * record / scale)
    colour = seat_colour(seat)
    bar = (BAR_X0, row_y + 5, max(BAR_X0 + 2, end), row_y + 23)
    draw.rectangle(bar, fill=tint(colour, 0.3), outline=colour)
    draw.text((end + 6, row_y + 14), str(record), font=font(15, bold=True), fill=INK, anchor="lm")
    lang = spoken()
    if year:
        when = translate(lang, "set in Year {year}", year=year)
    else:
        when = translate(lang, "automa") if seat is None else translate(lang, "never flew")
    width = MARGIN + INNER - BAR_X1 - 40
    text(draw, (BAR_X1 + 34, row_y + 4), when, 14, fill=MUTED, max_width=width)


def _series(view: GameView) -> list[tuple[int | None, tuple[int, ...]]]:
    """Each player's (and Gustave's) record at the end of every Year, then the final record."""
    lines: list[tuple[int | None, tuple[int, ...]]] = [
        (s.seat, s.record_by_year) for s in view.seats
    ]
    if view.gustave_record is not None:
        lines.append((None, view.gustave_record_by_year))
    return lines


def draw_year_chart(
    draw: ImageDraw.ImageDraw, view: GameView, names: Sequence[str], y: int
) -> None:
    """A small line chart of every record per Year (x: Years, y: record 0–40+); each line has
    its seat's marker shape and dash style as well as its colour."""
    lines = _series(view)
    years = max(1, *(len(v) for _, v in lines))
    peak = max(40, *(max(v, default=0) for _, v in lines))
    top, bottom = y + 22, y + CHART_H - 46
    text(draw, (MARGIN + 12, y), translate(spoken(), "Record per Year"), 15, bold=True)

    def point(i: int, value: int) -> tuple[int, int]:
        span = CHART_X1 - CHART_X0
        x = CHART_X0 + (span * i // (years - 1) if years > 1 else span // 2)
        return x, bottom - round((bottom - top) * value / peak)

    for mark in (0, 15, 40):
        _, my = point(0, mark)
        draw.line((CHART_X0, my, CHART_X1, my), fill=LINE, width=2 if mark == 40 else 1)
        draw.text((CHART_X0 - 8, my), str(mark), font=font(13), fill=MUTED, anchor="rm")
    for i in range(years):
        x, _ = point(i, 0)
        label = f"Year {i + 1}" + (" (end)" if i == years - 1 else "")
        draw.text((x, bottom + 6), label, font=font(13), fill=MUTED, anchor="ma")
    for seat, values in lines:
        pts = [(float(px), float(py)) for px, py in (point(i, v) for i, v in enumerate(values))]
        colour, style = seat_colour(seat), _style(seat)
        if len(pts) > 1:  # a dark edge under each line: a yellow line shows on the cream panel
            polyline(draw, pts, DASHES[style], INK, 6)
            polyline(draw, pts, DASHES[style], colour, 3)
        for at in pts:
            marker(draw, at, style, colour, 5)
    _chart_legend(draw, lines, names, CHART_X1 + 24, top)


def _style(seat: int | None) -> int:
    """A seat's marker and dash style in charts (Gustave: the fifth, ★ dotted)."""
    return 4 if seat is None else seat


def _chart_legend(
    draw: ImageDraw.ImageDraw,
    lines: Sequence[tuple[int | None, tuple[int, ...]]],
    names: Sequence[str],
    x: int,
    y: int,
) -> None:
    """Who each line is, with the record per Year spelled out."""
    for i, (seat, values) in enumerate(lines):
        row_y = y + i * 30
        sample = [(float(x - 6), float(row_y + 8)), (float(x + 20), float(row_y + 8))]
        polyline(draw, sample, DASHES[_style(seat)], INK, 6)
        polyline(draw, sample, DASHES[_style(seat)], seat_colour(seat), 3)
        marker(draw, (x + 7, row_y + 8), _style(seat), seat_colour(seat), 5)
        name = seat_name(names, seat)
        text(draw, (x + 24, row_y), name, 13, bold=True, max_width=MARGIN + INNER - x - 30)
        series = " · ".join(str(v) for v in values)
        text(draw, (x + 24, row_y + 14), series, 12, fill=MUTED, max_width=MARGIN + INNER - x - 30)
