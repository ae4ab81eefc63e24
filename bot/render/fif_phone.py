"""First in Flight for a phone (640 px): the Flight, one player's mat, private cards, result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from PIL import Image, ImageDraw

from bot.render.common import INK, MUTED, centred, fit_text, font, text_width, tint
from bot.render.fif_board import LINE, PANEL, seat_colour, seat_name, wrap
from bot.render.fif_chart import view_entries, won_by
from bot.render.fif_flight import flight_status, problem_odds
from bot.render.fif_mat import FLIGHT_COLOURS, composition_chips
from bot.render.fif_track import INNER, MARGIN, SMALL, WHITE, token
from bot.render.tiles import stamp
from rules.core.messages import plural
from rules.first_in_flight.view import FlightView, GameView, RowView, SeatView

CARD_W, CARD_H, CARD_GAP = 94, 124, 5
PER_ROW = (INNER - 16 + CARD_GAP) // (CARD_W + CARD_GAP)
CRASH = "#b3261e"
SAFE = FLIGHT_COLOURS["descend"]
TONE_INK = {"crash": CRASH, "safe": SAFE, "plain": INK}  # a headline's tone → its colour
CHIP_H, CHIP_GAP = 28, 6
DEV_COLOURS = {"friend": "#e07aa0", "technology": "#8e6cc9", "skill": "#2a9d8f"}
LINE_H = 21


# ---------------------------------------------------------------- the Flight


def _tiles(flight: FlightView) -> list[RowView | None]:
    """The row's cards with the Descend card (None) where it was played."""
    tiles: list[RowView | None] = list(flight.row)
    if flight.descended:
        at = len(flight.row) if flight.descend_at is None else flight.descend_at
        tiles.insert(min(at, len(tiles)), None)
    return tiles


def _totals(flight: FlightView, names: Sequence[str], odds_aid: bool) -> list[tuple[str, str]]:
    """The Flight's summary lines (text, colour)."""
    lines = [
        (
            f"Problems {flight.problems} of 4 · Distance {flight.distance_so_far} · "
            f"draw pile {flight.cards_left}",
            CRASH if flight.problems >= 3 else INK,
        )
    ]
    if flight.descended:
        left = flight.landing_left
        draws = f"{left} landing draw{'' if left == 1 else 's'} left"
        lines.append((f"Descend {flight.descend_value} · {draws}", SAFE))
    odds = problem_odds(flight) if odds_aid else None
    if odds is not None:
        bad, total = odds
        pct = round(100 * bad / total)
        lines.append((f"Next card is a Problem: {bad} in {total} ({pct}%)", INK))
    return lines


def flight_height(flight: FlightView, names: Sequence[str], *, odds_aid: bool = True) -> int:
    """Height of the Flight panel."""
    rows = max(1, -(-len(_tiles(flight)) // PER_ROW))
    return 46 + rows * (CARD_H + CARD_GAP) + LINE_H * len(_totals(flight, names, odds_aid)) + 16


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: RowView) -> None:
    """One revealed Flight card: name, Distance and its Problem icons."""
    colour = FLIGHT_COLOURS.get(card.kind, FLIGHT_COLOURS["unknown"])
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), radius=8, fill=tint(colour, 0.8), outline=colour, width=3
    )
    name = card.name.replace("Basic Flight Problem", "Basic Problem")
    ink = MUTED if card.cancelled else INK
    for i, line in enumerate(wrap(name, CARD_W - 6, SMALL)[:3]):
        centred(draw, (x, y + 5 + i * 19, x + CARD_W, y + 23 + i * 19), line, SMALL, fill=ink)
    if card.cancelled:
        centred(draw, (x, y + 62, x + CARD_W, y + 80), "no effect", SMALL, bold=True, fill=CRASH)
    draw.text(
        (x + CARD_W // 2, y + 84),
        str(card.distance),
        font=font(26, bold=True),
        fill=INK,
        anchor="mm",
    )
    left = x + (CARD_W - card.problems * 26 + 4) // 2
    for i in range(card.problems):
        ix, iy = left + i * 26, y + CARD_H - 28
        colour = MUTED if card.ignored else CRASH
        draw.polygon([(ix + 11, iy), (ix + 22, iy + 21), (ix, iy + 21)], fill=colour, outline=INK)
        draw.text((ix + 11, iy + 13), "!", font=font(SMALL, bold=True), fill=WHITE, anchor="mm")
        if card.ignored:
            draw.line((ix - 2, iy + 23, ix + 24, iy - 2), fill=INK, width=3)


def _descend(draw: ImageDraw.ImageDraw, x: int, y: int, flight: FlightView) -> None:
    """The Descend card where it was played, with what it counts."""
    colour = CRASH if flight.crashed else SAFE
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=8, fill=colour, outline=INK)
    centred(draw, (x, y + 6, x + CARD_W, y + 26), "Descend", SMALL, bold=True, fill=WHITE)
    value = "?" if flight.descend_value is None else str(flight.descend_value)
    draw.text((x + CARD_W // 2, y + 66), value, font=font(28, bold=True), fill=WHITE, anchor="mm")
    note = "crashed" if flight.crashed else ("landed" if flight.landed else "landing")
    centred(draw, (x, y + CARD_H - 28, x + CARD_W, y + CARD_H - 8), note, SMALL, fill=WHITE)


def draw_flight(
    draw: ImageDraw.ImageDraw,
    flight: FlightView,
    names: Sequence[str],
    y: int,
    *,
    odds_aid: bool = True,
) -> None:
    """The Flight panel: headline, card row, then Problems, Distance, Descend and the odds."""
    height = flight_height(flight, names, odds_aid=odds_aid)
    colour = seat_colour(flight.seat)
    right = MARGIN + INNER
    draw.rounded_rectangle(
        (MARGIN, y, right, y + height - 8), radius=10, fill=PANEL, outline=colour, width=4
    )
    headline, tone = flight_status(flight, names, short=True)
    ink = TONE_INK[tone]
    draw.rounded_rectangle((MARGIN + 2, y + 2, right - 2, y + 36), radius=9, fill=tint(colour, 0.6))
    token(draw, MARGIN + 8, y + 7, flight.seat, size=22)
    draw.text(
        (MARGIN + 38, y + 8),
        fit_text(headline, INNER - 50, 18, bold=True),
        font=font(18, bold=True),
        fill=ink,
    )
    top = y + 42
    for i, card in enumerate(_tiles(flight)):
        row, col = divmod(i, PER_ROW)
        cx, cy = MARGIN + 8 + col * (CARD_W + CARD_GAP), top + row * (CARD_H + CARD_GAP)
        if card is None:
            _descend(draw, cx, cy, flight)
        else:
            _card(draw, cx, cy, card)
    if not _tiles(flight):
        draw.text((MARGIN + 12, top + 40), "No cards drawn yet.", font=font(17), fill=MUTED)
    ty = top + max(1, -(-len(_tiles(flight)) // PER_ROW)) * (CARD_H + CARD_GAP) + 2
    for line, fill in _totals(flight, names, odds_aid):
        draw.text(
            (MARGIN + 12, ty),
            fit_text(line, INNER - 24, 17, bold=True),
            font=font(17, bold=True),
            fill=fill,
        )
        ty += LINE_H


# ---------------------------------------------------------------- one mat


def _chip_rows(chips: Sequence[tuple[str, str]], width: int) -> list[list[tuple[str, str, int]]]:
    """Chips packed into rows no wider than `width`: (label, colour, chip width)."""
    rows: list[list[tuple[str, str, int]]] = [[]]
    used = 0
    for label, colour in chips:
        w = min(width, text_width(label, SMALL) + 26)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0
        rows[-1].append((label, colour, w))
        used += w + CHIP_GAP
    return [r for r in rows if r]


def _chips(
    image: Image.Image,
    chips: Sequence[tuple[str, str]],
    x: int,
    y: int,
    width: int,
    under: str,
) -> int:
    """Chips from (x, y) on a panel filled with `under`; returns the y below them.

    Each chip is a cached tile: a mat keeps its cards and its deck's make-up for many moves.
    """
    for row in _chip_rows(chips, width):
        cx = x
        for label, colour, w in row:
            stamp(image, (cx, y), (w + 1, CHIP_H + 1), under, _chip, label, colour, w)
            cx += w + CHIP_GAP
        y += CHIP_H + CHIP_GAP
    return y


def _chip(image: Image.Image, x: int, y: int, label: str, colour: str, w: int) -> None:
    """One chip: a pale pill in `colour` with a dot and the label."""
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (x, y, x + w, y + CHIP_H),
        radius=12,
        fill=tint(colour, 0.78),
        outline=colour,
        width=2,
    )
    draw.ellipse((x + 7, y + 10, x + 15, y + 18), fill=colour)
    draw.text((x + 20, y + 4), fit_text(label, w - 24, SMALL), font=font(SMALL), fill=INK)


def _card_chips(seat: SeatView) -> list[tuple[str, str]]:
    """The seat's Development cards (used ones marked and greyed)."""
    return [
        (
            ("used: " if c.exhausted else "") + c.name,
            MUTED if c.exhausted else DEV_COLOURS.get(c.type, MUTED),
        )
        for c in seat.cards
    ]


def _deck_chips(seat: SeatView) -> list[tuple[str, str]]:
    """The deck's known make-up as chips."""
    return [(label, FLIGHT_COLOURS[kind]) for label, kind in composition_chips(seat)]


def _mat_lines(seat: SeatView, names: Sequence[str]) -> tuple[str, list[str], str]:
    """Stats line, Pilot ability lines and the Garage line of a mat."""
    stats = f"{plural(seat.coins, 'coin')} · Record {seat.record}"
    if seat.record and seat.record_year:
        stats += f" (Year {seat.record_year})"
    stats += f" · Flights {seat.flights}"
    ability = ("Used until refreshed: " if seat.pilot_exhausted else "") + seat.pilot_text
    pilot = wrap(ability, INNER - 20, SMALL)[:3] if seat.pilot_text else []
    left, right = seat.garage
    garage = f"Garage: {left or 'empty'} | {right or 'empty'} (right +1 Time to repair)"
    return stats, pilot, garage


# How a mat shows its cards: "" name chips; "full" each card's name and type, then its text;
# "flow" each card as "Name: text" run on (shorter, for a crowded private picture).
CardTexts = Literal["", "full", "flow"]


def _card_texts(seat: SeatView, texts: CardTexts) -> list[tuple[str, str, list[str]]]:
    """Each card as (bold name line or "", colour, wrapped text lines): what it does."""
    out = []
    for c in seat.cards:
        colour = MUTED if c.exhausted else DEV_COLOURS.get(c.type, MUTED)
        used = " (used)" if c.exhausted else ""
        if texts == "flow":
            out.append(("", colour, wrap(f"{c.name}{used}: {c.text}", INNER - 40, SMALL)))
            continue
        head = f"{c.name} ({c.type.capitalize()}{', used' if c.exhausted else ''})"
        out.append((head, colour, wrap(c.text, INNER - 40, SMALL) if c.text else []))
    return out


def _cards_height(seat: SeatView, texts: CardTexts) -> int:
    """Height of the mat's cards: chips, or each card with its text."""
    if not seat.cards:
        return CHIP_H + CHIP_GAP
    if texts:
        return sum(
            (22 if head else 0) + LINE_H * len(lines) + 4
            for head, _, lines in _card_texts(seat, texts)
        )
    return len(_chip_rows(_card_chips(seat), INNER - 20)) * (CHIP_H + CHIP_GAP)


def mat_height(seat: SeatView, names: Sequence[str], *, texts: CardTexts = "") -> int:
    """Height of one full-width mat (`texts`: how its cards' texts are shown)."""
    _, pilot, _ = _mat_lines(seat, names)
    deck = len(_chip_rows(_deck_chips(seat), INNER - 20))
    cards = _cards_height(seat, texts)
    return 44 + 24 + LINE_H * len(pilot) + 2 * 24 + 24 + cards + (CHIP_H + CHIP_GAP) * deck + 16


def draw_mat(
    image: Image.Image,
    seat: SeatView,
    names: Sequence[str],
    y: int,
    *,
    acting: bool,
    texts: CardTexts = "",
) -> int:
    """One player's mat across the picture (`texts`: how its cards' texts are shown); returns
    the y below it."""
    draw = ImageDraw.Draw(image)
    colour = seat_colour(seat.seat)
    height = mat_height(seat, names, texts=texts)
    right = MARGIN + INNER
    draw.rounded_rectangle(
        (MARGIN, y, right, y + height),
        radius=10,
        fill=PANEL,
        outline=colour if acting else LINE,
        width=4 if acting else 2,
    )
    draw.rounded_rectangle(
        (MARGIN + 2, y + 2, right - 2, y + 38), radius=9, fill=tint(colour, 0.55)
    )
    token(draw, MARGIN + 8, y + 8, seat.seat, size=22)
    pilot = ("★ Famous " if seat.famous else "") + (seat.pilot_name or "no Pilot yet")
    pilot = fit_text(pilot, INNER // 2, 17, bold=True)
    draw.text((right - 10, y + 10), pilot, font=font(17, bold=True), fill=INK, anchor="ra")
    name_w = INNER - 60 - text_width(pilot, 17, bold=True)
    draw.text(
        (MARGIN + 38, y + 9),
        fit_text(seat_name(names, seat.seat), name_w, 19, bold=True),
        font=font(19, bold=True),
        fill=INK,
    )
    stats, ability, garage = _mat_lines(seat, names)
    x, cy = MARGIN + 10, y + 46
    draw.text((x, cy), fit_text(stats, INNER - 20, 17), font=font(17), fill=INK)
    cy += 24
    ink = MUTED if seat.pilot_exhausted else INK
    for line in ability:
        draw.text((x, cy), line, font=font(SMALL), fill=ink)
        cy += LINE_H
    draw.text((x, cy + 2), fit_text(garage, INNER - 20, SMALL), font=font(SMALL), fill=INK)
    cy += 26
    draw.text((x, cy), "Cards (used ones are grey)", font=font(SMALL, bold=True), fill=MUTED)
    cy += 22
    if seat.cards and texts:
        cy = _draw_card_texts(draw, seat, x, cy, texts)
    elif seat.cards:
        cy = _chips(image, _card_chips(seat), x, cy, INNER - 20, PANEL)
    else:
        draw.text((x, cy + 4), "none yet", font=font(SMALL), fill=MUTED)
        cy += CHIP_H + CHIP_GAP
    c = seat.composition
    whole = c.glide + c.experience + c.basic_problem + c.unrevealed_flaws
    whole += sum(n for _, n in c.upgrades) + sum(n for _, n in c.flaws)
    line = f"Deck: {seat.deck_size} to draw · {plural(whole, 'card')} in all"
    draw.text((x, cy + 2), line, font=font(SMALL, bold=True), fill=MUTED)
    _chips(image, _deck_chips(seat), x, cy + 24, INNER - 20, PANEL)
    return y + height


def _draw_card_texts(
    draw: ImageDraw.ImageDraw, seat: SeatView, x: int, y: int, texts: CardTexts
) -> int:
    """Each card: a dot in its colour, its name, then its text; returns the y below."""
    for head, colour, lines in _card_texts(seat, texts):
        draw.ellipse((x + 2, y + 6, x + 12, y + 16), fill=colour, outline=INK)
        ink = MUTED if colour == MUTED else INK
        if head:
            line = fit_text(head, INNER - 40, SMALL, bold=True)
            draw.text((x + 20, y), line, font=font(SMALL, bold=True), fill=ink)
            y += 22
        for line in lines:
            draw.text((x + 20, y), line, font=font(SMALL), fill=ink)
            y += LINE_H
        y += 4
    return y


# ---------------------------------------------------------------- private cards, result


def _named(cards: Sequence[str], kinds: Sequence[str], numbered: bool) -> list[tuple[str, str]]:
    """Card names as chips coloured by kind (grey when not known)."""
    return [
        (
            f"{i + 1}. {c}" if numbered else c,
            FLIGHT_COLOURS.get(kinds[i] if i < len(kinds) else "unknown", MUTED),
        )
        for i, c in enumerate(cards)
    ]


Sections = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


def private_sections(view: GameView) -> Sections:
    """(title, chips) of what only this seat sees."""
    return (
        ("Top of your deck, in order", tuple(_named(view.known_top, view.known_top_kinds, True))),
        ("Cards you are looking at", tuple(_named(view.looking_at, view.looking_at_kinds, False))),
    )


def private_height(view: GameView) -> int:
    """Height of the 'only you can see' panel."""
    return sections_height(private_sections(view))


def sections_height(sections: Sections) -> int:
    """Height of the 'only you can see' panel showing `sections`."""
    height = 44
    for _, chips in sections:
        height += 24 + max(1, len(_chip_rows(chips, INNER - 20))) * (CHIP_H + CHIP_GAP) + 4
    return height


def draw_private(image: Image.Image, view: GameView, y: int) -> None:
    """What only this seat sees: the known top of its deck and the cards it is looking at."""
    draw_sections(image, private_sections(view), y)


PRIVATE_FILL = "#f1ecfa"


def draw_sections(image: Image.Image, sections: Sections, y: int) -> None:
    """The 'only you can see' panel: each section's title and its chips ('nothing' if none)."""
    draw = ImageDraw.Draw(image)
    height = sections_height(sections)
    draw.rounded_rectangle(
        (MARGIN, y, MARGIN + INNER, y + height - 6),
        radius=10,
        fill=PRIVATE_FILL,
        outline="#6c4f9e",
        width=2,
    )
    draw.text((MARGIN + 10, y + 8), "Only you can see", font=font(18, bold=True), fill="#4b3478")
    cy = y + 40
    for title, chips in sections:
        draw.text((MARGIN + 10, cy), title, font=font(SMALL, bold=True), fill=MUTED)
        cy += 24
        if chips:
            cy = _chips(image, chips, MARGIN + 10, cy, INNER - 20, PRIVATE_FILL) + 4
        else:
            draw.text((MARGIN + 10, cy + 4), "nothing", font=font(SMALL), fill=MUTED)
            cy += CHIP_H + CHIP_GAP + 4


def standings_height(view: GameView) -> int:
    """Height of the result panel."""
    return 50 + len(view_entries(view)) * 48 + (24 if view.gustave_won else 0) + 8


def draw_standings(draw: ImageDraw.ImageDraw, view: GameView, names: Sequence[str], y: int) -> None:
    """The result: ranked records, the winner(s) marked, each record per Year spelled out."""
    won = won_by(view)
    rows = sorted(view_entries(view), key=lambda e: (-e[1], e[0] is None, e[0] or 0))
    height = standings_height(view)
    draw.rounded_rectangle(
        (MARGIN, y, MARGIN + INNER, y + height - 8), radius=10, fill=PANEL, outline=SAFE, width=3
    )
    champions = " & ".join(seat_name(names, s) for s, _, _ in rows if s in won) or "nobody"
    draw.text(
        (MARGIN + 12, y + 10),
        fit_text(f"Game over — {champions} won", INNER - 24, 20, bold=True),
        font=font(20, bold=True),
        fill=SAFE,
    )
    cy = y + 44
    if view.gustave_won:
        line = "Gustave had the highest record: the players compete for 2nd place."
        draw.text(
            (MARGIN + 12, cy), fit_text(line, INNER - 24, SMALL), font=font(SMALL), fill=MUTED
        )
        cy += 24
    series = {s.seat: s.record_by_year for s in view.seats}
    series_g = view.gustave_record_by_year
    for seat, record, year in rows:
        rank = 1 + sum(1 for _, r, _ in rows if r > record)
        mark = "★ 1st" if seat in won else f"{rank}."
        token(draw, MARGIN + 70, cy + 2, seat, size=20)
        draw.text(
            (MARGIN + 12, cy), mark, font=font(18, bold=True), fill=SAFE if seat in won else INK
        )
        when = f"set in Year {year}" if year else ("automa" if seat is None else "never flew")
        head = f"{seat_name(names, seat)} — {record} ({when})"
        draw.text(
            (MARGIN + 98, cy),
            fit_text(head, INNER - 110, 18, bold=seat in won),
            font=font(18, bold=seat in won),
            fill=INK,
        )
        values = series.get(seat, ()) if seat is not None else series_g
        per_year = " · ".join(str(v) for v in values)
        draw.text(
            (MARGIN + 98, cy + 22),
            fit_text(f"by Year: {per_year}", INNER - 110, SMALL),
            font=font(SMALL),
            fill=MUTED,
        )
        cy += 48
