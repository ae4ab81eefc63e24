"""First in Flight records: the record track 0–40+ and, at the end, the standings chart."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.common import HIGHLIGHT, INK, MUTED, canvas, font
from bot.render.fif_board import (
    INNER,
    LINE,
    MARGIN,
    PANEL,
    WIDTH,
    seat_colour,
    seat_name,
    text,
    tint,
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
    trackers = [(s.record, s.seat) for s in view.seats]
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

Entry = tuple[int | None, int, int]  # (seat or None for Gustave, record, Year it was set)


def entries(view_seats: Sequence[tuple[int, int, int]], gustave: int | None) -> list[Entry]:
    """Every record holder: players (seat, record, Year set) and Gustave (Year unknown: 0)."""
    rows: list[Entry] = [(s, r, y) for s, r, y in view_seats]
    if gustave is not None:
        rows.append((None, gustave, 0))
    return rows


def winners(rows: Sequence[Entry], trigger: str) -> set[int | None]:
    """Who won: highest record; a tie goes to whoever reached 40 and ended the game, else shared."""
    best = max(r for _, r, _ in rows)
    top = {s for s, r, _ in rows if r == best}
    triggered: int | str | None = "none"
    if trigger == "gustave":
        triggered = None
    elif trigger.startswith("seat"):
        triggered = int(trigger[4:])
    if len(top) > 1 and triggered in top:
        return {triggered}  # type: ignore[arg-type]
    return top


def standings_height(rows: Sequence[Entry]) -> int:
    """Height of the standings panel with its chart."""
    return 48 + len(rows) * ROW_H + 40


def draw_standings(
    draw: ImageDraw.ImageDraw, rows: Sequence[Entry], names: Sequence[str], trigger: str, y: int
) -> None:
    """Ranked players with their record as a bar on a 0–40+ scale, the winner(s) marked."""
    won = winners(rows, trigger)
    height = standings_height(rows)
    draw.rounded_rectangle(
        (MARGIN, y, MARGIN + INNER, y + height - 8), radius=10, fill=PANEL, outline=WIN, width=3
    )
    champions = " & ".join(seat_name(names, s) for s, _, _ in rows if s in won)
    text(draw, (MARGIN + 12, y + 8), f"Game over — {champions} won", 19, bold=True, fill=WIN)
    scale = max(45, *(r + 3 for _, r, _ in rows))
    top = y + 42
    x40 = BAR_X0 + round((BAR_X1 - BAR_X0) * 40 / scale)
    ranked = sorted(rows, key=lambda e: (-e[1], e[0] is None, e[0] or 0))
    for i, (seat, record, year) in enumerate(ranked):
        row_y = top + i * ROW_H
        rank = 1 + sum(1 for _, r, _ in rows if r > record)
        mark = "★" if seat in won else f"{rank}."
        text(draw, (MARGIN + 12, row_y + 4), mark, 15, bold=True, fill=WIN if seat in won else INK)
        draw.ellipse(
            (MARGIN + 40, row_y + 6, MARGIN + 56, row_y + 22),
            fill=seat_colour(seat),
            outline=INK,
            width=2,
        )
        text(
            draw,
            (MARGIN + 62, row_y + 4),
            seat_name(names, seat),
            15,
            bold=seat in won,
            max_width=BAR_X0 - MARGIN - 70,
        )
        end = BAR_X0 + round((BAR_X1 - BAR_X0) * record / scale)
        colour = seat_colour(seat)
        draw.rectangle(
            (BAR_X0, row_y + 5, max(BAR_X0 + 2, end), row_y + 23),
            fill=tint(colour, 0.3),
            outline=colour,
        )
        draw.text(
            (end + 6, row_y + 14), str(record), font=font(15, bold=True), fill=INK, anchor="lm"
        )
        when = f"set in Year {year}" if year else ("automa" if seat is None else "never flew")
        text(
            draw,
            (BAR_X1 + 34, row_y + 4),
            when,
            14,
            fill=MUTED,
            max_width=MARGIN + INNER - BAR_X1 - 40,
        )
    bottom = top + len(rows) * ROW_H
    draw.line((x40, top - 4, x40, bottom), fill=LINE, width=2)
    draw.text((x40, bottom + 2), "40", font=font(14, bold=True), fill=MUTED, anchor="ma")
    draw.text((BAR_X0, bottom + 2), "0", font=font(14), fill=MUTED, anchor="ma")
