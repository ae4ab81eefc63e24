"""First in Flight for a phone (640 px): the Flight, one player's mat, private cards, result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.i18n import ntranslate, translate
from bot.render.common import (
    INK,
    MUTED,
    centred,
    fit_text,
    fit_words,
    font,
    shrunk,
    spoken,
    text_width,
    tint,
)
from bot.render.fif_board import LINE, PANEL, seat_colour, seat_name, wrap
from bot.render.fif_chart import view_entries, won_by
from bot.render.fif_flight import flight_status, problem_odds
from bot.render.fif_mat import FLIGHT_COLOURS, composition_chips
from bot.render.fif_track import INNER, MARGIN, SMALL, WHITE, token
from bot.render.tiles import stamp
from rules.first_in_flight.view import CardView, FlightView, GameView, RowView, SeatView

CARD_W, CARD_H, CARD_GAP = 96, 124, 4  # six to a row; a tile's longest word ("Experience") fits
COMPACT_H = 78  # a shorter tile: two name lines, the Distance and Problems on one line
PER_ROW = (INNER - 16 + CARD_GAP) // (CARD_W + CARD_GAP)
FOLD_SLOTS = 2  # the tile that stands for the earlier cards is two tiles wide
CRASH = "#b3261e"
SAFE = FLIGHT_COLOURS["descend"]
TONE_INK = {"crash": CRASH, "safe": SAFE, "plain": INK}  # a headline's tone → its colour
CHIP_H, CHIP_GAP = 28, 6
DEV_COLOURS = {"friend": "#e07aa0", "technology": "#8e6cc9", "skill": "#2a9d8f"}
LINE_H = 21


# ---------------------------------------------------------------- the Flight


@dataclass(frozen=True)
class Fit:
    """How the Flight's cards are drawn: shorter tiles, and at most `rows` rows of them (0: all;
    fewer rows fold the earliest cards into one tile, counted in the totals line)."""

    compact: bool = False
    rows: int = 0


FULL = Fit()
# the earlier cards a folded row stands for: (how many, their Distance, their Problems)
Folded = tuple[int, int, int]
Tile = RowView | Folded | None  # a revealed card, the folded earlier cards, the Descend card


def _tiles(flight: FlightView) -> list[RowView | None]:
    """The row's cards with the Descend card (None) where it was played."""
    tiles: list[RowView | None] = list(flight.row)
    if flight.descended:
        at = len(flight.row) if flight.descend_at is None else flight.descend_at
        tiles.insert(min(at, len(tiles)), None)
    return tiles


def _fold(tiles: Sequence[RowView | None]) -> Folded:
    """What a run of earlier cards adds up to: how many, their Distance, their live Problems."""
    cards = [t for t in tiles if t is not None]
    distance = sum(c.distance for c in cards if not c.cancelled)
    problems = sum(c.problems for c in cards if not (c.cancelled or c.ignored))
    return len(tiles), distance, problems


def _slots(flight: FlightView, fit: Fit) -> list[tuple[int, Tile]]:
    """Each tile with its first slot (six to a row); the earliest fold when rows run out."""
    tiles = _tiles(flight)
    room = fit.rows * PER_ROW
    if not fit.rows or len(tiles) <= room:
        return list(enumerate(tiles))
    keep = room - FOLD_SLOTS
    kept = tiles[len(tiles) - keep :]
    return [
        (0, _fold(tiles[: len(tiles) - keep])),
        *((FOLD_SLOTS + i, t) for i, t in enumerate(kept)),
    ]


def _rows(flight: FlightView, fit: Fit) -> int:
    """Rows of tiles the Flight takes."""
    slots = _slots(flight, fit)
    if not slots:
        return 1
    last, tile = slots[-1]
    return -(-(last + (FOLD_SLOTS if isinstance(tile, tuple) else 1)) // PER_ROW)


def full_rows(flight: FlightView) -> int:
    """Rows of tiles the whole row takes."""
    return _rows(flight, FULL)


def _totals(flight: FlightView, names: Sequence[str], odds_aid: bool) -> list[tuple[str, str]]:
    """The Flight's summary lines (text, colour)."""
    lang = spoken()
    said = translate(
        lang, "Problems {problems} of 4 · Distance {distance} · draw pile {cards}",
        problems=flight.problems, distance=flight.distance_so_far, cards=flight.cards_left,
    )  # fmt: skip
    lines = [(said, CRASH if flight.problems >= 3 else INK)]
    if flight.descended:
        draws = ntranslate(
            lang, "{count} landing draw left", "{count} landing draws left", flight.landing_left
        )
        descend = translate(lang, "Descend {value}", value=flight.descend_value)
        lines.append((f"{descend} · {draws}", SAFE))
    odds = problem_odds(flight) if odds_aid else None
    if odds is not None:
        bad, total = odds
        pct = round(100 * bad / total)
        lines.append((translate(
            lang, "Next card is a Problem: {bad} in {total} ({percent}%)", bad=bad, total=total,
            percent=pct,
        ), INK))  # fmt: skip
    return lines


def _tile_h(fit: Fit) -> int:
    """A tile's height."""
    return COMPACT_H if fit.compact else CARD_H


def flight_height(
    flight: FlightView, names: Sequence[str], *, odds_aid: bool = True, fit: Fit = FULL
) -> int:
    """Height of the Flight panel (`fit`: how its cards are drawn)."""
    rows = _rows(flight, fit) * (_tile_h(fit) + CARD_GAP)
    return 46 + rows + LINE_H * len(_totals(flight, names, odds_aid)) + 16


def _name_lines(name: str, room: int) -> list[str]:
    """A card's name in at most `room` lines, cut at a word (with an ellipsis) if longer."""
    lines = wrap(name, CARD_W - 4, SMALL)
    if len(lines) <= room:
        return lines
    return [*lines[: room - 1], fit_words(lines[room - 1] + "…", CARD_W - 4, SMALL)]


def _problem_icons(draw: ImageDraw.ImageDraw, left: int, y: int, card: RowView) -> None:
    """The card's Problem icons from (left, y); crossed out when ignored."""
    step = 26 if card.problems < 3 else 22
    for i in range(card.problems):
        ix, iy = left + i * step, y
        colour = MUTED if card.ignored else CRASH
        draw.polygon([(ix + 11, iy), (ix + 22, iy + 21), (ix, iy + 21)], fill=colour, outline=INK)
        draw.text((ix + 11, iy + 13), "!", font=font(SMALL, bold=True), fill=WHITE, anchor="mm")
        if card.ignored:
            draw.line((ix - 2, iy + 23, ix + 24, iy - 2), fill=INK, width=3)


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: RowView, fit: Fit) -> None:
    """One revealed Flight card: name, Distance and its Problem icons."""
    colour = FLIGHT_COLOURS.get(card.kind, FLIGHT_COLOURS["unknown"])
    h = _tile_h(fit)
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + h), radius=8, fill=tint(colour, 0.8), outline=colour, width=3
    )
    lang = spoken()
    if card.name == "Basic Flight Problem":  # the tile's short form
        name = translate(lang, "Basic Problem")
    else:
        name = translate(lang, card.name)
    ink = MUTED if card.cancelled else INK
    room = (1 if card.cancelled else 2) if fit.compact else 3
    for i, line in enumerate(_name_lines(name, room)):
        centred(draw, (x, y + 5 + i * 19, x + CARD_W, y + 23 + i * 19), line, SMALL, fill=ink)
    if card.cancelled:
        top = y + 24 if fit.compact else y + 62
        none = translate(lang, "no effect")
        centred(draw, (x, top, x + CARD_W, top + 18), none, SMALL, bold=True, fill=CRASH)
    if fit.compact:  # the Distance at the left, the Problems beside it, on the bottom line
        base = y + h - 28
        draw.text((x + 8, base), str(card.distance), font=font(22, bold=True), fill=INK)
        _problem_icons(draw, x + 34, base + 2, card)
        return
    draw.text(
        (x + CARD_W // 2, y + 84),
        str(card.distance),
        font=font(26, bold=True),
        fill=INK,
        anchor="mm",
    )
    step = 26 if card.problems < 3 else 22
    _problem_icons(draw, x + (CARD_W - card.problems * step + 4) // 2, y + CARD_H - 28, card)


def _folded(draw: ImageDraw.ImageDraw, x: int, y: int, folded: Folded, fit: Fit) -> None:
    """The tile standing for the earlier cards: how many, their Distance and Problems."""
    count, distance, problems = folded
    w = FOLD_SLOTS * CARD_W + (FOLD_SLOTS - 1) * CARD_GAP
    draw.rounded_rectangle(
        (x, y, x + w, y + _tile_h(fit)), radius=8, fill=WHITE, outline=MUTED, width=2
    )
    lang = spoken()
    words = translate(
        lang, "{cards}: Distance {distance}, {problems}",
        cards=ntranslate(lang, "{count} earlier card", "{count} earlier cards", count),
        distance=distance,
        problems=ntranslate(lang, "{count} Problem", "{count} Problems", problems),
    )  # fmt: skip
    for i, line in enumerate(wrap(words, w - 12, SMALL)[:3]):
        draw.text((x + 8, y + 5 + i * 19), line, font=font(SMALL), fill=INK)


def _descend(draw: ImageDraw.ImageDraw, x: int, y: int, flight: FlightView, fit: Fit) -> None:
    """The Descend card where it was played, with what it counts."""
    colour = CRASH if flight.crashed else SAFE
    h = _tile_h(fit)
    draw.rounded_rectangle((x, y, x + CARD_W, y + h), radius=8, fill=colour, outline=INK)
    lang = spoken()
    title = translate(lang, "Descend")
    centred(draw, (x, y + 6, x + CARD_W, y + 26), title, SMALL, bold=True, fill=WHITE)
    value = "?" if flight.descend_value is None else str(flight.descend_value)
    mid, size = (y + 40, 22) if fit.compact else (y + 66, 28)
    draw.text((x + CARD_W // 2, mid), value, font=font(size, bold=True), fill=WHITE, anchor="mm")
    if flight.crashed:
        note = translate(lang, "crashed")
    else:
        note = translate(lang, "landed") if flight.landed else translate(lang, "landing")
    centred(draw, (x, y + h - 26, x + CARD_W, y + h - 6), note, SMALL, fill=WHITE)


def draw_flight(
    draw: ImageDraw.ImageDraw,
    flight: FlightView,
    names: Sequence[str],
    y: int,
    *,
    odds_aid: bool = True,
    fit: Fit = FULL,
) -> None:
    """The Flight panel: headline, card row, then Problems, Distance, Descend and the odds."""
    height = flight_height(flight, names, odds_aid=odds_aid, fit=fit)
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
        fit_words(headline, INNER - 50, 18, bold=True),
        font=font(18, bold=True),
        fill=ink,
    )
    top = y + 42
    pitch = _tile_h(fit) + CARD_GAP
    for slot, tile in _slots(flight, fit):
        row, col = divmod(slot, PER_ROW)
        cx, cy = MARGIN + 8 + col * (CARD_W + CARD_GAP), top + row * pitch
        if tile is None:
            _descend(draw, cx, cy, flight, fit)
        elif isinstance(tile, tuple):
            _folded(draw, cx, cy, tile, fit)
        else:
            _card(draw, cx, cy, tile, fit)
    if not _tiles(flight):
        none = translate(spoken(), "No cards drawn yet.")
        draw.text((MARGIN + 12, top + 40), none, font=font(17), fill=MUTED)
    ty = top + _rows(flight, fit) * pitch + 2
    for line, fill in _totals(flight, names, odds_aid):
        draw.text(
            (MARGIN + 12, ty),
            fit_words(line, INNER - 24, 17, bold=True),
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


def _card_chips(cards: tuple[CardView, ...]) -> list[tuple[str, str]]:
    """The seat's Development cards (used ones marked and greyed)."""
    lang = spoken()
    return [
        (
            translate(lang, "used: {card}", card=translate(lang, c.name))
            if c.exhausted
            else translate(lang, c.name),
            MUTED if c.exhausted else DEV_COLOURS.get(c.type, MUTED),
        )
        for c in cards
    ]


def _deck_chips(seat: SeatView) -> list[tuple[str, str]]:
    """The deck's known make-up as chips."""
    return [(label, FLIGHT_COLOURS[kind]) for label, kind in composition_chips(seat)]


def _mat_lines(seat: SeatView, names: Sequence[str]) -> tuple[str, list[str], list[str]]:
    """Stats line, Pilot ability lines and the Garage lines of a mat."""
    stats, pilot, garage = _lines_of(seat, tuple(names), spoken())
    return stats, list(pilot), list(garage)


# a mat's lines are wrapped for its height, its stripes' keys and its drawing: once
@lru_cache(maxsize=32)
def _lines_of(
    seat: SeatView, names: tuple[str, ...], lang: str
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """`_mat_lines` in `lang` (the one spoken: a key of the cache)."""
    coins = ntranslate(lang, "{count} coin", "{count} coins", seat.coins)
    stats = coins + " · " + translate(lang, "Record {record}", record=seat.record)
    if seat.record and seat.record_year:
        stats += " " + translate(lang, "(Year {year})", year=seat.record_year)
    stats += " · " + translate(lang, "Flights {count}", count=seat.flights)
    ability = translate(lang, seat.pilot_text)
    if seat.pilot_exhausted:
        ability = translate(lang, "Used until refreshed: {ability}", ability=ability)
    pilot = wrap(ability, INNER - 20, SMALL)[:3] if seat.pilot_text else []
    left, right = seat.garage
    empty = translate(lang, "empty")
    garage = translate(
        lang, "Garage: {left} | {right} (right +1 Time to repair)",
        left=translate(lang, left) if left else empty,
        right=translate(lang, right) if right else empty,
    )  # fmt: skip
    return stats, tuple(pilot), tuple(wrap(garage, INNER - 20, SMALL))


# How a mat shows its cards: "" name chips; "full" each card's name and type, then its text;
# "flow" each card as "Name: text" run on (shorter, for a crowded private picture).
CardTexts = Literal["", "full", "flow"]


def _card_texts(cards: tuple[CardView, ...], texts: CardTexts) -> list[tuple[str, str, list[str]]]:
    """Each card as (bold name line or "", colour, wrapped text lines): what it does."""
    lang = spoken()
    out = []
    kinds = {
        "friend": translate(lang, "Friend"),
        "technology": translate(lang, "Technology"),
        "skill": translate(lang, "Skill"),
    }
    for c in cards:
        colour = MUTED if c.exhausted else DEV_COLOURS.get(c.type, MUTED)
        name, text = translate(lang, c.name), translate(lang, c.text) if c.text else ""
        if texts == "flow":
            if c.exhausted:
                name = translate(lang, "{card} (used)", card=name)
            out.append(("", colour, wrap(f"{name}: {text}", INNER - 40, SMALL)))
            continue
        kind = kinds.get(c.type, c.type.capitalize())
        if c.exhausted:
            head = translate(lang, "{card} ({kind}, used)", card=name, kind=kind)
        else:
            head = f"{name} ({kind})"
        out.append((head, colour, wrap(text, INNER - 40, SMALL) if c.text else []))
    return out


def _cards_height(seat: SeatView, texts: CardTexts) -> int:
    """Height of the mat's cards: chips, or each card with its text."""
    return _cards_h(seat.cards, texts, spoken())


# asked for a mat's height, its stripes and its drawing; the cards change less than the mat
@lru_cache(maxsize=32)
def _cards_h(cards: tuple[CardView, ...], texts: CardTexts, language: str) -> int:
    """`_cards_height` of `cards` in `language` (the one spoken: a key of the cache)."""
    if not cards:
        return CHIP_H + CHIP_GAP
    if texts:
        return sum(
            (22 if head else 0) + LINE_H * len(lines) + 4
            for head, _, lines in _card_texts(cards, texts)
        )
    return len(_chip_rows(_card_chips(cards), INNER - 20)) * (CHIP_H + CHIP_GAP)


def _deck_words(seat: SeatView) -> list[str]:
    """The deck's make-up as lines of words (a lean mat's, where chips take too much room)."""
    labels = [label for label, _ in composition_chips(seat)]
    return wrap(" · ".join(labels), INNER - 20, SMALL) if labels else []


def _deck_height(seat: SeatView, lean: bool) -> int:
    """Height of the deck's make-up: rows of chips, or lines of words when `lean`."""
    if lean:
        return LINE_H * len(_deck_words(seat))
    return (CHIP_H + CHIP_GAP) * len(_chip_rows(_deck_chips(seat), INNER - 20))


def mat_height(
    seat: SeatView, names: Sequence[str], *, texts: CardTexts = "", lean: bool = False
) -> int:
    """Height of one full-width mat (`texts`: how its cards' texts are shown; `lean`: the
    deck's make-up in words, not chips)."""
    return _mat_height(seat, tuple(names), texts, lean, spoken())


# A picture asks a mat's height up to four times (its look, its layout, its drawing) and the
# next move's picture asks again for the mats that did not change: each is wrapping words.
@lru_cache(maxsize=32)
def _mat_height(
    seat: SeatView, names: tuple[str, ...], texts: CardTexts, lean: bool, language: str
) -> int:
    """`mat_height` in `language` (the one spoken: a key of the cache)."""
    _, pilot, garage = _mat_lines(seat, names)
    cards = _cards_height(seat, texts)
    lines = LINE_H * (len(pilot) + len(garage) - 1)
    return 44 + 24 + lines + 2 * 24 + 24 + cards + _deck_height(seat, lean) + 16


def draw_mat(
    image: Image.Image,
    seat: SeatView,
    names: Sequence[str],
    y: int,
    *,
    acting: bool,
    texts: CardTexts = "",
    lean: bool = False,
) -> int:
    """One player's mat across the picture (`texts`: how its cards' texts are shown; `lean`:
    the deck's make-up in words); returns the y below it."""
    draw = ImageDraw.Draw(image)
    colour = seat_colour(seat.seat)
    height = mat_height(seat, names, texts=texts, lean=lean)
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
    lang = spoken()
    pilot = translate(lang, seat.pilot_name) if seat.pilot_name else translate(lang, "no Pilot yet")
    if seat.famous:
        pilot = "★ " + translate(lang, "Famous {pilot}", pilot=pilot)
    pilot = fit_words(pilot, INNER // 2, 17, bold=True)
    name_w = INNER - 60 - text_width(pilot, 17, bold=True)
    name = fit_words(seat_name(names, seat.seat), name_w, 19, bold=True)
    # tiles: a mat's bar and its Pilot's and Garage's lines stay while its coins and deck change
    bar = (BAR_LEFT, y + BAR_TOP)
    size = (INNER - 2 * (BAR_LEFT - MARGIN), BAR_BOTTOM - BAR_TOP)
    stamp(image, bar, size, tint(colour, 0.55), _bar_tile, seat.seat, pilot, name)
    stats, ability, garage = _mat_lines(seat, names)
    x, cy = MARGIN + 10, y + 46
    draw.text((x, cy), fit_words(stats, INNER - 20, 17), font=font(17), fill=INK)
    cy += 24
    lines = (tuple(ability), seat.pilot_exhausted, tuple(garage))
    height_of = LINE_H * (len(ability) + len(garage)) + 5 + 22
    # the tile starts TEXTS_ABOVE rows up (clear of the stats line) and ends as far above
    # the cards (their own tiles start there)
    stamp(image, (x, cy - TEXTS_ABOVE), (INNER - 16, height_of), PANEL, _lines_tile, *lines)
    cy += height_of
    if seat.cards and texts:
        # a tile: a mat's cards change less often than its coins (PANEL beneath; it starts a
        # little above the first card, clear of the title's glyphs, for a tall accent)
        size = (INNER - 16, TEXTS_ABOVE + _cards_height(seat, texts))
        stamp(image, (x, cy - TEXTS_ABOVE), size, PANEL, _card_texts_tile, seat.cards, texts)
        cy += _cards_height(seat, texts)
    elif seat.cards:
        cy = _chips(image, _card_chips(seat.cards), x, cy, INNER - 20, PANEL)
    else:
        draw.text((x, cy + 4), translate(lang, "none yet"), font=font(SMALL), fill=MUTED)
        cy += CHIP_H + CHIP_GAP
    c = seat.composition
    whole = c.glide + c.experience + c.basic_problem + c.unrevealed_flaws
    whole += sum(n for _, n in c.upgrades) + sum(n for _, n in c.flaws)
    line = translate(
        lang, "Deck: {left} to draw · {cards} in all", left=seat.deck_size,
        cards=ntranslate(lang, "{count} card", "{count} cards", whole),
    )  # fmt: skip
    line = fit_words(line, INNER - 20, SMALL, bold=True)
    draw.text((x, cy + 2), line, font=font(SMALL, bold=True), fill=MUTED)
    if lean:
        for i, words in enumerate(_deck_words(seat)):
            draw.text((x, cy + 24 + i * LINE_H), words, font=font(SMALL), fill=INK)
    else:
        _chips(image, _deck_chips(seat), x, cy + 24, INNER - 20, PANEL)
    return y + height


Item = tuple[object, int]  # what a piece of a mat shows, and the row it starts at


def mat_items(
    seat: SeatView, names: Sequence[str], y: int, *, texts: CardTexts = "", lean: bool = False
) -> list[Item]:
    """What `draw_mat` paints at `y`, top to bottom: each piece's inputs and the row it starts
    at (a piece reaches to the next one's start: a line's glyphs stay above it)."""
    stats, ability, garage = _mat_lines(seat, names)
    bar = (seat.seat, seat.pilot_name, seat.famous, seat_name(names, seat.seat))
    items: list[Item] = [(bar, y), (stats, y + 46)]
    cy = y + 46 + 24
    for line in ability:
        items.append(((line, seat.pilot_exhausted), cy))
        cy += LINE_H
    for line in garage:
        items.append((("garage", line), cy))
        cy += LINE_H
    cy += 5
    items.append(("cards", cy))
    cy += 22
    items.append(((texts, seat.cards), cy))
    cy += _cards_height(seat, texts)
    items.append(((seat.deck_size, seat.composition), cy))
    items.append(((lean, seat.composition), cy + 24))
    return items


TEXTS_ABOVE = 2  # rows of the card texts' tile above the first card
# The bar's tile: the name, the Pilot and the token, inside the bar's rounded corners
BAR_LEFT, BAR_TOP, BAR_BOTTOM = MARGIN + 8, 5, 37


def _bar_tile(image: Image.Image, x: int, y: int, seat: int, pilot: str, name: str) -> None:
    """A mat's bar at (x, y), BAR_LEFT and BAR_TOP from the mat's corner: token, name, Pilot."""
    draw = ImageDraw.Draw(image)
    left, top = x - (BAR_LEFT - MARGIN), y - BAR_TOP  # the mat's corner
    right = left + INNER
    token(draw, left + 8, top + 8, seat, size=22)
    draw.text((right - 10, top + 10), pilot, font=font(17, bold=True), fill=INK, anchor="ra")
    draw.text((left + 38, top + 9), name, font=font(19, bold=True), fill=INK)


def _lines_tile(
    image: Image.Image,
    x: int,
    y: int,
    ability: tuple[str, ...],
    exhausted: bool,
    garage: tuple[str, ...],
) -> None:
    """A mat's Pilot ability and Garage lines and the cards' title, TEXTS_ABOVE rows below
    (x, y)."""
    draw = ImageDraw.Draw(image)
    cy = y + TEXTS_ABOVE
    ink = MUTED if exhausted else INK
    for line in ability:
        draw.text((x, cy), line, font=font(SMALL), fill=ink)
        cy += LINE_H
    for line in garage:
        draw.text((x, cy + 2), line, font=font(SMALL), fill=INK)
        cy += LINE_H
    cy += 5
    cards = translate(spoken(), "Cards (used ones are grey)")
    draw.text((x, cy), cards, font=font(SMALL, bold=True), fill=MUTED)


def _card_texts_tile(
    image: Image.Image, x: int, y: int, cards: tuple[CardView, ...], texts: CardTexts
) -> None:
    """The cards with their texts, TEXTS_ABOVE rows below (x, y)."""
    _draw_card_texts(ImageDraw.Draw(image), cards, x, y + TEXTS_ABOVE, texts)


def _draw_card_texts(
    draw: ImageDraw.ImageDraw, cards: tuple[CardView, ...], x: int, y: int, texts: CardTexts
) -> int:
    """Each card: a dot in its colour, its name, then its text; returns the y below."""
    for head, colour, lines in _card_texts(cards, texts):
        draw.ellipse((x + 2, y + 6, x + 12, y + 16), fill=colour, outline=INK)
        ink = MUTED if colour == MUTED else INK
        if head:
            line = fit_words(head, INNER - 40, SMALL, bold=True)
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
    lang = spoken()
    return [
        (
            f"{i + 1}. {translate(lang, c)}" if numbered else translate(lang, c),
            FLIGHT_COLOURS.get(kinds[i] if i < len(kinds) else "unknown", MUTED),
        )
        for i, c in enumerate(cards)
    ]


Sections = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


def private_sections(view: GameView) -> Sections:
    """(title, chips) of what only this seat sees."""
    lang = spoken()
    top = tuple(_named(view.known_top, view.known_top_kinds, True))
    looking = tuple(_named(view.looking_at, view.looking_at_kinds, False))
    return (
        (translate(lang, "Top of your deck, in order"), top),
        (translate(lang, "Cards you are looking at"), looking),
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
    lang = spoken()
    only = translate(lang, "Only you can see")
    draw.text((MARGIN + 10, y + 8), only, font=font(18, bold=True), fill="#4b3478")
    cy = y + 40
    for title, chips in sections:
        draw.text((MARGIN + 10, cy), title, font=font(SMALL, bold=True), fill=MUTED)
        cy += 24
        if chips:
            cy = _chips(image, chips, MARGIN + 10, cy, INNER - 20, PRIVATE_FILL) + 4
        else:
            none = translate(lang, "nothing")
            draw.text((MARGIN + 10, cy + 4), none, font=font(SMALL), fill=MUTED)
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
    lang = spoken()
    champions = " & ".join(seat_name(names, s) for s, _, _ in rows if s in won)
    over = translate(
        lang, "Game over — {players} won", players=champions or translate(lang, "nobody")
    )
    draw.text(
        (MARGIN + 12, y + 10),
        fit_words(over, INNER - 24, 20, bold=True),
        font=font(20, bold=True),
        fill=SAFE,
    )
    cy = y + 44
    if view.gustave_won:
        line = translate(lang, "Gustave had the highest record: the players compete for 2nd place.")
        draw.text(
            (MARGIN + 12, cy), fit_words(line, INNER - 24, SMALL), font=font(SMALL), fill=MUTED
        )
        cy += 24
    series = {s.seat: s.record_by_year for s in view.seats}
    series_g = view.gustave_record_by_year
    for seat, record, year in rows:
        rank = 1 + sum(1 for _, r, _ in rows if r > record)
        mark = "★ " + translate(lang, "1st") if seat in won else f"{rank}."
        token(draw, MARGIN + 70, cy + 2, seat, size=20)
        size = shrunk(mark, 56, 18, bold=True, smallest=SMALL)  # left of the token
        draw.text(
            (MARGIN + 12, cy + 18 - size), mark, font=font(size, bold=True),
            fill=SAFE if seat in won else INK,
        )  # fmt: skip
        if year:
            when = translate(lang, "set in Year {year}", year=year)
        else:
            when = translate(lang, "automa") if seat is None else translate(lang, "never flew")
        head = f"{seat_name(names, seat)} — {record} ({when})"
        draw.text(
            (MARGIN + 98, cy),
            fit_words(head, INNER - 110, 18, bold=seat in won),
            font=font(18, bold=seat in won),
            fill=INK,
        )
        values = series.get(seat, ()) if seat is not None else series_g
        per_year = " · ".join(str(v) for v in values)
        draw.text(
            (MARGIN + 98, cy + 22),
            fit_words(translate(lang, "by Year: {records}", records=per_year), INNER - 110, SMALL),
            font=font(SMALL),
            fill=MUTED,
        )
        cy += 48
