"""First in Flight images: the public table (track, records, mats, Flight) and a seat's view."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render import alt, fif_phone
from bot.render import fif_track as phone
from bot.render.common import BACKGROUND, HIGHLIGHT, INK, MUTED, canvas, font, tint
from bot.render.fif_board import (
    INNER,
    MARGIN,
    WIDTH,
    BoardKey,
    board_key,
    display_height,
    draw_display,
    draw_track,
    seat_colour,
    seat_name,
    text,
    wrap,
)
from bot.render.fif_chart import (
    REC_H,
    Entry,
    draw_record_track,
    draw_standings,
    standings_height,
    view_entries,
)
from bot.render.fif_flight import draw_flight, flight_height
from bot.render.fif_mat import (
    draw_mats,
    mats_height,
)
from bot.render.tiles import stamp
from rules.first_in_flight.view import FlightView, GameView, PawnView, SeatView

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


def render_table(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """The whole table (960 px, to open and zoom): Flight, track, records, display, every mat."""
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


def _status_colour(view: GameView) -> str:
    """The status bar's colour: the deciding seat's, grey otherwise."""
    return seat_colour(view.deciding) if view.deciding is not None and not view.over else MUTED


def _acting_seat(view: GameView) -> int:
    """The seat whose mat the turn picture shows: the flyer, the decider, else the first."""
    if view.flight is not None:
        return view.flight.seat
    return view.deciding if view.deciding is not None else 0


def _legend_lines(view: GameView) -> list[str]:
    """The pawn key under the track (and the stand-in data note)."""
    lines = ["Pawn numbers: turn order (1 acts next). Slashed pawn: crashed, must Recover."]
    if view.stand_in:
        lines.append("Card data: unofficial stand-in set")
    return [w for line in lines for w in wrap(line, phone.INNER, phone.SMALL)]


def render_board(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """The turn picture for a phone: the Flight (while one is on) or the track, the records and
    the acting player's mat; at the end, the result. The whole table is `render_table`."""
    seat = view.seats[_acting_seat(view)] if view.seats else None
    legend = _legend_lines(view)
    shown = tuple(names)
    entries = tuple(view_entries(view))
    key = board_key(view)
    parts: list[int] = [phone.HEADER_H]
    if view.over:
        parts.append(fif_phone.standings_height(view) + 6)
    if view.flight is not None:
        parts.append(fif_phone.flight_height(view.flight, names, odds_aid=odds_aid) + 4)
    else:
        parts.append(phone.track_layout(key)[1] + 10)
    parts.append(phone.entries_height(entries, names))
    if seat is not None and not view.over:
        parts.append(fif_phone.mat_height(seat, names) + 10)
    parts.append(8 + 20 * len(legend))
    image, draw = canvas(phone.WIDTH, sum(parts), BACKGROUND)
    _phone_header(image, view, "First in Flight", names)
    y = phone.HEADER_H
    if view.over:
        fif_phone.draw_standings(draw, view, names, y)
        y += fif_phone.standings_height(view) + 6
    if view.flight is not None:
        y = _flight(image, view.flight, shown, y, odds_aid) + 4
    else:
        height = phone.track_layout(key)[1]
        args = (key, view.pawns, view.over)
        stamp(image, (0, y), (phone.WIDTH, height), BACKGROUND, _paint_track, *args)
        y += height + 10
    height = phone.entries_height(entries, names)
    stamp(image, (0, y), (phone.WIDTH, height), BACKGROUND, _paint_records, entries, shown)
    y += height
    if seat is not None and not view.over:
        acting = view.deciding == seat.seat or view.flight is not None
        y = _mat(image, seat, shown, y, acting) + 10
    for line in legend:
        draw.text((phone.MARGIN, y + 2), line, font=font(phone.SMALL), fill=MUTED)
        y += 20
    return image


def render_private(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """One seat's view for a phone: its Flight (when flying), its mat and what only it sees."""
    me = view.viewer if view.viewer is not None else 0
    seat = view.seats[me]
    shown = tuple(names)
    flight = view.flight if view.flight is not None and view.flight.seat == me else None
    flight_h = fif_phone.flight_height(flight, names, odds_aid=odds_aid) + 4 if flight else 0
    mat_h = fif_phone.mat_height(seat, names) + 10
    sections = fif_phone.private_sections(view)
    private_h = fif_phone.sections_height(sections)
    height = phone.HEADER_H + flight_h + mat_h + private_h + 8
    image, _ = canvas(phone.WIDTH, height, BACKGROUND)
    _phone_header(image, view, f"First in Flight — {seat_name(names, me)}", names)
    y = phone.HEADER_H
    if flight is not None:
        y = _flight(image, flight, shown, y, odds_aid) + 4
    y = _mat(image, seat, shown, y, view.deciding == me) + 10
    stamp(image, (0, y), (phone.WIDTH, private_h), BACKGROUND, _paint_sections, sections)
    return image


# The parts of the phone pictures are cached tiles as wide as the picture (x is always 0): a
# move's board and the mover's private view share them, and most survive the next move.


def _phone_header(image: Image.Image, view: GameView, title: str, names: Sequence[str]) -> None:
    """Title, the Year tracker and the status bar, at the top of the picture."""
    args = (view.year, title, _status(view, names), _status_colour(view))
    stamp(image, (0, 0), (phone.WIDTH, phone.HEADER_H), BACKGROUND, _paint_header, *args)


def _paint_header(
    image: Image.Image, x: int, y: int, year: int, title: str, status: str, colour: str
) -> None:
    """The header (drawn at the top of a picture or of a tile: x and y are 0)."""
    phone.header(ImageDraw.Draw(image), year, title, status, colour)


def _flight(
    image: Image.Image, flight: FlightView, names: tuple[str, ...], y: int, odds_aid: bool
) -> int:
    """The Flight panel at `y`; returns the y below it."""
    height = fif_phone.flight_height(flight, names, odds_aid=odds_aid)
    args = (flight, names, odds_aid)
    stamp(image, (0, y), (phone.WIDTH, height), BACKGROUND, _paint_flight, *args)
    return y + height


def _paint_flight(
    image: Image.Image, x: int, y: int, flight: FlightView, names: tuple[str, ...], odds_aid: bool
) -> None:
    """The Flight panel: headline, card row, Problems, Distance, Descend and the odds."""
    fif_phone.draw_flight(ImageDraw.Draw(image), flight, names, y, odds_aid=odds_aid)


def _paint_track(
    image: Image.Image, x: int, y: int, key: BoardKey, pawns: tuple[PawnView, ...], over: bool
) -> None:
    """The Year's track with every pawn."""
    image.paste(phone.track_with_pawns(key, pawns, over), (x, y))


def _paint_records(
    image: Image.Image, x: int, y: int, entries: tuple[Entry, ...], names: tuple[str, ...]
) -> None:
    """The record track with every marker, then the records in words."""
    phone.draw_entries(ImageDraw.Draw(image), entries, names, y)


def _mat(image: Image.Image, seat: SeatView, names: tuple[str, ...], y: int, acting: bool) -> int:
    """One player's mat across the picture at `y`; returns the y below it."""
    height = fif_phone.mat_height(seat, names)
    stamp(image, (0, y), (phone.WIDTH, height + 1), BACKGROUND, _paint_mat, seat, names, acting)
    return y + height


def _paint_mat(
    image: Image.Image, x: int, y: int, seat: SeatView, names: tuple[str, ...], acting: bool
) -> None:
    """One player's mat: Pilot, coins, record, cards, Garage and the deck's make-up."""
    fif_phone.draw_mat(image, seat, names, y, acting=acting)


def _paint_sections(image: Image.Image, x: int, y: int, sections: fif_phone.Sections) -> None:
    """What only this seat sees: the known top of its deck and the cards it is looking at."""
    fif_phone.draw_sections(image, sections, y)


def alt_text(view: GameView, *, names: Sequence[str], last: str = "") -> str:
    """The picture in words (≤ 1,024 characters), for screen readers and images turned off."""
    return alt.first_in_flight(view, names, last)
