"""Takeoff! images: the airplane seen from above (public) and one player's hand (private)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_COLOURS,
    canvas,
    fit_text,
    font,
    text_width,
)
from rules.core import fill_names
from rules.core.messages import plural
from rules.takeoff import CardView, TakeoffView

WIDTH = 960
HEADER_H = 124
LETTERS = "ABCDEF"
SEAT = 42
STEP = 46
ROW_X0 = 176  # left edge of row 1's seats
ROW_STEP = 56
SEAT_Y0 = 62  # top of seat A, in board-layer coordinates
AISLE = 26
PLANE_TOP, PLANE_BOTTOM = 42, 390
BOARD_H = 440
CARD_W, CARD_H, CARD_GAP = 164, 214, 14
BUSINESS_CARPET, ECONOMY_CARPET = "#e9a6a0", "#a8c3e6"
BUSINESS_INK, ECONOMY_INK = "#a3281d", "#1f4f8f"
_BANDS = {"seat": "#1f7a8c", "business": "#c0392b", "economy": "#2c4f8a", "any": "#6c4f9e"}
_EVENT_BUSINESS_BAND = "#8e2b3a"


def _seat_xy(row: int, letter: str) -> tuple[int, int]:
    """Top-left corner of a seat square."""
    index = LETTERS.index(letter)
    y = SEAT_Y0 + index * STEP + (AISLE if index >= 3 else 0)
    return ROW_X0 + (row - 1) * ROW_STEP, y


@lru_cache(maxsize=8)
def _plane(business_rows: int, rows: int) -> Image.Image:
    """The static airplane (fuselage, carpets, empty seats, labels) for one Business split."""
    image, draw = canvas(WIDTH, BOARD_H)
    draw.ellipse((24, PLANE_TOP, 250, PLANE_BOTTOM), fill="#ffffff", outline=INK, width=3)
    right = ROW_X0 + rows * ROW_STEP + 30
    draw.rectangle((137, PLANE_TOP, right, PLANE_BOTTOM), fill="#ffffff")
    draw.line((137, PLANE_TOP, right, PLANE_TOP), fill=INK, width=3)
    draw.line((137, PLANE_BOTTOM, right, PLANE_BOTTOM), fill=INK, width=3)
    tail = [(right, PLANE_TOP), (WIDTH - 12, PLANE_TOP - 40), (WIDTH - 12, PLANE_BOTTOM + 40)]
    draw.polygon([*tail, (right, PLANE_BOTTOM)], fill="#ffffff", outline=INK)
    draw.line((right, PLANE_TOP + 2, right, PLANE_BOTTOM - 2), fill="#ffffff", width=3)
    mid = (PLANE_TOP + PLANE_BOTTOM) // 2
    draw.polygon([(40, mid), (70, mid - 30), (70, mid + 30)], fill="#d9dde4")  # cockpit window
    aisle_y = SEAT_Y0 + 3 * STEP
    draw.rectangle((137, aisle_y - 2, right, aisle_y + AISLE - 2), fill="#ece6d8")
    for row in range(1, rows + 1):
        _draw_row_base(draw, row, row <= business_rows)
    for letter in LETTERS:
        y = _seat_xy(1, letter)[1] + SEAT // 2
        draw.text((150, y), letter, font=font(15, bold=True), fill=MUTED, anchor="mm")
    _draw_class_labels(draw, business_rows, rows)
    return image


def _draw_row_base(draw: ImageDraw.ImageDraw, row: int, business: bool) -> None:
    """Carpet, row number and six empty seats of one numbered row."""
    x, _ = _seat_xy(row, "A")
    carpet = BUSINESS_CARPET if business else ECONOMY_CARPET
    for letters in ("ABC", "DEF"):
        top = _seat_xy(row, letters[0])[1] - 5
        bottom = _seat_xy(row, letters[2])[1] + SEAT + 5
        draw.rounded_rectangle((x - 5, top, x + SEAT + 5, bottom), radius=8, fill=carpet)
    aisle_mid = SEAT_Y0 + 3 * STEP + AISLE // 2 - 2
    colour = BUSINESS_INK if business else ECONOMY_INK
    draw.text(
        (x + SEAT // 2, aisle_mid), str(row), font=font(15, bold=True), fill=colour, anchor="mm"
    )
    for letter in LETTERS:
        sx, sy = _seat_xy(row, letter)
        draw.rounded_rectangle(
            (sx, sy, sx + SEAT, sy + SEAT), radius=7, fill="#fbfaf6", outline=MUTED
        )
        draw.text((sx + SEAT // 2, sy + SEAT // 2), letter, font=font(13), fill=MUTED, anchor="mm")


def _draw_class_labels(draw: ImageDraw.ImageDraw, business_rows: int, rows: int) -> None:
    """'Business' and 'Economy' over their rows."""
    first_x = _seat_xy(1, "A")[0]
    split_x = _seat_xy(business_rows + 1, "A")[0] - 7
    last_x = _seat_xy(rows, "A")[0] + SEAT
    y = PLANE_TOP - 18
    draw.text(
        ((first_x + split_x) // 2, y),
        "BUSINESS",
        font=font(14, bold=True),
        fill=BUSINESS_INK,
        anchor="mm",
    )
    draw.text(
        ((split_x + last_x) // 2, y),
        "ECONOMY",
        font=font(14, bold=True),
        fill=ECONOMY_INK,
        anchor="mm",
    )


def _draw_stones(draw: ImageDraw.ImageDraw, view: TakeoffView) -> None:
    """A stone in its owner's colour on every taken seat."""
    for row in view.rows:
        for letter, owner in zip(LETTERS, row.seats, strict=True):
            if owner < 0:
                continue
            sx, sy = _seat_xy(row.number, letter)
            draw.ellipse(
                (sx + 4, sy + 4, sx + SEAT - 4, sy + SEAT - 4),
                fill=SEAT_COLOURS[owner],
                outline=INK,
                width=2,
            )
            draw.text(
                (sx + SEAT // 2, sy + SEAT // 2),
                letter,
                font=font(12, bold=True),
                fill=INK,
                anchor="mm",
            )


def _draw_marks(draw: ImageDraw.ImageDraw, view: TakeoffView) -> None:
    """Frames round protected single rows; orange rings round the last move's seats."""
    for row in view.rows:
        for side, protected in enumerate(row.protected):
            if not protected:
                continue
            x, top = _seat_xy(row.number, LETTERS[3 * side])
            bottom = _seat_xy(row.number, LETTERS[3 * side + 2])[1] + SEAT
            draw.rounded_rectangle(
                (x - 4, top - 4, x + SEAT + 4, bottom + 4), radius=9, outline=INK, width=4
            )
    for label in view.last_seats:
        sx, sy = _seat_xy(int(label[:-1]), label[-1])
        draw.rounded_rectangle(
            (sx - 2, sy - 2, sx + SEAT + 2, sy + SEAT + 2), radius=8, outline=HIGHLIGHT, width=4
        )


def _tickets(left: int) -> str:
    """Ticket count as filled/empty marks."""
    return "●" * left + "○" * (4 - left) if left <= 4 else str(left)


def _draw_player(
    draw: ImageDraw.ImageDraw, view: TakeoffView, seat: int, name: str, x: int
) -> None:
    """One player's panel: colour, name, score, hand size, tickets; framed when to move."""
    box = (x, 10, x + 330, HEADER_H - 12)
    to_move = view.turn == seat
    draw.rounded_rectangle(
        box,
        radius=12,
        fill="#ffffff",
        outline=HIGHLIGHT if to_move else MUTED,
        width=4 if to_move else 1,
    )
    draw.ellipse((x + 14, 24, x + 46, 56), fill=SEAT_COLOURS[seat], outline=INK, width=2)
    draw.text((x + 58, 26), fit_text(name, 200, 20, bold=True), font=font(20, bold=True), fill=INK)
    draw.text(
        (x + 318, 24), f"{view.scores[seat]}", font=font(30, bold=True), fill=INK, anchor="ra"
    )
    draw.text((x + 318, 60), "points", font=font(12), fill=MUTED, anchor="ra")
    info = f"Hand {view.hand_sizes[seat]}   Tickets {_tickets(view.tickets_left[seat])}"
    draw.text((x + 58, 56), info, font=font(15), fill=INK)
    status = "to move" if to_move else ("changed last turn" if view.changed_last[seat] else "")
    draw.text(
        (x + 58, 80), status, font=font(14, bold=to_move), fill=HIGHLIGHT if to_move else MUTED
    )


def _draw_header(draw: ImageDraw.ImageDraw, view: TakeoffView, names: Sequence[str]) -> None:
    """Both players and the pile counters."""
    _draw_player(draw, view, 0, names[0], 12)
    _draw_player(draw, view, 1, names[1], WIDTH - 342)
    mid = WIDTH // 2
    lines = [
        (f"Pass {view.pass_number} of 3", 16, True),
        (f"Deck {view.deck_count} · Discard {view.discard_count}", 14, False),
        (f"Top: {view.top_discard.name}" if view.top_discard else "Top: —", 13, False),
        (f"Scoring {view.scoring} · {view.row_rule} rows", 13, False),
    ]
    y = 18
    for text, size, bold in lines:
        draw.text(
            (mid, y),
            fit_text(text, 240, size, bold=bold),
            font=font(size, bold=bold),
            fill=INK,
            anchor="ma",
        )
        y += size + 9


def _status(view: TakeoffView, names: Sequence[str]) -> str:
    """The footer line: result, half-built play, or whose turn."""
    if view.over:
        a, b = view.scores
        if a == b:
            result = f"a draw at {plural(a, 'point')}"
        else:
            winner = 0 if a > b else 1
            result = f"{names[winner]} wins {max(a, b)} to {min(a, b)}"
        return f"Game over — {fill_names(view.end_reason, list(names))} {result}."
    who = names[view.turn] if view.turn is not None else ""
    if view.pending is not None:
        picked = f" ({', '.join(view.pending.picks)})" if view.pending.picks else ""
        return f"{who} is playing {view.pending.card_name}{picked}…"
    if view.final_round:
        return (
            f"Last turns: {who} may play once more without drawing ({view.final_turns_left} left)."
        )
    return f"Turn {view.turn_no}: {who} to move."


def render_board(view: TakeoffView, *, names: Sequence[str]) -> Image.Image:
    """The public table: airplane, stones, protected rows, last move, scores and piles."""
    plane = _plane(view.business_rows, len(view.rows)).copy()
    image, draw = canvas(WIDTH, HEADER_H + BOARD_H + 40)
    _draw_header(draw, view, names)
    board_draw = ImageDraw.Draw(plane)
    _draw_stones(board_draw, view)
    _draw_marks(board_draw, view)
    image.paste(plane, (0, HEADER_H))
    footer_y = HEADER_H + BOARD_H + 6
    status = fit_text(_status(view, names), WIDTH - 40, 17, bold=True)
    draw.text((20, footer_y - 10), status, font=font(17, bold=True), fill=INK)
    legend = "Framed = single row of one colour (protected)   Orange ring = last move"
    draw.text((20, footer_y + 14), legend, font=font(13), fill=MUTED)
    return image


def _wrap(text: str, max_width: int, size: int, *, bold: bool = False) -> list[str]:
    """Greedy word wrap in the shipped font."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if text_width(trial, size, bold=bold) <= max_width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def _band(card: CardView) -> tuple[str, str]:
    """Colour and caption of a card's top band."""
    if card.category == "seat":
        return _BANDS["seat"], "SEAT CARD"
    if card.category == "business":
        return _BANDS["business"], "BUSINESS-CLASS"
    check = " ✔" if card.check else ""
    if card.area == "business":
        return _EVENT_BUSINESS_BAND, f"EVENT · BUSINESS{check}"
    if card.area == "economy":
        return _BANDS["economy"], f"EVENT · ECONOMY{check}"
    return _BANDS["any"], "EVENT"


def _draw_card(draw: ImageDraw.ImageDraw, card: CardView, x: int, y: int) -> None:
    """One card face: band, name, a seat diagram for seat cards, effect text."""
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), radius=12, fill="#fffdf7", outline=INK, width=2
    )
    colour, caption = _band(card)
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + 30), radius=12, fill=colour, corners=(True, True, False, False)
    )
    draw.text(
        (x + CARD_W // 2, y + 15), caption, font=font(11, bold=True), fill="#ffffff", anchor="mm"
    )
    ty = y + 38
    for line in _wrap(card.name, CARD_W - 16, 16, bold=True)[:2]:
        draw.text((x + 8, ty), line, font=font(16, bold=True), fill=INK)
        ty += 20
    if card.category == "seat":
        _draw_seat_diagram(draw, card.seat_type or "", x + 22, ty + 4)
        ty += 34
    for line in _wrap(card.text, CARD_W - 16, 12)[:7]:
        draw.text((x + 8, ty + 4), line, font=font(12), fill=INK)
        ty += 16


def _draw_seat_diagram(draw: ImageDraw.ImageDraw, seat_type: str, x: int, y: int) -> None:
    """Six little seats with the card's seat type filled."""
    kinds = ("window", "middle", "aisle", "aisle", "middle", "window")
    for i, kind in enumerate(kinds):
        sx = x + i * 19 + (8 if i >= 3 else 0)
        fill = _BANDS["seat"] if kind == seat_type else "#ffffff"
        draw.rectangle((sx, y, sx + 15, y + 20), fill=fill, outline=MUTED)


def _draw_hand(draw: ImageDraw.ImageDraw, title: str, cards: Sequence[CardView], y: int) -> int:
    """A titled row of cards; returns the y below it."""
    draw.text((20, y), title, font=font(18, bold=True), fill=INK)
    y += 30
    if not cards:
        draw.text((20, y), "(no cards)", font=font(15), fill=MUTED)
        return y + 30
    for i, card in enumerate(cards):
        _draw_card(draw, card, 20 + i * (CARD_W + CARD_GAP), y)
    return y + CARD_H + 16


def render_private(view: TakeoffView, *, names: Sequence[str]) -> Image.Image:
    """One player's view: the header, their hand as cards, and a Pinch look at the other hand."""
    rows = 2 if view.shown_hand else 1
    height = HEADER_H + 20 + rows * (CARD_H + 50) + 30
    image, draw = canvas(WIDTH, height, BACKGROUND)
    _draw_header(draw, view, names)
    me = view.viewer if view.viewer is not None else 0
    y = _draw_hand(
        draw, f"{names[me]} — your hand ({len(view.hand)} of 5)", view.hand, HEADER_H + 10
    )
    if view.shown_hand:
        title = f"{names[1 - me]}'s hand (Pinch a card — take one)"
        y = _draw_hand(draw, title, view.shown_hand, y)
    draw.text(
        (20, height - 24), fit_text(_status(view, names), WIDTH - 40, 14), font=font(14), fill=MUTED
    )
    return image
