"""First in Flight player mats: pilot, coins, record, cards, Garage and the deck's known make-up."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from bot.i18n import ntranslate, translate
from bot.render.common import INK, MUTED, spoken, text_width, tint
from bot.render.fif_board import (
    ACTION_COLOURS,
    INNER,
    LINE,
    MARGIN,
    PANEL,
    WHITE,
    dev_chip,
    seat_colour,
    seat_name,
    text,
    wrap,
)
from rules.first_in_flight.view import GameView, SeatView

MAT_GAP = 12
MAT_W = (INNER - MAT_GAP) // 2
CHIP_H, CHIP_GAP = 26, 6
CARD_KINDS = {"friend": 0, "technology": 1, "skill": 2}
FLIGHT_COLOURS = {
    "glide": "#5fb4e6",
    "experience": "#5cb85c",
    "upgrade": "#ee8b2b",
    "problem": "#8b1e1e",
    "flaw": "#d8452f",
    "unknown": "#4a4a4a",
    "descend": "#1f8a4c",
    # Development cards a seat may look at (e.g. Langley choosing which to gain)
    "friend": ACTION_COLOURS["friend"],
    "technology": ACTION_COLOURS["technology"],
    "skill": ACTION_COLOURS["skill"],
}


def composition_chips(seat: SeatView) -> list[tuple[str, str]]:
    """(label, colour kind) for each card family in the seat's deck, flaws last."""
    c = seat.composition
    lang = spoken()
    glide = translate(lang, "Glide ×{count}", count=c.glide)
    chips = [(glide, "glide")] if c.glide else []
    if c.experience:
        chips.append((translate(lang, "Experience ×{count}", count=c.experience), "experience"))
    chips += [
        (translate(lang, "Upgrade {value} ×{count}", value=value, count=n), "upgrade")
        for value, n in c.upgrades
    ]
    if c.basic_problem:
        problems = translate(lang, "Basic Problem ×{count}", count=c.basic_problem)
        chips.append((problems, "problem"))
    chips += [(f"{translate(lang, name)} ×{n}", "flaw") for name, n in c.flaws]
    if c.unrevealed_flaws:
        chips.append((translate(lang, "? flaw ×{count}", count=c.unrevealed_flaws), "unknown"))
    return chips


def chip_rows(chips: Sequence[tuple[str, str]], width: int) -> list[list[tuple[str, str, int]]]:
    """Chips packed into rows no wider than `width`: (label, kind, chip width)."""
    rows: list[list[tuple[str, str, int]]] = [[]]
    used = 0
    for label, kind in chips:
        w = min(width, text_width(label, 14) + 22)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0
        rows[-1].append((label, kind, w))
        used += w + CHIP_GAP
    return rows


def draw_chips(
    draw: ImageDraw.ImageDraw, chips: Sequence[tuple[str, str]], x: int, y: int, width: int
) -> int:
    """Composition chips from (x, y); returns the y below them."""
    for row in chip_rows(chips, width):
        cx = x
        for label, kind, w in row:
            colour = FLIGHT_COLOURS[kind]
            draw.rounded_rectangle(
                (cx, y, cx + w, y + CHIP_H),
                radius=12,
                fill=tint(colour, 0.78),
                outline=colour,
                width=2,
            )
            draw.ellipse((cx + 6, y + 9, cx + 14, y + 17), fill=colour)
            text(draw, (cx + 18, y + 4), label, 14, max_width=w - 20)
            cx += w + CHIP_GAP
        y += CHIP_H + CHIP_GAP
    return y


def _cards_height(seat: SeatView) -> int:
    """Height of the Development card grid (two per row)."""
    return ((len(seat.cards) + 1) // 2) * (CHIP_H + 4) if seat.cards else 22


def pilot_lines(seat: SeatView) -> list[str]:
    """The Pilot ability text, wrapped (at most 3 lines); marked when used up."""
    if not seat.pilot_text:
        return []
    line = translate(spoken(), seat.pilot_text)
    if seat.pilot_exhausted:
        line = translate(spoken(), "Used until refreshed: {ability}", ability=line)
    return wrap(line, MAT_W - 20, 14)[:3]


def _pilot_height(seat: SeatView) -> int:
    """Height of the Pilot ability lines."""
    lines = pilot_lines(seat)
    return 19 * len(lines) + 4 if lines else 0


def mat_height(seat: SeatView) -> int:
    """Height of one player's mat."""
    chips = chip_rows(composition_chips(seat), MAT_W - 20)
    body = 128 + _pilot_height(seat) + _cards_height(seat)
    return body + 28 + len(chips) * (CHIP_H + CHIP_GAP) + 8


def coin(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A small gold coin."""
    draw.ellipse((x, y, x + 16, y + 16), fill="#e3b62e", outline=INK, width=2)
    draw.ellipse((x + 5, y + 5, x + 11, y + 11), outline=INK)


def draw_mat(
    draw: ImageDraw.ImageDraw,
    seat: SeatView,
    names: Sequence[str],
    x: int,
    y: int,
    height: int,
    *,
    acting: bool,
) -> None:
    """One player's mat at (x, y)."""
    colour = seat_colour(seat.seat)
    right = x + MAT_W
    draw.rounded_rectangle(
        (x, y, right, y + height),
        radius=10,
        fill=PANEL,
        outline=colour if acting else LINE,
        width=4 if acting else 2,
    )
    draw.rounded_rectangle((x + 2, y + 2, right - 2, y + 34), radius=9, fill=tint(colour, 0.55))
    draw.ellipse((x + 10, y + 9, x + 26, y + 25), fill=colour, outline=INK, width=2)
    pilot = seat.pilot_name or translate(spoken(), "no Pilot yet")
    pilot_w = min(
        MAT_W - 170, text_width(("★ Famous " if seat.famous else "") + pilot, 15, bold=True) + 4
    )
    text(
        draw,
        (x + 32, y + 7),
        seat_name(names, seat.seat),
        16,
        bold=True,
        max_width=MAT_W - pilot_w - 50,
    )
    if seat.famous:
        draw.rounded_rectangle(
            (right - pilot_w - 14, y + 6, right - 6, y + 29),
            radius=8,
            fill="#f3d98b",
            outline="#9a7b10",
        )
    text(
        draw,
        (right - pilot_w - 8, y + 8),
        ("★ Famous " if seat.famous else "") + pilot,
        15,
        bold=True,
        max_width=pilot_w,
    )
    coin(draw, x + 10, y + 44)
    lang = spoken()
    stats = ntranslate(lang, "{count} coin", "{count} coins", seat.coins)
    stats += "   " + translate(lang, "Record {record}", record=seat.record)
    if seat.record and seat.record_year:
        stats += " " + translate(lang, "(Year {year})", year=seat.record_year)
    stats += "   " + translate(lang, "Flights {count}", count=seat.flights)
    text(draw, (x + 32, y + 42), stats, 15, max_width=MAT_W - 40)
    ink = MUTED if seat.pilot_exhausted else INK
    for i, line in enumerate(pilot_lines(seat)):
        text(draw, (x + 10, y + 66 + i * 19), line, 14, fill=ink, max_width=MAT_W - 20)
    y += _pilot_height(seat)
    _garage(draw, seat, x + 10, y + 68)
    cy = y + 104
    text(draw, (x + 10, cy), translate(spoken(), "Cards (grey = used)"), 14, bold=True, fill=MUTED)
    cy += 20
    half = (MAT_W - 26) // 2
    for i, card in enumerate(seat.cards):
        cx = x + 10 + (i % 2) * (half + 6)
        top = cy + (i // 2) * (CHIP_H + 4)
        dev_chip(
            draw,
            (cx, top, cx + half, top + CHIP_H),
            card.name,
            CARD_KINDS.get(card.type, 2),
            exhausted=card.exhausted,
        )
    if not seat.cards:
        text(draw, (x + 10, cy), translate(spoken(), "none yet"), 14, fill=MUTED)
    cy += _cards_height(seat) + 4
    whole = sum(n for n in _counts(seat))
    text(
        draw,
        (x + 10, cy),
        translate(
            spoken(),
            "Deck: {left} to draw · {cards} in all",
            left=seat.deck_size,
            cards=ntranslate(spoken(), "{count} card", "{count} cards", whole),
        ),
        14,
        bold=True,
        fill=MUTED,
        max_width=MAT_W - 20,
    )
    draw_chips(draw, composition_chips(seat), x + 10, cy + 22, MAT_W - 20)


def _counts(seat: SeatView) -> list[int]:
    """Card counts of every family in the seat's known composition."""
    c = seat.composition
    return [
        c.glide,
        c.experience,
        c.basic_problem,
        c.unrevealed_flaws,
        *(n for _, n in c.upgrades),
        *(n for _, n in c.flaws),
    ]


def _garage(draw: ImageDraw.ImageDraw, seat: SeatView, x: int, y: int) -> None:
    """The two Garage slots (the right one costs 1 more Time to repair)."""
    text(draw, (x, y + 6), "Garage", 14, bold=True, fill=MUTED)
    slot_w = (MAT_W - 90) // 2
    for i, (flaw, tag) in enumerate(zip(seat.garage, ("left", "right +1t"), strict=True)):
        sx = x + 64 + i * (slot_w + 6)
        box = (sx, y, sx + slot_w, y + 28)
        if flaw:
            draw.rounded_rectangle(
                box,
                radius=6,
                fill=tint(FLIGHT_COLOURS["flaw"], 0.75),
                outline=FLIGHT_COLOURS["flaw"],
                width=2,
            )
            text(draw, (sx + 6, y + 5), flaw, 14, max_width=slot_w - 12)
        else:
            draw.rounded_rectangle(box, radius=6, fill=WHITE, outline=LINE)
            text(draw, (sx + 6, y + 5), f"empty ({tag})", 14, fill=MUTED, max_width=slot_w - 12)


def _gustave_lines(view: GameView, width: int) -> list[str]:
    """Gustave's side and the display cards he removed, wrapped to `width`."""
    lang = spoken()
    taken = ", ".join(translate(lang, c) for c in view.gustave_cards) or translate(lang, "none")
    side = wrap(view.gustave_level, width - 20, 14) if view.gustave_level else []
    removed = translate(lang, "Cards removed from the display: {cards}", cards=taken)
    return side + wrap(removed, width - 20, 14)


def gustave_height(view: GameView, width: int) -> int:
    """Height of Gustave's panel at `width` (0 without Gustave)."""
    if view.gustave_record is None:
        return 0
    return 44 + 19 * len(_gustave_lines(view, width)) + 6


def draw_gustave(
    draw: ImageDraw.ImageDraw, view: GameView, x: int, y: int, width: int, height: int
) -> None:
    """Gustave's record and the display cards he has removed (abilities others may copy)."""
    colour = seat_colour(None)
    box = (x, y, x + width, y + height)
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=LINE, width=2)
    draw.rounded_rectangle((x + 2, y + 2, x + width - 2, y + 34), radius=9, fill=tint(colour, 0.6))
    draw.ellipse((x + 10, y + 9, x + 26, y + 25), fill=colour, outline=INK, width=2)
    title = translate(spoken(), "Gustave (automa) · Record {record}", record=view.gustave_record)
    text(draw, (x + 32, y + 7), title, 16, bold=True, max_width=width - 40)
    for i, line in enumerate(_gustave_lines(view, width)):
        text(draw, (x + 10, y + 42 + i * 19), line, 14, fill=MUTED, max_width=width - 20)


def _grid(view: GameView) -> tuple[list[int], bool]:
    """Row heights of the mat grid, and whether Gustave fills the free cell of the last row."""
    heights = [mat_height(s) for s in view.seats]
    beside = view.gustave_record is not None and len(view.seats) % 2 == 1
    if beside:
        heights.append(gustave_height(view, MAT_W))
    return [max(heights[i : i + 2]) for i in range(0, len(heights), 2)], beside


def mats_height(view: GameView) -> int:
    """Height of all mats (two per row) plus Gustave's panel when it has a row of its own."""
    rows, beside = _grid(view)
    below = 0 if beside else gustave_height(view, INNER)
    return sum(rows) + MAT_GAP * len(rows) + below


def draw_mats(draw: ImageDraw.ImageDraw, view: GameView, names: Sequence[str], y: int) -> None:
    """Every player's mat, two per row; Gustave beside the last one or underneath."""
    rows, beside = _grid(view)
    for r, row_h in enumerate(rows):
        for j, seat in enumerate(view.seats[2 * r : 2 * r + 2]):
            x = MARGIN + j * (MAT_W + MAT_GAP)
            acting = view.deciding == seat.seat and not view.over
            draw_mat(draw, seat, names, x, y, row_h, acting=acting)
        if r < len(rows) - 1 or not beside:
            y += row_h + MAT_GAP
    if beside:
        draw_gustave(draw, view, MARGIN + MAT_W + MAT_GAP, y, MAT_W, rows[-1])
    elif view.gustave_record is not None:
        draw_gustave(draw, view, MARGIN, y, INNER, gustave_height(view, INNER) - 8)


def private_height(view: GameView, width: int) -> int:
    """Height of the 'only you can see' panel of a seat's view."""
    height = 44
    for cards in (view.known_top, view.looking_at):
        rows = len(chip_rows(_named(cards, (), True), width - 20)) if cards else 1
        height += 24 + rows * (CHIP_H + CHIP_GAP) + 4
    return height


def _named(
    cards: Sequence[str], kinds: Sequence[str], numbered: bool = False
) -> list[tuple[str, str]]:
    """Card names as chips, coloured by their kind (grey when the kind is not known)."""
    return [
        (f"{i + 1}. {c}" if numbered else c, kinds[i] if i < len(kinds) else "unknown")
        for i, c in enumerate(cards)
    ]


def draw_private(
    draw: ImageDraw.ImageDraw, view: GameView, x: int, y: int, width: int, height: int
) -> None:
    """What only this seat sees: the known top of its deck and the cards it is looking at."""
    draw.rounded_rectangle(
        (x, y, x + width, y + height), radius=10, fill="#f1ecfa", outline="#6c4f9e", width=2
    )
    lang = spoken()
    text(draw, (x + 10, y + 8), translate(lang, "Only you can see"), 16, bold=True, fill="#4b3478")
    cy = y + 40
    sections = (
        (translate(lang, "Top of your deck, in order"), view.known_top, view.known_top_kinds, True),
        (
            translate(lang, "Cards you are looking at"),
            view.looking_at,
            view.looking_at_kinds,
            False,
        ),
    )
    for title, cards, kinds, numbered in sections:
        text(draw, (x + 10, cy), title, 14, bold=True, fill=MUTED, max_width=width - 20)
        cy += 24
        if cards:
            cy = draw_chips(draw, _named(cards, kinds, numbered), x + 10, cy, width - 20) + 4
        else:
            text(draw, (x + 10, cy + 4), "nothing", 14, fill=MUTED)
            cy += CHIP_H + CHIP_GAP + 4
