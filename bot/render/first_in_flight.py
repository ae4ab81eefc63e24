"""First in Flight images: the public table (track, records, mats, Flight) and a seat's view."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render import alt
from bot.render.common import BACKGROUND, HIGHLIGHT, INK, MUTED, canvas, font, tint
from bot.render.fif_board import (
    INNER,
    MARGIN,
    WIDTH,
    display_height,
    draw_display,
    draw_track,
    seat_colour,
    seat_name,
    text,
)
from bot.render.fif_chart import (
    REC_H,
    draw_record_track,
    draw_standings,
    standings_height,
    view_entries,
)
from bot.render.fif_flight import draw_flight, flight_height
from bot.render.fif_mat import (
    MAT_GAP,
    MAT_W,
    draw_mat,
    draw_mats,
    draw_private,
    mat_height,
    mats_height,
    private_height,
)
from rules.first_in_flight.view import GameView

HEADER_H = 76
FOOTER_H = 52
YEARS = 4
STEP_WORDS = {
    "draft": "choosing a Pilot",
    "turn": "taking a turn",
    "space": "choosing an action",
    "option": "choosing an action",
    "any_target": "choosing a space to copy",
    "copy_option": "choosing an action to copy",
    "repair_slot": "choosing a flaw to repair",
    "pay": "paying Money or Time",
    "dev": "choosing a card",
    "abilities": "using an ability",
    "copy": "copying an ability",
    "ignore": "choosing a Problem to ignore",
    "refresh": "refreshing a Skill",
    "look": "looking at cards",
    "pick": "choosing cards",
    "flight": "flying",
    "cleanup": "putting flaws in the Garage",
}


def _status(view: GameView, names: Sequence[str]) -> str:
    """Who decides what now, or the game's end."""
    if view.over:
        return "Game over"
    if view.deciding is None:
        return "Waiting"
    who = seat_name(names, view.deciding)
    line = f"{who}: {STEP_WORDS.get(view.step, view.step.replace('_', ' '))}"
    if view.pilot_offer:
        line += " — offered: " + ", ".join(view.pilot_offer)
    if view.end_trigger:
        line += " · final Flights"
    return line


def _header(draw: ImageDraw.ImageDraw, view: GameView, names: Sequence[str], title: str) -> None:
    """Title, the Year tracker and the status line."""
    draw.text((MARGIN, 8), title, font=font(24, bold=True), fill=INK)
    x = WIDTH - MARGIN - YEARS * 40 - 50
    draw.text((x, 14), "Year", font=font(15, bold=True), fill=INK)
    for year in range(1, YEARS + 1):
        cx = x + 50 + (year - 1) * 40
        current = year == view.year
        fill = HIGHLIGHT if current else ("#d9d3c3" if year < view.year else "#ffffff")
        draw.ellipse((cx, 6, cx + 32, 38), fill=fill, outline=INK, width=2 if current else 1)
        draw.text((cx + 16, 22), str(year), font=font(16, bold=True), fill=INK, anchor="mm")
    colour = seat_colour(view.deciding) if view.deciding is not None and not view.over else MUTED
    draw.rounded_rectangle((MARGIN, 44, WIDTH - MARGIN, 70), radius=6, fill=tint(colour, 0.7))
    text(draw, (MARGIN + 10, 47), _status(view, names), 16, bold=True, max_width=INNER - 20)


def _footer(draw: ImageDraw.ImageDraw, view: GameView, y: int, *, legend: bool) -> None:
    """The pawn legend (board only) and, while it is in use, the stand-in data note."""
    if legend:
        line = "Pawn numbers: turn order (1 acts next). A lying pawn has crashed and must Recover."
        text(draw, (MARGIN, y + 4), line, 14, fill=MUTED)
    if view.stand_in:
        note = "Card data: unofficial stand-in set"
        text(draw, (MARGIN, y + (26 if legend else 4)), note, 14, bold=True, fill=MUTED)


def render_board(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """The public table: Flight, track, records, Year, display and every mat (odds if enabled)."""
    track = draw_track(view)
    parts = [HEADER_H]
    parts.append(standings_height(view) if view.over else 0)
    parts.append(flight_height(view.flight, odds_aid=odds_aid) if view.flight else 0)
    parts += [track.height + 8, REC_H, display_height(view), mats_height(view), FOOTER_H]
    image, draw = canvas(WIDTH, sum(parts), BACKGROUND)
    _header(draw, view, names, "First in Flight")
    y = HEADER_H
    if view.over:
        draw_standings(draw, view, names, y)
        y += parts[1]
    if view.flight is not None:
        draw_flight(draw, view.flight, names, y, odds_aid=odds_aid)
        y += parts[2]
    image.paste(track, (0, y))
    y += track.height + 8
    image.paste(draw_record_track(view), (0, y - 8))
    y += REC_H
    draw_display(draw, view, y)
    y += display_height(view)
    draw_mats(draw, view, names, y)
    _footer(draw, view, y + mats_height(view), legend=True)
    return image


def render_private(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """One seat's view: its own mat and Flight, plus the cards only it has seen."""
    seat = view.viewer if view.viewer is not None else 0
    mat = view.seats[seat]
    flight = view.flight if view.flight is not None and view.flight.seat == seat else None
    side_w = INNER - MAT_W - MAT_GAP
    body = max(mat_height(mat), private_height(view, side_w))
    flight_h = flight_height(flight, odds_aid=odds_aid) if flight is not None else 0
    image, draw = canvas(WIDTH, HEADER_H + flight_h + body + FOOTER_H - 16, BACKGROUND)
    _header(draw, view, names, f"First in Flight — {seat_name(names, seat)}")
    y = HEADER_H
    if flight is not None:
        draw_flight(draw, flight, names, y, odds_aid=odds_aid)
        y += flight_h
    draw_mat(draw, mat, names, MARGIN, y, body, acting=view.deciding == seat)
    draw_private(draw, view, MARGIN + MAT_W + MAT_GAP, y, side_w, body)
    _footer(draw, view, y + body + 4, legend=False)
    return image


def render_flight(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """A compact live-Flight picture (public): the Flight panel and the flying player's mat."""
    if view.flight is None:
        return render_board(view, names=names, odds_aid=odds_aid)
    mat = view.seats[view.flight.seat]
    flight_h = flight_height(view.flight, odds_aid=odds_aid)
    body = mat_height(mat)
    image, draw = canvas(WIDTH, HEADER_H + flight_h + body + FOOTER_H - 16, BACKGROUND)
    _header(draw, view, names, "First in Flight")
    draw_flight(draw, view.flight, names, HEADER_H, odds_aid=odds_aid)
    y = HEADER_H + flight_h
    draw_mat(draw, mat, names, MARGIN, y, body, acting=True)
    _records(draw, view, names, MARGIN + MAT_W + MAT_GAP, y)
    _footer(draw, view, y + body + 4, legend=False)
    return image


def _records(
    draw: ImageDraw.ImageDraw, view: GameView, names: Sequence[str], x: int, y: int
) -> None:
    """Every record, best first: what the flying player is trying to beat."""
    rows = sorted(view_entries(view), key=lambda e: (-e[1], e[0] is None, e[0] or 0))
    text(draw, (x, y + 4), "Records", 16, bold=True)
    for i, (seat, record, _) in enumerate(rows):
        row_y = y + 32 + i * 26
        draw.ellipse(
            (x, row_y + 2, x + 16, row_y + 18), fill=seat_colour(seat), outline=INK, width=2
        )
        text(draw, (x + 24, row_y), f"{record}  {seat_name(names, seat)}", 15, max_width=MAT_W - 30)


# The bot edits the live turn message with this picture while a player keeps acting.
render_live = render_flight


def alt_text(view: GameView, *, names: Sequence[str], last: str = "") -> str:
    """The picture in words (≤ 1,024 characters), for screen readers and images turned off."""
    return alt.first_in_flight(view, names, last)
