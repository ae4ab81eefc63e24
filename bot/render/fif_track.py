"""First in Flight for a phone (640 px wide): header, pawns, the Year's track and the records."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import ptranslate, translate
from bot.render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_SYMBOLS,
    canvas,
    centred,
    fit_words,
    font,
    shrunk,
    spoken,
    text_width,
    tint,
)
from bot.render.fif_board import (
    ACTION_COLOURS,
    LINE,
    BoardKey,
    board_key,
    hourglass,
    icon,
    pack_boxes,
    seat_colour,
    seat_name,
    wrap,
)
from bot.render.fif_chart import Entry, view_entries
from rules.first_in_flight.view import GameView, PawnView

WIDTH = 640  # shown 400 px wide, the smallest text (16 px) reads at ~9.4 px
MARGIN = 12
INNER = WIDTH - 2 * MARGIN
SMALL = 16
WHITE = "#ffffff"
HEADER_H = 96
TITLE_W = INNER - 230  # the title's room beside the Year tracker (22 px bold)
AREA_W, ACTION_W, TIME_W, GAP = 58, 92, 26, 3
TILE_H, ROW_GAP = 100, 8
TOKEN = 24
SHORT = {"experience": "Exp.", "technology": "Tech."}  # only where the whole word cannot fit
NAMES = {"funding": "Funding", "experience": "Experience", "technology": "Technology"}


def short_names() -> dict[str, str]:
    """Actions' short forms, used only where the whole word cannot fit."""
    lang = spoken()
    return {
        "experience": translate(lang, "Exp."),
        "technology": translate(lang, "Tech."),
        "funding": translate(lang, "Fund."),
        "upgrade": translate(lang, "Upgr."),
        "skill": translate(lang, "Sk."),
    }


def action_names() -> dict[str, str]:
    """The actions a tile names, in the picture's language."""
    lang = spoken()
    return {
        "funding": translate(lang, "Funding"),
        "experience": translate(lang, "Experience"),
        "technology": translate(lang, "Technology"),
        "glide": translate(lang, "Glide"),
        "skill": translate(lang, "Skill"),
        "friend": translate(lang, "Friend"),
        "fly": translate(lang, "Fly"),
        "upgrade": translate(lang, "Upgrade"),
        "repair": translate(lang, "Repair"),
    }


def key_text() -> str:
    """The key under the board: every code a tile prints, in words."""
    return translate(
        spoken(),
        "Key: 3M|2t = pay 3 Money or 2 Time · +2 = take 2 coins · X≥2 = pay X, 2 or more · "
        "+1M = 1 Money more · Exp. = Experience",
    )


def token(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    seat: int | None,
    *,
    size: int = TOKEN,
    number: int = 0,
    standing: bool = True,
) -> None:
    """A pawn or marker: the seat's shape (●■▲◆, Gustave a hexagon) in its colour, a number
    inside; a crashed pawn is slashed (so colour is never the only cue)."""
    box = (x, y, x + size, y + size)
    colour = seat_colour(seat)
    shape = 5 if seat is None else seat % 5
    if shape == 0:
        draw.ellipse(box, fill=colour, outline=INK, width=2)
    elif shape == 1:
        draw.rectangle(box, fill=colour, outline=INK, width=2)
    elif shape == 2:
        draw.polygon(
            [(x + size / 2, y), (x + size, y + size), (x, y + size)],
            fill=colour,
            outline=INK,
            width=2,
        )
    elif shape == 3:
        c = size / 2
        draw.polygon(
            [(x + c, y), (x + size, y + c), (x + c, y + size), (x, y + c)],
            fill=colour,
            outline=INK,
            width=2,
        )
    else:
        draw.regular_polygon(
            (x + size / 2, y + size / 2, size / 2), 6, fill=colour, outline=INK, width=2
        )
    if number:
        draw.text(
            (x + size / 2, y + size / 2 + (3 if shape == 2 else 0)),
            str(number),
            font=font(SMALL, bold=True),
            fill=WHITE,
            anchor="mm",
            stroke_width=2,
            stroke_fill=INK,
        )
    if not standing:
        draw.line((x - 2, y + size + 2, x + size + 2, y - 2), fill=INK, width=4)
        draw.line((x - 1, y + size + 1, x + size + 1, y - 1), fill=HIGHLIGHT, width=2)


# The header (HEADER_H rows): title and Year tracker above STATUS_TOP (their last row is 36),
# the status bar below it; each is a tile of its own, the status changing with every move.
STATUS_TOP = 40


def title_bar(draw: ImageDraw.ImageDraw, year: int, title: str, top: int) -> None:
    """The header's title and Year tracker, the header's top at `top` (all above STATUS_TOP)."""
    draw.text(
        (MARGIN, top + 8),
        fit_words(title, TITLE_W, 22, bold=True),
        font=font(22, bold=True),
        fill=INK,
    )
    x = WIDTH - MARGIN - 4 * 36 - 52
    year_word = translate(spoken(), "Year")
    size = shrunk(year_word, 48, 17, bold=True, smallest=SMALL)
    draw.text((x, top + 12 + 17 - size), year_word, font=font(size, bold=True), fill=INK)
    now = year
    for year in range(1, 5):
        cx = x + 52 + (year - 1) * 36
        current = year == now
        fill = HIGHLIGHT if current else ("#d9d3c3" if year < now else WHITE)
        box = (cx, top + 6, cx + 30, top + 36)
        draw.ellipse(box, fill=fill, outline=INK, width=3 if current else 1)
        draw.text((cx + 15, top + 21), str(year), font=font(17, bold=True), fill=INK, anchor="mm")


def status_bar(draw: ImageDraw.ImageDraw, status: str, colour: str, top: int) -> None:
    """The header's status bar, the header's top at `top` (all below STATUS_TOP)."""
    box = (MARGIN, top + 46, WIDTH - MARGIN, top + 86)
    draw.rounded_rectangle(box, radius=6, fill=tint(colour, 0.6))
    line = fit_words(status, INNER - 20, 19, bold=True)
    draw.text((MARGIN + 10, top + 55), line, font=font(19, bold=True), fill=INK)


# ---------------------------------------------------------------- the track


@lru_cache(maxsize=4)
def track_layout(key: BoardKey) -> tuple[tuple[tuple[int, int, int, int], ...], int]:
    """Boxes for the start area, every space and the finish area, in rows; total height."""
    widths = [AREA_W] + [ACTION_W if k == "action" else TIME_W for k, _, _ in key] + [AREA_W]
    return pack_boxes(widths, inner=INNER, margin=MARGIN, tile_h=TILE_H, gap=GAP, row_gap=ROW_GAP)


def _name_line(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], word: str, *, bold: bool
) -> None:
    """A whole word centred in `box`: bold when it fits, else regular (the tile's full width)."""
    x0, y0, x1, _ = box
    width = x1 - x0 - 2
    if bold and text_width(word, SMALL, bold=True) > width:
        bold = False
    word = fit_words(word, width, SMALL, bold=bold)  # a word longer than the tile: never past it
    x = x0 + (x1 - x0 - text_width(word, SMALL, bold=bold)) // 2
    draw.text((x, y0), word, font=font(SMALL, bold=bold), fill=INK)


def _kind_name(kind: str, room: int, extra: str = "") -> str:
    """The action's whole name when it (and `extra`) fits in `room` px, else its short form."""
    name = action_names().get(kind, kind.capitalize())
    if text_width(name + extra, SMALL) <= room:
        return name
    return short_names().get(kind, name)


def _action_tile(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    number: int,
    options: tuple[tuple[str, str], ...],
) -> None:
    """An Action Space: colour stripe, number, icons, then each option and its cost in full
    words where they fit (the key under the board spells out the costs)."""
    x0, y0, x1, _ = box
    kinds = [k for k, _ in options]
    fill = tint(ACTION_COLOURS.get(kinds[0], MUTED), 0.8)
    draw.rounded_rectangle(box, radius=7, fill=fill, outline=INK, width=1)
    stripe = (x1 - x0) // len(kinds)
    for i, kind in enumerate(kinds):
        draw.rectangle(
            (x0 + 2 + i * stripe, y0 + 2, x0 + (i + 1) * stripe - 2, y0 + 7),
            fill=ACTION_COLOURS.get(kind, MUTED),
        )
    draw.text((x0 + 5, y0 + 9), str(number), font=font(19, bold=True), fill=INK)
    costs = {cost for _, cost in options}
    if len(options) > 1 and len(costs) == 1:
        # one cost for both (Friend or Technology): the cost takes the icons' place
        cost = costs.pop()
        draw.text((x1 - 5, y0 + 11), cost, font=font(SMALL, bold=True), fill=INK, anchor="ra")
        first, second = (_kind_name(k, x1 - x0 - 2) for k in kinds[:2])
        either = translate(spoken(), "{action} or", action=first)
        _name_line(draw, (x0, y0 + 34, x1, y0 + 52), either, bold=False)
        _name_line(draw, (x0, y0 + 53, x1, y0 + 71), second, bold=False)
        return
    for i, kind in enumerate(kinds[:2]):
        icon(draw, kind, x1 - 26 - i * 24, y0 + 11, 21)
    if len(options) == 1:
        kind, cost = options[0]
        _name_line(draw, (x0, y0 + 34, x1, y0 + 52), _kind_name(kind, x1 - x0 - 2), bold=True)
        centred(draw, (x0, y0 + 53, x1, y0 + 71), cost, SMALL)
        return
    for i, (kind, cost) in enumerate(options[:2]):
        line = f"{_kind_name(kind, x1 - x0 - 2, f' {cost}')} {cost}"
        _name_line(draw, (x0, y0 + 34 + i * 19, x1, y0 + 52 + i * 19), line, bold=False)


KEY_MIN_W = 200  # room the last track row must leave for the key to sit beside it


def key_box(key: BoardKey) -> tuple[int, int, int, int] | None:
    """Where the key fits beside the last row of the track (4-player side), or None."""
    return _key_box(key, spoken())


@lru_cache(maxsize=8)
def _key_box(key: BoardKey, language: str) -> tuple[int, int, int, int] | None:
    """`key_box` in `language` (the one spoken: a key of the cache)."""
    boxes, height = track_layout(key)
    left = boxes[-1][2] + 12
    if MARGIN + INNER - left < KEY_MIN_W:
        return None
    # a longer key (another language) that does not fit beside the row goes under the board
    if len(key_lines(MARGIN + INNER - left)) * 20 > height - boxes[-1][1]:
        return None
    return (left, boxes[-1][1], MARGIN + INNER, height)


def key_lines(width: int) -> list[str]:
    """The key's lines wrapped to `width` px."""
    return list(_key_lines(width, spoken()))


@lru_cache(maxsize=8)
def _key_lines(width: int, language: str) -> tuple[str, ...]:
    """`key_lines` in `language` (the one spoken: a key of the cache)."""
    return tuple(wrap(key_text(), width, SMALL))


def track_background(key: BoardKey) -> Image.Image:
    """The empty track of one board side (static: drawn once per side and language, copied per
    turn), with the key to its costs beside the last row when there is room."""
    return _background(key, spoken())


@lru_cache(maxsize=4)
def _background(key: BoardKey, language: str) -> Image.Image:
    """`track_background` in `language` (the one spoken while drawing: a key of the cache)."""
    boxes, height = track_layout(key)
    image, draw = canvas(WIDTH, height)
    room = key_box(key)
    if room is not None:
        x0, y0, x1, _ = room
        for i, line in enumerate(key_lines(x1 - x0)):
            draw.text((x0, y0 + i * 20), line, font=font(SMALL), fill=MUTED)
    # "board": the words of the track's ends (not the bot's "Start" button)
    for box, title in (
        (boxes[0], ptranslate(language, "board", "Start")),
        (boxes[-1], ptranslate(language, "board", "Next")),
    ):
        draw.rounded_rectangle(box, radius=7, fill="#dfe8d8", outline="#6b8f5e", width=2)
        # a longer word takes a second line, still above the pawns (4 of them end 42 px down)
        lines = 1 if text_width(title, SMALL, bold=True) <= box[2] - box[0] - 4 else 2
        area = (box[0], box[1] + 4, box[2], box[1] + 4 + 19 * lines + (1 if lines == 1 else 0))
        centred(draw, area, title, SMALL, bold=True, fill="#3d5c32")
    for (kind, number, options), box in zip(key, boxes[1:-1], strict=False):
        if kind == "action":
            _action_tile(draw, box, number, options)
        else:
            draw.rounded_rectangle(box, radius=5, fill="#ebe6da", outline=LINE)
            hourglass(draw, (box[0] + box[2]) // 2, box[1] + 5)
    return image


def _place(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    pawns: list[PawnView],
    *,
    numbered: bool,
) -> None:
    """Pawns in turn order: a column on a Time Space, a row (or two) elsewhere."""
    x0, y0, x1, y1 = box
    width = x1 - x0
    per_row = max(1, (width - 2) // (TOKEN + 3))
    if per_row == 1:
        step = min(TOKEN + 2, (y1 - y0 - 28 - TOKEN) // max(1, len(pawns) - 1))
        spots = [(x0 + 1, y0 + 26 + i * step) for i in range(len(pawns))]
    else:
        rows = -(-len(pawns) // per_row)
        spots = []
        for i in range(len(pawns)):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(pawns) - row * per_row)
            left = x0 + (width - in_row * (TOKEN + 3) + 3) // 2
            spots.append((left + col * (TOKEN + 3), y1 - 4 - (rows - row) * (TOKEN + 3)))
    for (px, py), p in reversed(list(zip(spots, pawns, strict=True))):
        number = p.turn_order + 1 if numbered else 0
        token(draw, px, py, p.seat, number=number, standing=p.standing)


def draw_track(view: GameView) -> Image.Image:
    """The Year's track with every pawn; numbers give the turn order (1 acts next)."""
    return track_with_pawns(board_key(view), view.pawns, view.over)


def track_with_pawns(key: BoardKey, pawns: Sequence[PawnView], over: bool) -> Image.Image:
    """The track of board side `key` with `pawns` on it (unnumbered once the game is `over`)."""
    image = track_background(key).copy()
    _pawns(ImageDraw.Draw(image), key, pawns, over, (0, image.height))
    return image


def _by_box(key: BoardKey, pawns: Sequence[PawnView]) -> dict[int, list[PawnView]]:
    """The pawns by the box they stand in (0 the start area), each box's in turn order."""
    end = len(key)
    by_pos: dict[int, list[PawnView]] = {}
    for p in sorted(pawns, key=lambda p: p.turn_order):
        by_pos.setdefault(min(max(p.pos, -1), end) + 1, []).append(p)
    return by_pos


def _pawns(
    draw: ImageDraw.ImageDraw,
    key: BoardKey,
    pawns: Sequence[PawnView],
    over: bool,
    rows: tuple[int, int],
) -> None:
    """The pawns of the boxes whose top lies in track rows [top, bottom), drawn `top` higher
    (a box's pawns stay inside it: a row's pawns touch no other row)."""
    boxes, _ = track_layout(key)
    top, bottom = rows
    for index, here in _by_box(key, pawns).items():
        x0, y0, x1, y1 = boxes[index]
        if top <= y0 < bottom:
            numbered = index != len(key) + 1 and not over
            _place(draw, (x0, y0 - top, x1, y1 - top), here, numbered=numbered)


def track_rows(key: BoardKey) -> list[tuple[int, int]]:
    """The track's rows of spaces as [top, bottom) spans, each to the next one's top (the gap
    below a row is its own), the last to the track's bottom."""
    boxes, height = track_layout(key)
    tops = sorted({box[1] for box in boxes})
    return list(zip(tops, [*tops[1:], height], strict=True))


def row_pawns(key: BoardKey, pawns: Sequence[PawnView]) -> list[tuple[object, ...]]:
    """What the pawns in each of `track_rows` look like: each box's pawns in turn order."""
    boxes, _ = track_layout(key)
    rows = track_rows(key)
    inside: list[list[object]] = [[] for _ in rows]
    for index, here in _by_box(key, pawns).items():
        row = next(i for i, (top, bottom) in enumerate(rows) if top <= boxes[index][1] < bottom)
        inside[row].append((index, tuple(here)))
    return [tuple(found) for found in inside]


def track_piece(
    key: BoardKey, pawns: Sequence[PawnView], over: bool, rows: tuple[int, int]
) -> Image.Image:
    """Track rows [top, bottom) (within the track) with their pawns: what `track_with_pawns`
    gives there."""
    piece = track_background(key).crop((0, rows[0], WIDTH, rows[1]))
    _pawns(ImageDraw.Draw(piece), key, pawns, over, rows)
    return piece


# ---------------------------------------------------------------- records

REC_MAX = 40
REC_X0, REC_X1 = MARGIN + 10, WIDTH - MARGIN - 34


def rec_x(value: int) -> int:
    """The x of a record value (40 and above share the last cell)."""
    return round(REC_X0 + min(value, REC_MAX) * (REC_X1 - REC_X0) / REC_MAX)


Entries = Sequence[Entry]  # every record holder: (seat or None for Gustave, record, Year set)


def records_lines(view: GameView, names: Sequence[str]) -> list[str]:
    """Every record, best first, in words (the markers' key)."""
    return _lines(view_entries(view), names)


def _lines(entries: Entries, names: Sequence[str]) -> list[str]:
    """Every record of `entries`, best first, in words."""
    rows = sorted(entries, key=lambda e: (-e[1], e[0] is None, e[0] or 0))
    words = " · ".join(f"{_symbol(s)}{seat_name(names, s)} {r}" for s, r, _ in rows)
    return wrap(translate(spoken(), "Records: {records}", records=words), INNER, SMALL)


def _symbol(seat: int | None) -> str:
    """The text symbol matching a seat's marker shape (Gustave's hexagon has none)."""
    return "" if seat is None else SEAT_SYMBOLS[seat % len(SEAT_SYMBOLS)] + " "


def records_height(view: GameView, names: Sequence[str]) -> int:
    """Height of the records panel."""
    return entries_height(view_entries(view), names)


def entries_height(entries: Entries, names: Sequence[str]) -> int:
    """Height of the records panel of `entries`."""
    stack = max(1, *_stack_levels(entries).values())
    return 30 + stack * 16 + 52 + 20 * len(_lines(entries, names))


def _stack_levels(entries: Entries) -> dict[int, int]:
    """How many markers share each record value."""
    levels: dict[int, int] = {}
    for _, v, _ in entries:
        levels[min(v, REC_MAX)] = levels.get(min(v, REC_MAX), 0) + 1
    return levels


def draw_records(draw: ImageDraw.ImageDraw, view: GameView, names: Sequence[str], y: int) -> None:
    """The record track 0–40+ with each holder's marker (stacked when equal), then the list."""
    draw_entries(draw, view_entries(view), names, y)


def draw_entries(draw: ImageDraw.ImageDraw, entries: Entries, names: Sequence[str], y: int) -> None:
    """The record track with the markers of `entries` (players, then Gustave), then the list."""
    stack = max(1, *_stack_levels(entries).values())
    bar_y = y + 26 + stack * 16
    draw.text((MARGIN, y), translate(spoken(), "Records"), font=font(17, bold=True), fill=INK)
    draw.rounded_rectangle((REC_X0 - 6, bar_y, REC_X1 + 28, bar_y + 10), radius=5, fill="#e2dccd")
    draw.rectangle((rec_x(15), bar_y, REC_X1, bar_y + 10), fill="#f3d98b")
    for v in range(0, REC_MAX + 1, 5):
        x = rec_x(v)
        draw.line((x, bar_y - 3, x, bar_y + 10), fill=INK)
        draw.text(
            (x, bar_y + 13),
            f"{v}+" if v == REC_MAX else str(v),
            font=font(SMALL),
            fill=INK,
            anchor="ma",
        )
    famous = "★ " + translate(spoken(), "Famous from {record}", record=15)
    draw.text((rec_x(15) + 30, y + 2), famous, font=font(SMALL), fill="#7a5f00")
    seen: dict[int, int] = {}
    for seat, value, _ in entries:
        level = seen.get(min(value, REC_MAX), 0)
        seen[min(value, REC_MAX)] = level + 1
        token(draw, rec_x(value) - 9, bar_y - 20 - level * 16, seat, size=18)
    for i, line in enumerate(_lines(entries, names)):
        draw.text((MARGIN, bar_y + 38 + i * 20), line, font=font(SMALL), fill=INK)
