"""First in Flight board pieces: shared drawing helpers, the Year's track, the face-up display."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import translate
from bot.render.common import (
    INK,
    MUTED,
    SEAT_COLOURS,
    canvas,
    centred,
    fit_text,
    font,
    pieces,
    spoken,
    tint,
)
from bot.render.common import seat_name as common_seat_name
from bot.render.common import text_width as width_of
from rules.first_in_flight.view import GameView, PawnView

WIDTH = 960
MARGIN = 16
INNER = WIDTH - 2 * MARGIN
GUSTAVE_COLOUR = "#5f6368"  # apart from every seat colour for colour-blind eyes (test_phone)
WHITE = "#ffffff"
PANEL = "#fffdf7"
LINE = "#cfc8b6"

ACTION_COLOURS = {
    "funding": "#e3b62e",
    "glide": "#5fb4e6",
    "experience": "#5cb85c",
    "skill": "#2a9d8f",
    "friend": "#e07aa0",
    "technology": "#8e6cc9",
    "fly": "#3a6fd0",
    "upgrade": "#ee8b2b",
    "repair": "#9c7a55",
    "any": "#7a7f8c",
}
SHORT_NAMES = {"experience": "Exp.", "technology": "Tech."}

A_W, T_W, AREA_W, TILE_H, GAP, ROW_GAP = 114, 42, 150, 150, 4, 10
PAWN_W, PAWN_H = 30, 34
SLOT = PAWN_H + 3  # room for one pawn side by side (a lying pawn is PAWN_H wide)


# ---------------------------------------------------------------- shared helpers


def seat_name(names: Sequence[str], seat: int | None) -> str:
    """A seat's display name ('Gustave' for the automa; 'Seat n' when no name is given)."""
    return "Gustave" if seat is None else common_seat_name(names, seat)


def seat_colour(seat: int | None) -> str:
    """The pawn colour of a seat (Gustave is neutral grey)."""
    return GUSTAVE_COLOUR if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    line: str,
    size: int = 15,
    *,
    bold: bool = False,
    fill: str = INK,
    max_width: int = INNER,
) -> int:
    """Left-aligned text fitted to `max_width`; returns the x just after it."""
    fitted = fit_text(line, max_width, size, bold=bold)
    draw.text(xy, fitted, font=font(size, bold=bold), fill=fill)
    return xy[0] + width_of(fitted, size, bold=bold)


def wrap(line: str, max_width: int, size: int, *, bold: bool = False) -> list[str]:
    """Words split into lines no wider than `max_width` (a word wider than a line is broken
    with a hyphen: a long compound in another language)."""
    lines: list[str] = []
    for word in line.split():
        if lines and width_of(f"{lines[-1]} {word}", size, bold=bold) <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines += pieces(word, max_width, size, bold=bold)
    return lines or [""]


def pawn(
    draw: ImageDraw.ImageDraw, x: int, y: int, seat: int | None, *, standing: bool, number: int = 0
) -> None:
    """A pawn with its top-left at (x, y): upright when standing, lying on its side when crashed."""
    w, h = PAWN_W, PAWN_H
    # an upright pilot silhouette: head, shoulders and a flared base, in unit coordinates
    outline = [(0.5, 0.0), (0.78, 0.1), (0.78, 0.35), (1.0, 0.5), (1.0, 0.62), (0.74, 0.62),
               (0.9, 1.0), (0.1, 1.0), (0.26, 0.62), (0.0, 0.62), (0.0, 0.5), (0.22, 0.35),
               (0.22, 0.1)]  # fmt: skip
    if standing:
        points = [(x + px * w, y + py * h) for px, py in outline]
        centre = (x + w // 2, y + int(h * 0.72))
    else:  # rotated a quarter turn: the pawn lies flat, head to the left
        points = [(x + py * h, y + (1 - px) * w) for px, py in outline]
        centre = (x + int(h * 0.7), y + w // 2)
    draw.polygon(points, fill=seat_colour(seat), outline=INK, width=2)
    if number:
        draw.text(
            centre,
            str(number),
            font=font(16, bold=True),
            fill=WHITE,
            anchor="mm",
            stroke_width=2,
            stroke_fill=INK,
        )


# ---------------------------------------------------------------- action icons


def icon(draw: ImageDraw.ImageDraw, kind: str, x: int, y: int, size: int = 26) -> None:
    """A small drawn symbol for an action kind in a `size` square at (x, y)."""
    colour = ACTION_COLOURS.get(kind, MUTED)
    s = size

    def p(px: float, py: float) -> tuple[float, float]:
        return (x + px * s, y + py * s)

    if kind == "funding":
        draw.ellipse((x, y, x + s, y + s), fill=colour, outline=INK, width=2)
        draw.ellipse((*p(0.28, 0.28), *p(0.72, 0.72)), outline=INK, width=2)
    elif kind == "glide":
        draw.polygon([p(0, 0.55), p(1, 0.2), p(0.45, 0.95), p(0.4, 0.62)], fill=colour, outline=INK)
    elif kind == "experience":
        star = [p(0.5, 0), p(0.62, 0.36), p(1, 0.38), p(0.69, 0.6), p(0.8, 1), p(0.5, 0.76),
                p(0.2, 1), p(0.31, 0.6), p(0, 0.38), p(0.38, 0.36)]  # fmt: skip
        draw.polygon(star, fill=colour, outline=INK)
    elif kind == "skill":
        for top in (0.1, 0.45):
            draw.line([p(0.1, top + 0.4), p(0.5, top), p(0.9, top + 0.4)], fill=colour, width=5)
    elif kind == "friend":
        draw.ellipse((*p(0.3, 0), *p(0.7, 0.4)), fill=colour, outline=INK)
        draw.pieslice((*p(0.05, 0.45), *p(0.95, 1.35)), 180, 360, fill=colour, outline=INK)
    elif kind == "technology":
        draw.regular_polygon((x + s / 2, y + s / 2, s / 2), 8, fill=colour, outline=INK)
        draw.ellipse((*p(0.35, 0.35), *p(0.65, 0.65)), fill=WHITE, outline=INK)
    elif kind == "fly":
        draw.rectangle((*p(0, 0.22), *p(1, 0.34)), fill=colour, outline=INK)
        draw.rectangle((*p(0, 0.58), *p(1, 0.7)), fill=colour, outline=INK)
        draw.rectangle((*p(0.42, 0.05), *p(0.58, 0.95)), fill=colour, outline=INK)
    elif kind == "upgrade":
        arrow = [
            p(0.5, 0),
            p(1, 0.5),
            p(0.68, 0.5),
            p(0.68, 1),
            p(0.32, 1),
            p(0.32, 0.5),
            p(0, 0.5),
        ]
        draw.polygon(arrow, fill=colour, outline=INK)
    elif kind == "repair":
        draw.line([p(0.2, 0.8), p(0.6, 0.4)], fill=colour, width=max(4, s // 5))
        draw.ellipse((*p(0.5, 0), *p(1, 0.5)), fill=colour, outline=INK)
        draw.ellipse((*p(0.68, 0.18), *p(0.82, 0.32)), fill=WHITE)
    else:
        draw.rounded_rectangle((x, y, x + s, y + s), radius=5, fill=colour, outline=INK)
        draw.text((x + s / 2, y + s / 2), "?", font=font(16, bold=True), fill=WHITE, anchor="mm")


def hourglass(draw: ImageDraw.ImageDraw, cx: int, y: int) -> None:
    """The Time symbol: two small triangles point to point."""
    draw.polygon([(cx - 6, y), (cx + 6, y), (cx, y + 8)], fill=MUTED)
    draw.polygon([(cx - 6, y + 16), (cx + 6, y + 16), (cx, y + 8)], fill=MUTED)


# ---------------------------------------------------------------- the Year's track

Options = tuple[tuple[str, str], ...]


def _action_tile(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], number: int, options: Options
) -> None:
    """An Action Space: colour stripe, number, icon, option names and costs."""
    x0, y0, x1, _ = box
    kinds = [k for k, _ in options]
    draw.rounded_rectangle(
        box, radius=8, fill=tint(ACTION_COLOURS.get(kinds[0], MUTED), 0.82), outline=INK, width=1
    )
    stripe = (x1 - x0) // len(kinds)
    for i, kind in enumerate(kinds):
        draw.rectangle(
            (x0 + 2 + i * stripe, y0 + 2, x0 + (i + 1) * stripe - 2, y0 + 7),
            fill=ACTION_COLOURS.get(kind, MUTED),
        )
    draw.text((x0 + 6, y0 + 10), str(number), font=font(18, bold=True), fill=INK)
    for i, kind in enumerate(kinds):
        icon(draw, kind, x1 - 32 - i * 30, y0 + 11, 24)
    if len(options) == 1:
        kind, cost = options[0]
        centred(draw, (x0, y0 + 38, x1, y0 + 56), kind.capitalize(), 15, bold=True)
        centred(draw, (x0, y0 + 56, x1, y0 + 74), cost, 14)
    else:
        for i, (kind, cost) in enumerate(options[:2]):
            name = SHORT_NAMES.get(kind, kind.capitalize())
            centred(draw, (x0, y0 + 38 + i * 18, x1, y0 + 56 + i * 18), f"{name} {cost}", 14)


def _time_tile(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """A Time Space: a narrow pale slot with the hourglass."""
    draw.rounded_rectangle(box, radius=6, fill="#ebe6da", outline=LINE)
    hourglass(draw, (box[0] + box[2]) // 2, box[1] + 5)


def _area(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str) -> None:
    """A start area box with its title."""
    draw.rounded_rectangle(box, radius=8, fill="#dfe8d8", outline="#6b8f5e", width=2)
    centred(draw, (box[0], box[1] + 4, box[2], box[1] + 22), title, 14, bold=True, fill="#3d5c32")


BoardKey = tuple[tuple[str, int, Options], ...]


def board_key(view: GameView) -> BoardKey:
    """A hashable description of the board side (for the cached background)."""
    return tuple((s.kind, s.number, s.options) for s in view.board)


@lru_cache(maxsize=4)
def track_layout(key: BoardKey) -> tuple[tuple[tuple[int, int, int, int], ...], int]:
    """Boxes for the start area, every space and the finish area, packed into rows; total height."""
    widths = [AREA_W] + [A_W if kind == "action" else T_W for kind, _, _ in key] + [AREA_W]
    return pack_boxes(widths, inner=INNER, margin=MARGIN, tile_h=TILE_H, gap=GAP, row_gap=ROW_GAP)


def pack_boxes(
    widths: Sequence[int], *, inner: int, margin: int, tile_h: int, gap: int, row_gap: int
) -> tuple[tuple[tuple[int, int, int, int], ...], int]:
    """Boxes of the given widths packed left to right into rows of `inner` px; total height."""
    boxes, x, y = [], 0, 0
    for w in widths:
        if x + w > inner:
            x, y = 0, y + tile_h + row_gap
        boxes.append((margin + x, y, margin + x + w, y + tile_h))
        x += w + gap
    return tuple(boxes), y + tile_h


@lru_cache(maxsize=4)
def track_background(key: BoardKey) -> Image.Image:
    """The empty track of one board side (static: drawn once per side)."""
    boxes, height = track_layout(key)
    image, draw = canvas(WIDTH, height)
    _area(draw, boxes[0], "Start")
    _area(draw, boxes[-1], translate(spoken(), "Next Year"))
    for (kind, number, options), box in zip(key, boxes[1:-1], strict=False):
        if kind == "action":
            _action_tile(draw, box, number, options)
        else:
            _time_tile(draw, box)
    return image


def _place_pawns(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    pawns: list[PawnView],
    *,
    numbered: bool,
    stacked: bool,
) -> None:
    """Pawns in a box in turn order: side by side (areas, Action Spaces) or stacked (Time).

    A stack is drawn back to front so each pawn's numbered body stays visible over the next one.
    """
    x0, y0, x1, y1 = box
    step = min(PAWN_H, (y1 - y0 - 26 - PAWN_H) // max(1, len(pawns) - 1))
    placed = []
    for i, p in enumerate(pawns):
        w = PAWN_W if p.standing else PAWN_H
        h = PAWN_H if p.standing else PAWN_W
        if stacked:
            px, py = (x0 + x1 - w) // 2, y0 + 24 + i * step
        else:
            px = x0 + (x1 - x0 - len(pawns) * SLOT) // 2 + i * SLOT + (SLOT - w) // 2
            py = y1 - h - 8
        placed.append((px, py, p))
    for px, py, p in reversed(placed):
        number = p.turn_order + 1 if numbered else 0
        pawn(draw, px, py, p.seat, standing=p.standing, number=number)


def draw_track(view: GameView) -> Image.Image:
    """The Year's track with every pawn; numbers give the turn order (1 acts next)."""
    key = board_key(view)
    boxes, _ = track_layout(key)
    image = track_background(key).copy()
    draw = ImageDraw.Draw(image)
    end = len(view.board)
    by_pos: dict[int, list[PawnView]] = {}
    for p in sorted(view.pawns, key=lambda p: p.turn_order):
        by_pos.setdefault(min(max(p.pos, -1), end), []).append(p)
    for pos, pawns in by_pos.items():
        box = boxes[pos + 1]
        kind = "area" if pos in (-1, end) else view.board[pos].kind
        _place_pawns(
            draw, box, pawns, numbered=pos != end and not view.over, stacked=kind == "time"
        )
    return image


# ---------------------------------------------------------------- the face-up display

DEV_TITLES = ("Friends", "Technologies", "Skills")


def dev_titles() -> tuple[str, str, str]:
    """The Development card types' plural names, in the picture's language."""
    lang = spoken()
    return (
        translate(lang, "Friends"),
        translate(lang, "Technologies"),
        translate(lang, "Skills"),
    )


DEV_COLOURS = (ACTION_COLOURS["friend"], ACTION_COLOURS["technology"], ACTION_COLOURS["skill"])


def dev_chip(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    name: str,
    kind: int,
    *,
    exhausted: bool = False,
) -> None:
    """A Development card as a chip in its type's colour; an exhausted one is greyed out."""
    colour = DEV_COLOURS[kind]
    body = MUTED if exhausted else colour
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=5, fill=tint(body, 0.8), outline=body, width=2)
    draw.rectangle((x0 + 2, y0 + 2, x0 + 8, y1 - 2), fill=colour)
    text(
        draw,
        (x0 + 13, y0 + (y1 - y0 - 17) // 2),
        name,
        14,
        fill=MUTED if exhausted else INK,
        max_width=x1 - x0 - 18,
    )


def display_height(view: GameView) -> int:
    """Height of the face-up display panel."""
    return 56 + max(1, *(len(d) for d in view.display)) * 30


def draw_display(draw: ImageDraw.ImageDraw, view: GameView, y: int) -> None:
    """Face-up Friends, Technologies and Skills with deck sizes; the shared piles underneath."""
    col_w = (INNER - 2 * 12) // 3
    for i, cards in enumerate(view.display):
        x = MARGIN + i * (col_w + 12)
        text(
            draw,
            (x, y),
            f"{DEV_TITLES[i]} · deck {view.dev_deck_sizes[i]}",
            15,
            bold=True,
            max_width=col_w,
        )
        for j, name in enumerate(cards):
            dev_chip(draw, (x, y + 24 + j * 30, x + col_w, y + 50 + j * 30), name, i)
        if not cards:
            text(draw, (x, y + 28), translate(spoken(), "none face up"), 14, fill=MUTED)
    rows = max(1, *(len(d) for d in view.display))
    glide, exp, basic = view.supply
    piles = translate(
        spoken(),
        "Upgrade deck {upgrades} · Design Flaws {flaws} (discard {discarded}) · Supply: Glide "
        "{glide}, Experience {experience}, Basic Problem {basic}",
        upgrades=view.upgrade_deck_size, flaws=view.flaw_deck_size,
        discarded=len(view.flaw_discard), glide=glide, experience=exp, basic=basic,
    )  # fmt: skip
    text(draw, (MARGIN, y + 30 + rows * 30), piles, 14, fill=MUTED)
