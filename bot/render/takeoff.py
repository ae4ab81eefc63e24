"""Takeoff! images: the airplane seen from above (public) and one player's hand (private)."""

from __future__ import annotations

from collections.abc import Sequence, Set
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageColor, ImageDraw

from bot.i18n import ntranslate, translate
from bot.render import alt
from bot.render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_COLOURS,
    canvas,
    fit_text,
    fit_words,
    font,
    pieces,
    shrunk,
    spoken,
    text_width,
)
from bot.render.png import BAND_ROWS
from bot.render.retained import Layout, merged, overlaps
from bot.render.tiles import stamp
from rules.core import fill_names
from rules.takeoff import CardView, TakeoffView
from rules.takeoff.view import RowView

WIDTH = 600  # a phone shows it 400 px wide: the smallest text (15 px) reads at ~9.3 px
HEADER_H = 196  # players and piles above the plane
LETTERS = "ABCDEF"
SEAT = 44
STEP = 50
AISLE = 42
ROW_STEP = 50
SEAT_X0 = 52  # left edge of seat A, in plane-layer coordinates
FUSE_X0, FUSE_X1 = 38, 402
NOSE_H = 64
LETTERS_H = 28
SEAT_Y0 = NOSE_H + LETTERS_H  # top of row 1, in plane-layer coordinates
TAIL_H = 46
SIDE_X = 414  # the column right of the plane (legend on the board, the hand in private)
SIDE_W = WIDTH - SIDE_X - 10
BUSINESS_CARPET, ECONOMY_CARPET = "#e9a6a0", "#a8c3e6"
BUSINESS_INK, ECONOMY_INK = "#a3281d", "#1f4f8f"
TARGET = "#008a5e"
_BANDS = {"seat": "#1f7a8c", "business": "#c0392b", "economy": "#2c4f8a", "any": "#6c4f9e"}
_EVENT_BUSINESS_BAND = "#8e2b3a"
SMALL = 15  # the smallest text size anywhere in these pictures


def _seat_xy(row: int, letter: str) -> tuple[int, int]:
    """Top-left corner of a seat square in the plane layer (rows run nose to tail, downwards)."""
    index = LETTERS.index(letter)
    x = SEAT_X0 + index * STEP + (AISLE if index >= 3 else 0)
    return x, SEAT_Y0 + (row - 1) * ROW_STEP


def plane_height(rows: int) -> int:
    """Height of the plane layer for `rows` rows."""
    return SEAT_Y0 + rows * ROW_STEP + TAIL_H


def _text_ink(colour: str) -> str:
    """Black or white text, whichever reads better on `colour`."""
    r, g, b = ImageColor.getrgb(colour)[:3]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


@lru_cache(maxsize=8)
def _plane(business_rows: int, rows: int) -> Image.Image:
    """The static airplane (fuselage, carpets, empty seats, labels) for one Business split."""
    height = plane_height(rows)
    image, draw = canvas(SIDE_X, height)
    body_bottom = height - TAIL_H
    draw.ellipse((FUSE_X0, 4, FUSE_X1, 4 + 2 * NOSE_H + 20), fill="#ffffff", outline=INK, width=3)
    draw.rectangle((FUSE_X0, NOSE_H, FUSE_X1, body_bottom), fill="#ffffff")
    draw.line((FUSE_X0, NOSE_H, FUSE_X0, body_bottom), fill=INK, width=3)
    draw.line((FUSE_X1, NOSE_H, FUSE_X1, body_bottom), fill=INK, width=3)
    tail = [
        (FUSE_X0, body_bottom),
        (FUSE_X1, body_bottom),
        (FUSE_X1 - 120, height - 4),
        (FUSE_X0 + 120, height - 4),
    ]
    draw.polygon(tail, fill="#ffffff", outline=INK)
    draw.line((FUSE_X0 + 2, body_bottom, FUSE_X1 - 2, body_bottom), fill="#ffffff", width=3)
    mid = (FUSE_X0 + FUSE_X1) // 2
    draw.polygon([(mid, 16), (mid - 34, 40), (mid + 34, 40)], fill="#d9dde4")  # cockpit window
    aisle_x = SEAT_X0 + 3 * STEP - 3
    draw.rectangle((aisle_x, SEAT_Y0 - 6, aisle_x + AISLE, body_bottom - 4), fill="#ece6d8")
    for letter in LETTERS:
        x = _seat_xy(1, letter)[0] + SEAT // 2
        draw.text((x, SEAT_Y0 - 14), letter, font=font(17, bold=True), fill=INK, anchor="mm")
    for row in range(1, rows + 1):
        _draw_row_base(draw, row, row <= business_rows)
    _draw_class_labels(image, business_rows, rows)
    return image


def _draw_row_base(draw: ImageDraw.ImageDraw, row: int, business: bool) -> None:
    """Carpet, row number and six empty seats of one numbered row."""
    _, y = _seat_xy(row, "A")
    carpet = BUSINESS_CARPET if business else ECONOMY_CARPET
    for letters in ("ABC", "DEF"):
        left = _seat_xy(row, letters[0])[0] - 4
        right = _seat_xy(row, letters[2])[0] + SEAT + 4
        draw.rounded_rectangle((left, y - 3, right, y + SEAT + 3), radius=8, fill=carpet)
    aisle_mid = SEAT_X0 + 3 * STEP - 3 + AISLE // 2
    colour = BUSINESS_INK if business else ECONOMY_INK
    draw.text(
        (aisle_mid, y + SEAT // 2), str(row), font=font(17, bold=True), fill=colour, anchor="mm"
    )
    for letter in LETTERS:
        sx, sy = _seat_xy(row, letter)
        draw.rounded_rectangle(
            (sx, sy, sx + SEAT, sy + SEAT), radius=7, fill="#fbfaf6", outline=MUTED
        )
        draw.text(
            (sx + SEAT // 2, sy + SEAT // 2), letter, font=font(SMALL), fill=MUTED, anchor="mm"
        )


def _draw_class_labels(image: Image.Image, business_rows: int, rows: int) -> None:
    """'BUSINESS' and 'ECONOMY' written sideways along their rows, left of the fuselage."""
    spans = (
        (1, business_rows, "BUSINESS", BUSINESS_INK),
        (business_rows + 1, rows, "ECONOMY", ECONOMY_INK),
    )
    for first, last, label, colour in spans:
        if last < first:
            continue
        top = _seat_xy(first, "A")[1]
        bottom = _seat_xy(last, "A")[1] + SEAT
        strip, draw = canvas(bottom - top, 30)
        draw.text(
            ((bottom - top) // 2, 15), label, font=font(16, bold=True), fill=colour, anchor="mm"
        )
        draw.line((4, 28, bottom - top - 4, 28), fill=colour, width=3)
        image.paste(strip.rotate(90, expand=True), (4, top))


def _stone(draw: ImageDraw.ImageDraw, x: int, y: int, owner: int, size: int, label: str) -> None:
    """A passenger stone: the owner's colour and shape (seat 1 round, seat 2 square)."""
    box = (x, y, x + size, y + size)
    colour = SEAT_COLOURS[owner]
    if owner == 0:
        draw.ellipse(box, fill=colour, outline=INK, width=2)
    else:
        draw.rounded_rectangle(box, radius=4, fill=colour, outline=INK, width=2)
    if label:
        centre = (x + size // 2, y + size // 2)
        ink = _text_ink(colour)
        draw.text(centre, label, font=font(SMALL + 1, bold=True), fill=ink, anchor="mm")


def _draw_stones(
    image: Image.Image, view: TakeoffView, top: int, rows: Sequence[RowView] | None = None
) -> None:
    """A stone in its owner's colour and shape on every taken seat of `rows` (default: all; the
    plane at `top`)."""
    layer = (view.business_rows, len(view.rows))  # what lies beneath: the static plane
    for row in view.rows if rows is None else rows:
        for letter, owner in zip(LETTERS, row.seats, strict=True):
            if owner >= 0:
                sx, sy = _seat_xy(row.number, letter)
                spot = (*layer, row.number, letter)
                size = (SEAT - 5, SEAT - 5)
                stamp(image, (sx + 3, top + sy + 3), size, spot, _seat_stone, owner, letter)


def _seat_stone(image: Image.Image, x: int, y: int, owner: int, letter: str) -> None:
    """The stone on a taken seat, labelled with the seat's letter."""
    draw = ImageDraw.Draw(image)
    _stone(draw, x, y, owner, SEAT - 6, letter)


def _draw_marks(
    draw: ImageDraw.ImageDraw, view: TakeoffView, top: int, rows: Sequence[RowView] | None = None
) -> None:
    """Frames round protected single rows; orange rings round the last move's seats (of `rows`,
    default all)."""
    numbers = None if rows is None else {row.number for row in rows}
    for row in view.rows if rows is None else rows:
        for side, protected in enumerate(row.protected):
            if not protected:
                continue
            left, y = _seat_xy(row.number, LETTERS[3 * side])
            right = _seat_xy(row.number, LETTERS[3 * side + 2])[0] + SEAT
            y += top
            draw.rounded_rectangle(
                (left - 4, y - 4, right + 4, y + SEAT + 4), radius=9, outline=INK, width=4
            )
    for label in view.last_seats:
        if numbers is not None and int(label[:-1]) not in numbers:
            continue
        sx, sy = _seat_xy(int(label[:-1]), label[-1])
        sy += top
        draw.rounded_rectangle(
            (sx - 2, sy - 2, sx + SEAT + 2, sy + SEAT + 2), radius=8, outline=HIGHLIGHT, width=4
        )


def _draw_targets(image: Image.Image, view: TakeoffView, targets: Sequence[str], top: int) -> None:
    """Seats the chosen card can take: a thick green frame and a + (shape as well as colour)."""
    rows = {row.number: row for row in view.rows}
    for label in targets:
        number, letter = int(label[:-1]), label[-1]
        sx, sy = _seat_xy(number, letter)
        row = rows[number]
        index = LETTERS.index(letter)
        # what lies beneath: the static seat, its stone, its side's frame and the last-move ring
        spot = (
            view.business_rows,
            len(view.rows),
            number,
            letter,
            row.seats[index],
            row.protected[index // 3],
            label in view.last_seats,
        )
        stamp(image, (sx - 1, top + sy - 1), (SEAT + 3, SEAT + 3), spot, _target)


def _target(image: Image.Image, x: int, y: int) -> None:
    """A target frame with its + badge, the frame's top-left corner at (x, y)."""
    draw = ImageDraw.Draw(image)
    sx, sy = x + 1, y + 1
    draw.rounded_rectangle(
        (sx - 1, sy - 1, sx + SEAT + 1, sy + SEAT + 1), radius=8, outline=TARGET, width=5
    )
    cx, cy = sx + SEAT - 11, sy + 11
    draw.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), fill=TARGET)
    draw.line((cx - 5, cy, cx + 5, cy), fill="#ffffff", width=3)
    draw.line((cx, cy - 5, cx, cy + 5), fill="#ffffff", width=3)


def _tickets(left: int) -> str:
    """Ticket count as filled/empty marks."""
    return "●" * left + "○" * (4 - left) if left <= 4 else str(left)


def _draw_player(image: Image.Image, view: TakeoffView, seat: int, name: str, x: int) -> None:
    """One player's panel (a cached tile: it changes only when its player's numbers do)."""
    to_move = view.turn == seat
    lang = spoken()
    if to_move:
        status = "▶ " + translate(lang, "to move")
    else:
        status = translate(lang, "changed last turn") if view.changed_last[seat] else ""
    hand = translate(lang, "Hand {count}", count=view.hand_sizes[seat])
    info = f"{hand} · {_tickets(view.tickets_left[seat])}"
    score = f"{view.scores[seat]}"
    size = (PLAYER_W + 1, 115)
    stamp(image, (x, 8), size, BACKGROUND, _paint_player, seat, name, score, info, status, to_move)


PLAYER_W = (WIDTH - 36) // 2


def _paint_player(
    image: Image.Image, x: int, y: int,
    seat: int, name: str, score: str, info: str, status: str, to_move: bool,
) -> None:  # fmt: skip
    """One player's panel: stone, name, score, hand size, tickets; framed when to move."""
    draw = ImageDraw.Draw(image)
    w = PLAYER_W
    draw.rounded_rectangle(
        (x, y, x + w, y + 114),
        radius=12,
        fill="#ffffff",
        outline=HIGHLIGHT if to_move else MUTED,
        width=5 if to_move else 1,
    )
    _stone(draw, x + 12, y + 12, seat, 30, "")
    draw.text(
        (x + 52, y + 12),
        fit_text(name, w - 120, 21, bold=True),
        font=font(21, bold=True),
        fill=INK,
    )
    draw.text((x + w - 12, y + 6), score, font=font(34, bold=True), fill=INK, anchor="ra")
    points = translate(spoken(), "points")
    draw.text((x + w - 12, y + 46), points, font=font(SMALL), fill=MUTED, anchor="ra")
    draw.text((x + 12, y + 54), info, font=font(17), fill=INK)
    # a longer word for "to move" or "changed last turn" takes a smaller size, never the edge
    size = shrunk(status, w - 24, 17, bold=to_move)
    colour = INK if to_move else MUTED
    draw.text((x + 12, y + 82), status, font=font(size, bold=to_move), fill=colour)


def _draw_header(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: TakeoffView, names: Sequence[str]
) -> None:
    """Both players and the pile counters."""
    _draw_players(image, view, names)
    _draw_piles(draw, view)


def _draw_players(image: Image.Image, view: TakeoffView, names: Sequence[str]) -> None:
    """Both players' panels (rows 8–123)."""
    _draw_player(image, view, 0, names[0], 12)
    _draw_player(image, view, 1, names[1], WIDTH // 2 + 6)


def _pile_lines(view: TakeoffView) -> tuple[str, str]:
    """The pile counters and the rules in force, as the header writes them."""
    lang = spoken()
    line = " · ".join((
        translate(lang, "Pass {number} of 3", number=view.pass_number),
        translate(lang, "Deck {count}", count=view.deck_count),
        translate(lang, "Discard {count}", count=view.discard_count),
    ))  # fmt: skip
    card = translate(lang, view.top_discard.name) if view.top_discard else "—"
    top = translate(lang, "Top: {card}", card=card)
    if view.row_rule == "numbered":
        rows = translate(lang, "numbered rows")
    else:
        rows = translate(lang, "single rows")
    scoring = translate(lang, "scoring {rule}", rule=view.scoring)
    return line, f"{top} · {scoring} · {rows}"


def _draw_piles(draw: ImageDraw.ImageDraw, view: TakeoffView) -> None:
    """The pile counters and the rules in force (rows 134–180)."""
    line, rules = _pile_lines(view)
    size = shrunk(line, WIDTH - 24, 18, bold=True)
    draw.text(
        (WIDTH // 2, 134 + 18 - size),
        fit_words(line, WIDTH - 24, size, bold=True),
        font=font(size, bold=True),
        fill=INK,
        anchor="ma",
    )
    size = shrunk(rules, WIDTH - 24, 16)
    draw.text(
        (WIDTH // 2, 162 + 16 - size),
        fit_words(rules, WIDTH - 24, size),
        font=font(size),
        fill=INK,
        anchor="ma",
    )


def _status(view: TakeoffView, names: Sequence[str]) -> str:
    """The footer line: result, half-built play, or whose turn."""
    lang = spoken()
    if view.over:
        a, b = view.scores
        if a == b:
            points = ntranslate(lang, "{count} point", "{count} points", a)
            result = translate(lang, "a draw at {points}", points=points)
        else:
            winner = 0 if a > b else 1
            result = translate(
                lang, "{player} wins {high} to {low}", player=names[winner], high=max(a, b),
                low=min(a, b),
            )  # fmt: skip
        # the reason is the rules' English sentence (takeoff.po), its {seatN} filled after
        reason = fill_names(translate(lang, view.end_reason), list(names))
        return translate(lang, "Game over — {reason} {result}.", reason=reason, result=result)
    who = names[view.turn] if view.turn is not None else ""
    if view.pending is not None:
        picked = f" ({', '.join(view.pending.picks)})" if view.pending.picks else ""
        card = translate(lang, view.pending.card_name)
        return translate(lang, "{player} is playing {card}…", player=who, card=card + picked)
    if view.final_round:
        return translate(
            lang, "Last turns: {player} may play once more without drawing ({count} left).",
            player=who, count=view.final_turns_left,
        )  # fmt: skip
    return translate(lang, "Turn {number}: {player} to move.", number=view.turn_no, player=who)


def _draw_status(draw: ImageDraw.ImageDraw, text: str, y: int) -> int:
    """The status line(s) under the plane; returns the y below them."""
    for line in _wrap(text, WIDTH - 24, 18, bold=True)[:3]:
        draw.text((12, y), line, font=font(18, bold=True), fill=INK)
        y += 24
    return y


def _legend(image: Image.Image, names: Sequence[str], y: int) -> None:
    """Who each stone is, and what frames and rings mean (a cached tile: it never changes)."""
    size = (WIDTH - SIDE_X, _legend_height())
    stamp(image, (SIDE_X, y), size, BACKGROUND, _paint_legend, names[0], names[1])


def _keys() -> tuple[tuple[str, str], ...]:
    """What the legend's frames and rings mean, in the picture's language."""
    lang = spoken()
    return (
        (INK, translate(lang, "Black frame: a single row of one colour (protected)")),
        (HIGHLIGHT, translate(lang, "Orange ring: a seat the last move took or emptied")),
    )


def _legend_height() -> int:
    """Height of the legend: two names, a gap, then each key's wrapped lines."""
    keys = _keys()
    return 2 * 34 + 10 + sum(19 * len(_wrap(words, SIDE_W - 34, SMALL)) + 14 for _, words in keys)


def _paint_legend(image: Image.Image, x: int, y: int, first: str, second: str) -> None:
    """Who each stone is, and what frames and rings mean (right of the plane)."""
    draw = ImageDraw.Draw(image)
    for seat, name in enumerate((first, second)):
        _stone(draw, x, y, seat, 24, "")
        draw.text(
            (x + 32, y + 2),
            fit_text(name, SIDE_W - 34, 17, bold=True),
            font=font(17, bold=True),
            fill=INK,
        )
        y += 34
    y += 10
    for colour, words in _keys():
        draw.rounded_rectangle((x, y, x + 24, y + 24), radius=6, outline=colour, width=4)
        for i, line in enumerate(_wrap(words, SIDE_W - 34, SMALL)):
            draw.text((x + 32, y + i * 19), line, font=font(SMALL), fill=INK)
        y += 19 * len(_wrap(words, SIDE_W - 34, SMALL)) + 14


def _draw_plane(image: Image.Image, view: TakeoffView, top: int, targets: Sequence[str]) -> None:
    """The plane at (0, `top`) with stones, protected rows, the last move and (private) the
    card's targets, drawn straight onto the picture (a copy of the plane to draw on and then
    paste moved 2.4 MB per picture through caches that lose them between clicks)."""
    image.paste(_plane(view.business_rows, len(view.rows)), (0, top))
    _draw_stones(image, view, top)
    _draw_marks(ImageDraw.Draw(image), view, top)
    _draw_targets(image, view, targets, top)


def render_board(view: TakeoffView, *, names: Sequence[str]) -> Image.Image:
    """The public table: airplane, stones, protected rows, last move, scores and piles."""
    height = plane_height(len(view.rows))
    status = _wrap(_status(view, names), WIDTH - 24, 18, bold=True)[:3]
    image, draw = canvas(WIDTH, HEADER_H + height + 12 + 24 * len(status))
    _draw_header(image, draw, view, names)
    _draw_plane(image, view, HEADER_H, ())
    _legend(image, names, HEADER_H + SEAT_Y0)
    _draw_status(draw, _status(view, names), HEADER_H + height + 6)
    return image


def _wrap(text: str, max_width: int, size: int, *, bold: bool = False) -> list[str]:
    """Greedy word wrap in the shipped font."""
    lines: list[str] = []
    current = ""
    words = [p for w in text.split() for p in pieces(w, max_width, size, bold=bold)]
    for word in words:
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
    lang = spoken()
    if card.category == "seat":
        kinds = {
            "window": translate(lang, "SEAT · WINDOW"),
            "middle": translate(lang, "SEAT · MIDDLE"),
            "aisle": translate(lang, "SEAT · AISLE"),
        }
        caption = f"SEAT · {(card.seat_type or '').upper()}"
        return _BANDS["seat"], kinds.get(card.seat_type or "", caption)
    if card.category == "business":
        return _BANDS["business"], translate(lang, "BUSINESS-CLASS")
    check = " ✔" if card.check else ""
    if card.area == "business":
        return _EVENT_BUSINESS_BAND, translate(lang, "EVENT · BUSINESS") + check
    if card.area == "economy":
        return _BANDS["economy"], translate(lang, "EVENT · ECONOMY") + check
    return _BANDS["any"], translate(lang, "EVENT")


def _card_lines(card: CardView, text_lines: int, w: int) -> tuple[list[str], list[str]]:
    """A card's name lines and (at most `text_lines`) effect lines at card width `w`."""
    name, body = _lines_of(*_words_of(card), text_lines, w)
    return list(name), list(body)


def _words_of(card: CardView) -> tuple[str, str]:
    """A card's name and text in the picture's language (the data file's words, takeoff.po)."""
    lang = spoken()
    return translate(lang, card.name), translate(lang, card.text)


@lru_cache(maxsize=1024)
def _lines_of(
    name: str, text: str, text_lines: int, w: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Wrapped once per card text and fit: fitting a hand tries every line count per card."""
    names = _wrap(name, w - 16, 17, bold=True)[:2]
    body = _wrap(text, w - 16, SMALL)
    if len(body) > text_lines:
        body = body[:text_lines]
        body[-1] = _more(body[-1], w - 16)
    return tuple(names), tuple(body)


def _more(line: str, width: int) -> str:
    """The last line shown of a longer text, ending " …" after a whole word."""
    words = line.split()
    while len(words) > 1 and text_width(" ".join([*words, "…"]), SMALL) > width:
        words.pop()
    return " ".join([*words, "…"])


def card_height(card: CardView, text_lines: int, w: int) -> int:
    """Height of one card at width `w`."""
    name, body = _lines_of(*_words_of(card), text_lines, w)
    return 30 + 21 * len(name) + 19 * len(body) + 10


def _stamp_card(
    image: Image.Image, card: CardView, x: int, y: int, text_lines: int, w: int, *, chosen: bool
) -> int:
    """One card face (a cached tile: hands keep their cards for turns); returns the y below it."""
    height = card_height(card, text_lines, w)
    stamp(image, (x, y), (w + 1, height + 1), BACKGROUND, _paint_card, card, text_lines, w, chosen)
    return y + height + 8


def _paint_card(
    image: Image.Image, x: int, y: int, card: CardView, text_lines: int, w: int, chosen: bool
) -> None:
    """`draw_card` as a tile painter."""
    draw_card(ImageDraw.Draw(image), card, x, y, text_lines, w, chosen=chosen)


def draw_card(
    draw: ImageDraw.ImageDraw, card: CardView, x: int, y: int, text_lines: int, w: int,
    *, chosen: bool,
) -> int:  # fmt: skip
    """One card face (band, name, effect); returns the y below it. The chosen card is ringed."""
    height = card_height(card, text_lines, w)
    colour, caption = _band(card)
    outline, width = (TARGET, 5) if chosen else (INK, 2)
    draw.rounded_rectangle(
        (x, y, x + w, y + height), radius=10, fill="#fffdf7", outline=outline, width=width
    )
    draw.rounded_rectangle(
        (x + 2, y + 2, x + w - 2, y + 26),
        radius=9,
        fill=colour,
        corners=(True, True, False, False),
    )
    caption = fit_words(caption, w - 12, SMALL, bold=True)  # a whole word, never half of one
    draw.text((x + 8, y + 5), caption, font=font(SMALL, bold=True), fill="#ffffff")
    ty = y + 30
    name, body = _card_lines(card, text_lines, w)
    for line in name:
        draw.text((x + 8, ty), line, font=font(17, bold=True), fill=INK)
        ty += 21
    for line in body:
        draw.text((x + 8, ty), line, font=font(SMALL), fill=INK)
        ty += 19
    return y + height + 8


def _fit_lines(cards: Sequence[CardView], room: int, w: int) -> int:
    """The most effect lines per card that lets every card fit in `room` pixels (at least 1)."""
    for lines in range(6, 0, -1):
        if sum(card_height(c, lines, w) + 8 for c in cards) <= room:
            return lines
    return 1


class Column(NamedTuple):
    """A titled column of cards: where it goes and how much room it has."""

    title: str
    cards: Sequence[CardView]
    x: int
    w: int
    room: int


def _cards_height(col: Column) -> int:
    """Height `_draw_cards` will use (measured without drawing)."""
    height = 22 * len(_wrap(col.title, col.w, 17, bold=True)[:2])
    if not col.cards:
        return height + 30
    lines = _fit_lines(col.cards, col.room - 44, col.w)
    return height + sum(4 + card_height(card, lines, col.w) + 8 for card in col.cards)


def _draw_cards(
    image: Image.Image, draw: ImageDraw.ImageDraw, col: Column, y: int, chosen: str | None
) -> int:
    """A titled column of cards; returns the y below it."""
    for line in _wrap(col.title, col.w, 17, bold=True)[:2]:
        draw.text((col.x, y), line, font=font(17, bold=True), fill=INK)
        y += 22
    if not col.cards:
        empty = translate(spoken(), "(no cards)")
        draw.text((col.x, y + 4), empty, font=font(SMALL), fill=MUTED)
        return y + 30
    lines = _fit_lines(col.cards, col.room - 44, col.w)
    for card in col.cards:
        y = _stamp_card(image, card, col.x, y + 4, lines, col.w, chosen=card.id == chosen)
    return y


def _columns(view: TakeoffView, names: Sequence[str], room: int) -> list[Column]:
    """Your hand beside the plane; during Pinch, both hands side by side instead of the plane
    (a card is being taken, not a seat)."""
    me = view.viewer if view.viewer is not None else 0
    lang = spoken()
    mine = translate(lang, "Your hand ({count} of 5)", count=len(view.hand))
    if not view.shown_hand:
        return [Column(mine, view.hand, SIDE_X, SIDE_W, room)]
    half = (WIDTH - 36) // 2
    theirs = translate(lang, "{player}'s hand — take one", player=names[1 - me])
    return [
        Column(mine, view.hand, 12, half, room),
        Column(theirs, view.shown_hand, 24 + half, half, room),
    ]


class Private(NamedTuple):
    """What a player's view shows, measured before drawing: the seats their chosen card can
    take, that card, the hand column(s), the rows beside the plane, the status line."""

    targets: Sequence[str]
    chosen: str | None
    columns: list[Column]
    body: int
    status: str


def _private(view: TakeoffView, names: Sequence[str]) -> Private:
    """Measure a player's view: the picture grows only if a column needs more room than the
    plane (a Pinch look shows both hands instead of the plane)."""
    me = view.viewer if view.viewer is not None else 0
    to_move = view.turn == me
    targets = view.targets if to_move else ()
    chosen = view.pending.card if view.pending is not None and to_move else None
    height = plane_height(len(view.rows))
    columns = _columns(view, names, height - 10)
    tallest = max(_cards_height(col) for col in columns) + 8
    body = tallest if view.shown_hand else max(height, tallest)
    return Private(targets, chosen, columns, body, _private_status(view, names, targets))


def render_private(view: TakeoffView, *, names: Sequence[str]) -> Image.Image:
    """One player's view: the plane with the seats the chosen card can take, and their hand."""
    mine = _private(view, names)
    status = _wrap(mine.status, WIDTH - 24, 18, bold=True)[:3]
    image, draw = canvas(WIDTH, HEADER_H + mine.body + 12 + 24 * len(status))
    _draw_header(image, draw, view, names)
    if not view.shown_hand:  # a Pinch look shows both hands instead of the plane
        _draw_plane(image, view, HEADER_H, mine.targets)
    for col in mine.columns:
        _draw_cards(image, draw, col, HEADER_H, mine.chosen)
    _draw_status(draw, mine.status, HEADER_H + mine.body + 6)
    return image


def _private_status(view: TakeoffView, names: Sequence[str], targets: Sequence[str]) -> str:
    """The status line, plus what the marks on the plane mean; a Pinch look shows no plane,
    so it says what to do with the hands shown instead."""
    lang = spoken()
    line = _status(view, names)
    if view.shown_hand:
        return line + " " + translate(lang, "Take one of your opponent's cards (right).")
    if targets:
        line += " " + ntranslate(
            lang, "Green frames: the {count} seat it can be played on.",
            "Green frames: the {count} seats it can be played on.", len(targets),
        )  # fmt: skip
    if view.last_seats:  # the board explains its rings in the legend; this view has no legend
        line += " " + translate(lang, "Orange rings: the last move's seats.")
    return line


# --- repainting only what a move changed (bot/render/retained.py) -------------------------------


# Row repaints stop short of the column right of the plane: beyond the fuselage (x ≤ 404) the
# plane layer is background, and the column's title may reach a pixel left of SIDE_X.
ROWS_RIGHT = SIDE_X - 8


def _row_span(number: int) -> tuple[int, int]:
    """Rows of the plane layer [top, bottom) that a seat row's stones, frames, rings and targets
    may touch (frames reach 4 px beyond the seats: neighbouring rows share a few)."""
    y = SEAT_Y0 + (number - 1) * ROW_STEP
    return y - 5, y + SEAT + 6


def _row_parts(view: TakeoffView, targets: Sequence[str]) -> dict[str, tuple[object, int, int]]:
    """One part per seat row: what its pixels depend on, and the picture rows it may touch."""
    parts: dict[str, tuple[object, int, int]] = {}
    for row in view.rows:
        last = tuple(label for label in view.last_seats if int(label[:-1]) == row.number)
        aimed = tuple(label for label in targets if int(label[:-1]) == row.number)
        top, bottom = _row_span(row.number)
        parts[f"row {row.number}"] = ((row, last, aimed), HEADER_H + top, HEADER_H + bottom)
    return parts


PLAYERS_H = 128  # the header's players (rows 8–123) above its pile lines, on a band's edge


def _header_parts(view: TakeoffView, names: Sequence[str]) -> dict[str, tuple[object, int, int]]:
    """The header's two parts: the players' panels and the pile lines."""
    players = (
        tuple(names), view.turn, view.changed_last, view.hand_sizes, view.tickets_left,
        view.scores,
    )  # fmt: skip
    return {
        "players": (players, 0, PLAYERS_H),
        "piles": (_pile_lines(view), PLAYERS_H, HEADER_H),
    }


def _repaint_header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: TakeoffView,
    names: Sequence[str],
    parts: Set[str],
) -> None:
    """The header's dirty parts as a full draw paints them on the blank canvas."""
    if "players" in parts:
        draw.rectangle((0, 0, WIDTH - 1, PLAYERS_H - 1), fill=BACKGROUND)
        _draw_players(image, view, names)
    if "piles" in parts:
        draw.rectangle((0, PLAYERS_H, WIDTH - 1, HEADER_H - 1), fill=BACKGROUND)
        _draw_piles(draw, view)


def _repaint_rows(
    image: Image.Image, view: TakeoffView, targets: Sequence[str], parts: Set[str]
) -> None:
    """The plane where the dirty seat rows lie: the static plane, then everything of the rows
    near them in a full draw's order, on a piece of exactly those picture rows."""
    dirty = [int(name.split()[1]) for name in parts if name.startswith("row ")]
    plane = _plane(view.business_rows, len(view.rows))
    for top, bottom in merged(_row_span(number) for number in dirty):
        top, bottom = max(0, top), min(plane.height, bottom)
        piece = plane.crop((0, top, ROWS_RIGHT, bottom))
        near = [r for r in view.rows if overlaps(_row_span(r.number), (top, bottom))]
        numbers = {r.number for r in near}
        _draw_stones(piece, view, -top, near)
        _draw_marks(ImageDraw.Draw(piece), view, -top, near)
        _draw_targets(piece, view, [t for t in targets if int(t[:-1]) in numbers], -top)
        image.paste(piece, (0, HEADER_H + top))


def _repaint_status(draw: ImageDraw.ImageDraw, text: str, top: int, bottom: int) -> None:
    """The status lines between `top` (the plane's bottom) and the picture's bottom."""
    draw.rectangle((0, top, WIDTH - 1, bottom - 1), fill=BACKGROUND)
    _draw_status(draw, text, top + 6)


def _column_items(column: Column, chosen: str | None) -> list[tuple[object, int, int]]:
    """What `_draw_cards` paints, top to bottom: each title line and card with its rows."""
    items: list[tuple[object, int, int]] = []
    y = HEADER_H
    for line in _wrap(column.title, column.w, 17, bold=True)[:2]:
        items.append((line, y - 2, y + 24))
        y += 22
    if not column.cards:
        return [*items, (translate(spoken(), "(no cards)"), y, y + 30)]
    lines = _fit_lines(column.cards, column.room - 44, column.w)
    for card in column.cards:
        height = card_height(card, lines, column.w)
        items.append(((card, lines, card.id == chosen), y + 4, y + 4 + height + 1))
        y += 4 + height + 8
    return items


def _stripe(top: int, bottom: int) -> tuple[int, int]:
    """The column stripe starting at `top`: up to the next band's edge, or the column's end."""
    return top, min(bottom, (top // BAND_ROWS + 1) * BAND_ROWS)


def _column_parts(
    column: Column, chosen: str | None, body: int
) -> dict[str, tuple[object, int, int]]:
    """The hand column cut in stripes on the picture's bands: a stripe changes only when what
    lies in it does (a card played shifts only the cards below it)."""
    items = _column_items(column, chosen)
    parts: dict[str, tuple[object, int, int]] = {}
    bottom = HEADER_H + body
    top = HEADER_H
    while top < bottom:
        end = _stripe(top, bottom)[1]
        inside = tuple((key, a, b) for key, a, b in items if a < end and top < b)
        parts[f"column {top}"] = (inside, top, end)
        top = end
    return parts


def _repaint_column(
    image: Image.Image, column: Column, chosen: str | None, body: int, parts: Set[str]
) -> None:
    """The hand column's dirty stripes: background, then the column drawn on a piece of exactly
    those rows (the column's title may reach a pixel left of SIDE_X: the piece starts before)."""
    stripes = [int(name.split()[1]) for name in parts if name.startswith("column ")]
    bottom = HEADER_H + body
    spans = merged(_stripe(top, bottom) for top in stripes)
    for top, end in spans:
        piece, draw = canvas(WIDTH - ROWS_RIGHT, end - top)
        shifted = column._replace(x=column.x - ROWS_RIGHT)
        _draw_cards(piece, draw, shifted, HEADER_H - top, chosen)
        image.paste(piece, (ROWS_RIGHT, top))


class BoardParts:
    """The public board in parts: header, each seat row, status (the legend is the frame's)."""

    def layout(self, view: TakeoffView, *, names: Sequence[str]) -> Layout:
        """Where each part lies and what it depends on."""
        height = plane_height(len(view.rows))
        status = tuple(_wrap(_status(view, names), WIDTH - 24, 18, bold=True)[:3])
        total = HEADER_H + height + 12 + 24 * len(status)
        frame = ("board", total, tuple(names), view.business_rows, len(view.rows))
        parts = {
            **_header_parts(view, names),
            **_row_parts(view, ()),
            "status": (status, HEADER_H + height, total),
        }
        return Layout(frame, parts, total)

    def repaint(
        self, image: Image.Image, view: TakeoffView, *, names: Sequence[str], parts: Set[str]
    ) -> None:
        """Paint `parts` as render_board would."""
        draw = ImageDraw.Draw(image)
        _repaint_header(image, draw, view, names, parts)
        _repaint_rows(image, view, (), parts)
        if "status" in parts:
            top = HEADER_H + plane_height(len(view.rows))
            _repaint_status(draw, _status(view, names), top, image.height)


class PrivateParts:
    """A player's view in parts: header, each seat row, the hand column, status. A Pinch look
    (both hands, no plane) is always drawn in full."""

    def __init__(self) -> None:
        # the last view measured, with its names and language: its layout and its repaint ask
        # for the same measures one after the other (wrapping the hand's texts: ~0.3 ms)
        self._measured: tuple[TakeoffView, tuple[str, ...], str, Private] | None = None

    def _private(self, view: TakeoffView, names: Sequence[str]) -> Private:
        """`_private(view, names)`, measured once for the view just laid out."""
        last, key, language = self._measured, tuple(names), spoken()
        if last is not None and last[0] is view and last[1:3] == (key, language):
            return last[3]
        mine = _private(view, names)
        self._measured = (view, key, language, mine)
        return mine

    def layout(self, view: TakeoffView, *, names: Sequence[str]) -> Layout | None:
        """Where each part lies and what it depends on."""
        if view.shown_hand:
            return None
        mine = self._private(view, names)
        (column,) = mine.columns
        status = _wrap(mine.status, WIDTH - 24, 18, bold=True)[:3]
        total = HEADER_H + mine.body + 12 + 24 * len(status)
        frame = ("private", total, mine.body, tuple(names), view.business_rows, len(view.rows))
        parts = {
            **_header_parts(view, names),
            **_row_parts(view, mine.targets),
            **_column_parts(column, mine.chosen, mine.body),
            "status": (tuple(status), HEADER_H + mine.body, total),
        }
        return Layout(frame, parts, total)

    def repaint(
        self, image: Image.Image, view: TakeoffView, *, names: Sequence[str], parts: Set[str]
    ) -> None:
        """Paint `parts` as render_private would."""
        mine = self._private(view, names)
        draw = ImageDraw.Draw(image)
        _repaint_header(image, draw, view, names, parts)
        _repaint_rows(image, view, mine.targets, parts)
        _repaint_column(image, mine.columns[0], mine.chosen, mine.body, parts)
        if "status" in parts:
            _repaint_status(draw, mine.status, HEADER_H + mine.body, image.height)


def alt_text(view: TakeoffView, *, names: Sequence[str], last: str = "") -> str:
    """The picture in words (≤ 1,024 characters), for screen readers and images turned off."""
    return alt.takeoff(view, names, last)
