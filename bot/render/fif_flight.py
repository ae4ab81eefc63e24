"""First in Flight: the Flight in progress — revealed cards, Problems, Distance and the odds aid."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from PIL import ImageDraw

from bot.i18n import ntranslate, translate
from bot.render.common import INK, MUTED, centred, font, spoken, tint
from bot.render.fif_board import (
    INNER,
    LINE,
    MARGIN,
    PANEL,
    WHITE,
    seat_colour,
    seat_name,
    wrap,
)
from bot.render.fif_board import text as draw_text
from bot.render.fif_mat import FLIGHT_COLOURS
from rules.first_in_flight.view import FlightView, RowView

CARD_W, CARD_H, CARD_GAP = 94, 128, 6
PER_ROW = (INNER - 20 + CARD_GAP) // (CARD_W + CARD_GAP)
CRASH = "#c0392b"
SAFE = FLIGHT_COLOURS["descend"]
TONE_INK = {"crash": CRASH, "safe": SAFE, "plain": INK}  # a headline's tone → its colour


def problem_odds(flight: FlightView) -> tuple[int, int] | None:
    """(Problem cards, cards) left in the draw pile: only with the odds aid on, mid-Flight."""
    if flight.problem_cards_left is None or flight.cards_left == 0:
        return None
    if flight.crashed or flight.landed:
        return None
    return flight.problem_cards_left, flight.cards_left


def _tiles(flight: FlightView) -> int:
    """Number of tiles in the row (the Descend card counts as one)."""
    return len(flight.row) + (1 if flight.descended else 0)


def flight_height(flight: FlightView, *, odds_aid: bool = True) -> int:
    """Height of the Flight panel (taller when the odds line is shown)."""
    rows = max(1, -(-_tiles(flight) // PER_ROW))
    odds = problem_odds(flight) if odds_aid else None
    return 48 + rows * (CARD_H + CARD_GAP) + (76 if odds else 44)


def _problem_icon(draw: ImageDraw.ImageDraw, x: int, y: int, *, counts: bool) -> None:
    """A red warning triangle; a crossed-out grey one when its icon is ignored."""
    colour = CRASH if counts else MUTED
    draw.polygon([(x + 9, y), (x + 18, y + 16), (x, y + 16)], fill=colour, outline=INK)
    draw.text((x + 9, y + 10), "!", font=font(14, bold=True), fill=WHITE, anchor="mm")
    if not counts:
        draw.line((x - 2, y + 18, x + 20, y - 2), fill=INK, width=2)


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: RowView) -> None:
    """One revealed Flight card: name, Distance and its Problem icons."""
    colour = FLIGHT_COLOURS.get(card.kind, FLIGHT_COLOURS["unknown"])
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), radius=8, fill=tint(colour, 0.82), outline=colour, width=3
    )
    lang = spoken()
    basic = card.name == "Basic Flight Problem"  # the tile's short form
    name = translate(lang, "Basic Problem") if basic else translate(lang, card.name)
    for i, line in enumerate(wrap(name, CARD_W - 8, 14)[:3]):
        ink = MUTED if card.cancelled else INK
        centred(draw, (x, y + 6 + i * 17, x + CARD_W, y + 22 + i * 17), line, 14, fill=ink)
    if card.cancelled:
        none = translate(lang, "no effect")
        centred(draw, (x, y + 56, x + CARD_W, y + 72), none, 14, bold=True, fill=CRASH)
    draw.text(
        (x + CARD_W // 2, y + 84),
        str(card.distance),
        font=font(28, bold=True),
        fill=INK,
        anchor="mm",
    )
    icons = card.problems
    left = x + (CARD_W - icons * 22 + 4) // 2
    for i in range(icons):
        _problem_icon(draw, left + i * 22, y + CARD_H - 28, counts=not card.ignored)


def _descend_card(draw: ImageDraw.ImageDraw, x: int, y: int, flight: FlightView) -> None:
    """The Descend card where it was played, with what it counts (5 landed, 2 crashed…)."""
    colour = CRASH if flight.crashed else SAFE
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=8, fill=colour, outline=INK)
    centred(draw, (x, y + 6, x + CARD_W, y + 26), "Descend", 15, bold=True, fill=WHITE)
    draw.polygon([(x + 37, y + 32), (x + 57, y + 32), (x + 47, y + 52)], fill=WHITE)
    value = "?" if flight.descend_value is None else str(flight.descend_value)
    draw.text((x + CARD_W // 2, y + 84), value, font=font(28, bold=True), fill=WHITE, anchor="mm")
    note = "crashed" if flight.crashed else ("landed" if flight.landed else "landing")
    centred(draw, (x, y + CARD_H - 26, x + CARD_W, y + CARD_H - 8), note, 14, fill=WHITE)


def _tile_order(flight: FlightView) -> list[RowView | None]:
    """The row's cards with the Descend card (None) at the place it was played."""
    tiles: list[RowView | None] = list(flight.row)
    if flight.descended:
        at = len(flight.row) if flight.descend_at is None else flight.descend_at
        tiles.insert(min(at, len(tiles)), None)
    return tiles


Tone = Literal["crash", "safe", "plain"]


def flight_status(
    flight: FlightView, names: Sequence[str], *, short: bool = False
) -> tuple[str, Tone]:
    """The Flight's headline and its tone (`short`: the phone picture's narrower wording).

    A tone, not a colour: the table and the phone picture each colour it from their own palette.
    """
    who = seat_name(names, flight.seat)
    lang = spoken()
    kind = translate(lang, "final Flight") if flight.final else translate(lang, "Flight")
    distance = flight.distance_so_far
    if flight.crashed:
        if short:
            said = translate(
                lang, "{player} crashed — {distance} Distance scored", player=who, distance=distance
            )
        else:
            said = translate(
                lang, "{player} crashed — {flight} over, {distance} Distance scored",
                player=who, flight=kind, distance=distance,
            )  # fmt: skip
        return said, "crash"
    if flight.landed:
        said = translate(
            lang, "{player} landed safely — {distance} Distance", player=who, distance=distance
        )
        return said, "safe"
    if flight.descended:
        if short:
            return translate(lang, "{player} is descending", player=who), "plain"
        said = translate(lang, "{player} is descending: the landing draws decide it", player=who)
        return said, "plain"
    return translate(lang, "{player} is flying ({flight})", player=who, flight=kind), "plain"


def draw_flight(
    draw: ImageDraw.ImageDraw,
    flight: FlightView,
    names: Sequence[str],
    y: int,
    *,
    odds_aid: bool = True,
) -> None:
    """The Flight panel: headline, card row, Problems of 4, Distance, Descend and the odds."""
    height = flight_height(flight, odds_aid=odds_aid)
    colour = seat_colour(flight.seat)
    right = MARGIN + INNER
    draw.rounded_rectangle(
        (MARGIN, y, right, y + height - 8), radius=10, fill=PANEL, outline=colour, width=4
    )
    headline, tone = flight_status(flight, names)
    ink = TONE_INK[tone]
    draw.rounded_rectangle((MARGIN + 2, y + 2, right - 2, y + 36), radius=9, fill=tint(colour, 0.6))
    draw_text(draw, (MARGIN + 12, y + 8), headline, 18, bold=True, fill=ink, max_width=INNER - 24)
    top = y + 44
    for i, card in enumerate(_tile_order(flight)):
        row, col = divmod(i, PER_ROW)
        cx, cy = MARGIN + 10 + col * (CARD_W + CARD_GAP), top + row * (CARD_H + CARD_GAP)
        if card is None:
            _descend_card(draw, cx, cy, flight)
        else:
            _card(draw, cx, cy, card)
    if not flight.row and not flight.descended:
        none = translate(spoken(), "No cards drawn yet.")
        draw_text(draw, (MARGIN + 14, top + 40), none, 16, fill=MUTED)
    rows = max(1, -(-_tiles(flight) // PER_ROW))
    _totals(draw, flight, top + rows * (CARD_H + CARD_GAP) + 4, odds_aid=odds_aid)


def _totals(draw: ImageDraw.ImageDraw, flight: FlightView, y: int, *, odds_aid: bool) -> None:
    """Problems meter, Distance so far, Descend state, draw pile and (optionally) the odds."""
    x = MARGIN + 12
    draw_text(draw, (x, y + 4), "Problems", 15, bold=True)
    for i in range(4):
        box = (x + 86 + i * 30, y, x + 110 + i * 30, y + 24)
        filled = i < flight.problems
        draw.rounded_rectangle(box, radius=4, fill=CRASH if filled else WHITE, outline=INK)
    draw_text(
        draw,
        (x + 212, y + 4),
        f"{flight.problems} of 4",
        15,
        bold=True,
        fill=CRASH if flight.problems >= 3 else INK,
    )
    draw_text(draw, (x + 290, y + 4), f"Distance {flight.distance_so_far}", 15, bold=True)
    lang = spoken()
    descend = translate(lang, "Descend: not yet")
    if flight.descended:
        draws = ntranslate(
            lang, "{count} landing draw left", "{count} landing draws left", flight.landing_left
        )
        descend = translate(lang, "Descend {value}", value=flight.descend_value) + " · " + draws
    colour = (CRASH if flight.crashed else SAFE) if flight.descended else MUTED
    draw_text(draw, (x + 410, y + 4), descend, 15, fill=colour, max_width=265)
    pile = translate(lang, "Draw pile: {count}", count=flight.cards_left)
    draw_text(draw, (x + 690, y + 4), pile, 15)
    odds = problem_odds(flight) if odds_aid else None
    if odds is not None:
        bad, total = odds
        line = translate(
            lang, "Chance the next card is a Problem: {bad} in {total} ({percent}%)", bad=bad,
            total=total, percent=round(100 * bad / total),
        )  # fmt: skip
        draw.rounded_rectangle(
            (x - 4, y + 34, x + 560, y + 62), radius=6, fill="#fdf0d5", outline=LINE
        )
        draw_text(draw, (x + 4, y + 38), line, 15, bold=True, max_width=550)
