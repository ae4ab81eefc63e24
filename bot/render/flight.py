"""Flight renderer: the table of four routes, pack and discard, players; and one seat's hand."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import ntranslate, translate
from bot.render import alt
from bot.render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_COLOURS,
    SEAT_SYMBOLS,
    canvas,
    centred,
    fit_text,
    fit_words,
    font,
    pieces,
    seat_name,
    shrunk,
    spoken,
    text_width,
    tint,
)
from bot.render.tiles import stamp
from rules.flight.view import CardView, FlightGameView, FlightView, ObstacleView

WIDTH = 600  # a phone shows it 400 px wide: the smallest text (15 px) reads at ~9.3 px
MARGIN = 12
SMALL = 15
COL_GAP = 8
COL_W = (WIDTH - 2 * MARGIN - 3 * COL_GAP) // 4
HEADER_H = 96
HEAD_H = 50  # route name and state above each column
SLOT_H = 54
SLOT_GAP = 6
NUM_W = 28
HAND_CARD_W = 112
HAND_CARD_H = 150
PER_ROW = 5

WHITE = "#ffffff"
EMPTY_FILL = "#ece7da"
LANDING = "#1f8a4c"
SPECIAL_COLOURS = {
    "fog": "#8a8f99",
    "alt": "#4aa3a1",
    "customs": "#9a5b2c",
    "passport": "#3b4a8c",
    "landing": LANDING,
}


def phase_words(phase: str) -> str:
    """What the player to act is doing, in the picture's language."""
    lang = spoken()
    words = {
        "draw": translate(lang, "drawing"),
        "play": translate(lang, "playing cards"),
        "target": translate(lang, "choosing a flight"),
        "discard": translate(lang, "discarding"),
        "over": translate(lang, "match over"),
    }
    return words[phase]


def _header(image: Image.Image, view: FlightGameView, names: Sequence[str]) -> None:
    """Title, hand number, dealer, match rule and whose turn it is (a cached tile: the board and
    the private view of a move share it, and it changes only with the phase)."""
    lang = spoken()
    if view.match == "target":
        goal = translate(lang, "to {count} points", count=view.target)
    else:
        goal = ntranslate(lang, "{count} hand", "{count} hands", view.hands_to_play)
    info = " · ".join((
        translate(lang, "Hand {number}", number=view.hand_number),
        translate(lang, "dealer {player}", player=seat_name(names, view.dealer)),
        goal,
    ))  # fmt: skip
    if view.over:
        winners = " & ".join(seat_name(names, w) for w in view.winners)
        status = translate(lang, "Match over — {players} won", players=winners)
        colour = LANDING
    else:
        assert view.turn is not None
        symbol = SEAT_SYMBOLS[view.turn % len(SEAT_SYMBOLS)]
        status = f"{symbol} {seat_name(names, view.turn)} — {phase_words(view.phase)}"
        colour = SEAT_COLOURS[view.turn % len(SEAT_COLOURS)]
    stamp(image, (0, 0), (WIDTH, HEADER_H), BACKGROUND, _paint_header, info, status, colour)


def _paint_header(image: Image.Image, x: int, y: int, info: str, status: str, colour: str) -> None:
    """Title, the hand's line and the status bar in the seat's colour."""
    draw = ImageDraw.Draw(image)
    draw.text((x + MARGIN, y + 8), "Flight", font=font(24, bold=True), fill=INK)
    size = shrunk(info, WIDTH - 120, 16, smallest=SMALL)
    line = fit_words(info, WIDTH - 120, size)
    draw.text((x + MARGIN + 96, y + 14 + 16 - size), line, font=font(size), fill=MUTED)
    bar = (x + MARGIN, y + 46, x + WIDTH - MARGIN, y + 84)
    draw.rounded_rectangle(bar, radius=6, fill=tint(colour, 0.7))
    size = shrunk(status, WIDTH - 2 * MARGIN - 20, 19, bold=True, smallest=SMALL)
    draw.text(
        (x + MARGIN + 10, y + 54 + (19 - size) // 2),
        fit_words(status, WIDTH - 2 * MARGIN - 20, size, bold=True),
        font=font(size, bold=True),
        fill=INK,
    )


# ---------------------------------------------------------------- table


def _column_x(index: int) -> int:
    """Left edge of route column `index` (0–3)."""
    return MARGIN + index * (COL_W + COL_GAP)


def _slot_box(column: int, index: int) -> tuple[int, int, int, int]:
    """Slot `index` (0 = Aeroplane, 1–5 = stops, 6 = Safe Landing) of a route column."""
    return _slot_at(_column_x(column), HEADER_H, index)


def _slot_at(x: int, top: int, index: int) -> tuple[int, int, int, int]:
    """Slot `index` of the column whose left edge is `x` and whose head starts at `top`."""
    y = top + HEAD_H + index * (SLOT_H + SLOT_GAP)
    return (x, y, x + COL_W, y + SLOT_H)


def _route_head(draw: ImageDraw.ImageDraw, flight: FlightView, x: int, y: int) -> None:
    """Route name and state above its column, with a bar in the route colour."""
    draw.rounded_rectangle((x, y, x + COL_W, y + 6), radius=3, fill=flight.colour)
    lang = spoken()
    name = fit_words(translate(lang, flight.name), COL_W, 17, bold=True)
    draw.text((x, y + 8), name, font=font(17, bold=True), fill=INK)
    if flight.landed:
        state, colour = "✔ " + translate(lang, "LANDED"), LANDING
    elif flight.blocked:
        state, colour = "✗ " + translate(lang, "HELD UP"), "#b3261e"
    elif flight.started and flight.next_number > 5:
        state, colour = translate(lang, "ready to land"), LANDING
    elif flight.started:
        state, colour = translate(lang, "needs {number}", number=flight.next_number), INK
    else:
        state, colour = translate(lang, "not started"), MUTED
    draw.text(
        (x, y + 29),
        fit_words(state, COL_W, SMALL, bold=True),
        font=font(SMALL, bold=True),
        fill=colour,
    )


def _lines(text: str, width: int) -> list[str]:
    """A town name on at most two lines ('Jerusalem' / '(Lydda)')."""
    if text_width(text, SMALL) <= width:
        return [text]
    head, _, tail = text.partition(" (")
    if tail:
        return [fit_text(head, width, SMALL), fit_text("(" + tail, width, SMALL)]
    words = text.split()
    for cut in range(len(words) - 1, 0, -1):
        first = " ".join(words[:cut])
        if text_width(first, SMALL) <= width:
            return [first, fit_text(" ".join(words[cut:]), width, SMALL)]
    return [fit_text(text, width, SMALL)]


def _slot(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    mark: str,
    words: list[str],
    colour: str | None,
    *,
    next_up: bool = False,
    raised: bool = False,
) -> None:
    """A position: its number (or ✈) at the left, the town at the right; filled in route colour.

    `raised` keeps one line at the top, clear of an obstacle badge along the bottom.
    """
    x0, y0, x1, y1 = box
    if colour is None:
        outline = HIGHLIGHT if next_up else "#bdb5a1"
        draw.rounded_rectangle(
            box, radius=6, fill=EMPTY_FILL, outline=outline, width=4 if next_up else 1
        )
        ink, num_ink = MUTED, MUTED
    else:
        draw.rounded_rectangle(box, radius=6, fill=colour, outline=INK, width=1)
        draw.rounded_rectangle((x0 + NUM_W, y0 + 3, x1 - 3, y1 - 3), radius=4, fill=WHITE)
        ink, num_ink = INK, WHITE
    draw.text(
        (x0 + NUM_W // 2 + 1, (y0 + y1) // 2),
        mark,
        font=font(17, bold=True),
        fill=num_ink,
        anchor="mm",
    )
    if raised:
        words = [fit_words(" ".join(words), x1 - x0 - NUM_W - 8, SMALL)]
    top = y0 + 4 if raised else (y0 + y1) // 2 - 10 * len(words)
    for i, line in enumerate(words):
        draw.text((x0 + NUM_W + 5, top + i * 20), line, font=font(SMALL), fill=ink)


def _badge(obstacle: ObstacleView) -> str:
    """An obstacle as words: 'FOG ✗' while it stops the flight, 'Fog ✓' once cancelled."""
    name = translate(spoken(), obstacle.name)
    return f"{name} ✓" if obstacle.cancelled else f"{name.upper()} ✗"


def _flight_column(image: Image.Image, flight: FlightView, column: int, *, on_empty: bool) -> None:
    """One route's column (a cached tile: a move changes one route at most).

    `on_empty`: the column is drawn over the cached empty table, so plain empty slots are
    already there and are skipped (only what moved is drawn per turn).
    """
    # beneath the column: that column of the empty table, or the plain background
    under = ("table", tuple(s.town for s in flight.stops)) if on_empty else BACKGROUND
    xy = (_column_x(column) - 3, HEADER_H)
    stamp(image, xy, COLUMN_SIZE, under, _paint_column, flight, on_empty)


# the column with its tint's 3 px margin, down to the last obstacle badge's bottom
COLUMN_SIZE = (COL_W + 7, HEAD_H + 6 * (SLOT_H + SLOT_GAP) + SLOT_H + 5)


def _paint_column(image: Image.Image, x: int, y: int, flight: FlightView, on_empty: bool) -> None:
    """One route from Aeroplane (top) through stops 1–5 to Safe Landing, with its obstacles."""
    draw = ImageDraw.Draw(image)
    x += 3  # the column's left edge, right of the tint's margin
    tinted = flight.blocked or flight.landed
    fill = BACKGROUND
    if tinted:
        fill = "#f6dcd8" if flight.blocked else "#d9efe0"
        bottom = _slot_at(x, y, 6)[3] + 3
        draw.rectangle((x - 3, y + HEAD_H - 4, x + COL_W + 3, bottom), fill=fill)
    skip_empty = on_empty and not tinted
    _route_head(draw, flight, x, y)
    width = COL_W - NUM_W - 8

    def slot(
        index: int, town: str, mark: str, words: list[str], colour: str | None,
        next_up: bool = False, raised: bool = False,
    ) -> None:  # fmt: skip
        # beneath a slot: the tint, or on the cached empty table that slot drawn empty
        under = ("table", index, town) if skip_empty else fill
        args = (mark, tuple(words), colour, next_up, raised)
        stamp(image, _slot_at(x, y, index)[:2], SLOT_SIZE, under, _paint_slot, *args)

    beside: dict[int, list[ObstacleView]] = {}
    for obstacle in flight.obstacles:
        beside.setdefault(obstacle.beside, []).append(obstacle)
    lang = spoken()
    if flight.started or not skip_empty:
        plane = flight.colour if flight.started else None
        slot(0, "", "✈", _lines(translate(lang, "Aeroplane"), width), plane, raised=0 in beside)
    for stop in flight.stops:
        number, town = stop.number, stop.town
        next_up = flight.started and not flight.blocked and number == flight.next_number
        if stop.filled == "alternative":
            colour = SPECIAL_COLOURS["alt"]
            skips = fit_words(translate(lang, "skips {town}", town=town), width, SMALL)
            slot(number, town, "↷", [translate(lang, "Alt. Route"), skips], colour)
        elif stop.filled == "route":
            raised = number in beside
            slot(number, town, str(number), _lines(town, width), flight.colour, raised=raised)
        elif next_up or not skip_empty:
            slot(number, town, str(number), _lines(town, width), None, next_up=next_up)
    ready = flight.started and flight.next_number == 6 and not flight.blocked
    if flight.landed or ready or not skip_empty:
        landing = LANDING if flight.landed else None
        slot(6, "", "⚑", _safe_landing(), landing, next_up=ready)
    for index, obstacles in beside.items():
        _obstacles(draw, _slot_at(x, y, index), obstacles)


SLOT_SIZE = (COL_W + 1, SLOT_H + 1)


def _paint_slot(
    image: Image.Image, x: int, y: int,
    mark: str, words: tuple[str, ...], colour: str | None, next_up: bool, raised: bool,
) -> None:  # fmt: skip
    """One slot with its top-left corner at (x, y) (see `_slot`)."""
    draw = ImageDraw.Draw(image)
    box = (x, y, x + COL_W, y + SLOT_H)
    _slot(draw, box, mark, list(words), colour, next_up=next_up, raised=raised)


TableKey = tuple[tuple[str, ...], ...]


def _safe_landing() -> list[str]:
    """'Safe' / 'Landing' on two lines, in the picture's language."""
    lang = spoken()
    return [translate(lang, "Safe"), translate(lang, "Landing")]


@lru_cache(maxsize=8)
def _empty_table(key: TableKey, language: str) -> Image.Image:
    """Every route column with all its slots empty (static: drawn once per set of routes and
    language; `language` is the one spoken while drawing, a key of the cache)."""
    image, draw = canvas(WIDTH, _slot_box(0, 6)[3] + 4, BACKGROUND)
    width = COL_W - NUM_W - 8
    plane = _lines(translate(language, "Aeroplane"), width)
    for column, towns in enumerate(key):
        _slot(draw, _slot_box(column, 0), "✈", plane, None)
        for number, town in enumerate(towns, 1):
            _slot(draw, _slot_box(column, number), str(number), _lines(town, width), None)
        _slot(draw, _slot_box(column, 6), "⚑", _safe_landing(), None)
    return image


def _obstacles(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], obstacles: list[ObstacleView]
) -> None:
    """Obstacle badges across the bottom of the Route card they lie beside (newest last)."""
    x0, _, x1, y1 = box
    shown = obstacles[-1:]  # the newest decides; the log tells the rest
    for obstacle in shown:
        colour = SPECIAL_COLOURS[obstacle.kind]
        label = fit_words(_badge(obstacle), x1 - x0 - 10, SMALL, bold=True)
        badge = (x0 + 2, y1 - 22, x1 - 2, y1 + 4)
        if obstacle.cancelled:
            draw.rounded_rectangle(badge, radius=4, fill=tint(colour, 0.6), outline=colour)
            centred(draw, badge, label, SMALL, bold=True, fill=INK)
        else:
            draw.rounded_rectangle(badge, radius=4, fill=colour, outline="#b3261e", width=2)
            centred(draw, badge, label, SMALL, bold=True, fill=WHITE)


# ---------------------------------------------------------------- footer


def short_titles() -> dict[str, tuple[str, str]]:
    """A special card on the discard pile: its title and a word under it."""
    lang = spoken()
    obstacle = translate(lang, "obstacle")
    return {
        "landing": (translate(lang, "Safe"), translate(lang, "Landing")),
        "fog": (translate(lang, "Fog"), obstacle),
        "customs": (translate(lang, "Customs"), obstacle),
        "alt": (translate(lang, "Alt. Route"), translate(lang, "on a Fog")),
        "passport": (translate(lang, "Passport"), translate(lang, "on Customs")),
    }


def hand_titles() -> dict[str, tuple[str, str, str]]:
    """A special card in a hand: its title and two lines of what it does."""
    lang = spoken()
    obstacle, stops = translate(lang, "obstacle"), translate(lang, "stops a flight")
    return {
        "landing": (translate(lang, "Safe"), translate(lang, "Landing"),
                    translate(lang, "ends the hand")),
        "fog": (translate(lang, "Fog"), obstacle, stops),
        "customs": (translate(lang, "Customs"), obstacle, stops),
        "alt": (translate(lang, "Alt. Route"), translate(lang, "cancels Fog"),
                translate(lang, "skips a stop")),
        "passport": (translate(lang, "Passport"), translate(lang, "cancels"),
                     translate(lang, "Customs")),
    }  # fmt: skip


def _route_name(card: CardView) -> str:
    """'South Africa' from 'South Africa 4 (Johannesburg)' or 'South Africa Aeroplane'."""
    base = card.name.split(" (")[0]
    return translate(spoken(), base.removesuffix(" Aeroplane").removesuffix(f" {card.number}"))


def _pile(draw: ImageDraw.ImageDraw, view: FlightGameView, y: int) -> None:
    """The pack (face down, with its size) and the exposed discard."""
    w = 106
    lang = spoken()
    pack, discard = translate(lang, "Pack"), translate(lang, "Discard")
    size = shrunk(pack, w, 16, bold=True, smallest=SMALL)
    draw.text((MARGIN, y + 16 - size), pack, font=font(size, bold=True), fill=INK)
    back = (MARGIN, y + 24, MARGIN + w, y + 24 + 66)
    draw.rounded_rectangle(back, radius=6, fill="#30415d", outline=INK)
    cards = ntranslate(lang, "{count} card", "{count} cards", view.pack_size)
    centred(draw, back, cards, 16, bold=True, fill=WHITE)
    x = MARGIN + w + 10
    size = shrunk(discard, w, 16, bold=True, smallest=SMALL)
    draw.text((x, y + 16 - size), discard, font=font(size, bold=True), fill=INK)
    face = (x, y + 24, x + w, y + 24 + 66)
    card = view.exposed_discard
    if card is None:
        draw.rounded_rectangle(face, radius=6, fill=EMPTY_FILL, outline="#bdb5a1")
        centred(draw, face, translate(lang, "none"), SMALL, fill=MUTED)
        return
    colour = card.colour or SPECIAL_COLOURS.get(card.kind, MUTED)
    if card.kind == "route":
        top, bottom = f"{card.number}", _route_name(card)
    elif card.kind == "aeroplane":
        top, bottom = "✈", _route_name(card)
    else:
        top, bottom = short_titles().get(card.kind, (translate(lang, card.name), ""))
    draw.rounded_rectangle(face, radius=6, fill=colour, outline=INK)
    centred(draw, (face[0], face[1] + 4, face[2], face[1] + 30), top, 17, bold=True, fill=WHITE)
    inner = (face[0] + 4, face[1] + 32, face[2] - 4, face[3] - 4)
    draw.rounded_rectangle(inner, radius=4, fill=WHITE)
    centred(draw, inner, bottom, SMALL, fill=INK)


def _seats(draw: ImageDraw.ImageDraw, view: FlightGameView, names: Sequence[str], y: int) -> None:
    """Each player: symbol, name, cards in hand, match score, dealer/first-out/turn marks."""
    x = MARGIN + 240
    right = WIDTH - MARGIN
    lang = spoken()
    # the headings are narrow columns: a longer word takes a smaller size (never below SMALL)
    for words, at, anchor, room in (
        (translate(lang, "Player"), x, "la", 150),
        (translate(lang, "Cards"), right - 118, "ra", 80),
        (translate(lang, "Score"), right, "ra", 80),
    ):
        size = shrunk(words, room, 16, bold=True, smallest=SMALL)
        draw.text((at, y + 16 - size), words, font=font(size, bold=True), fill=INK, anchor=anchor)
    for seat in view.seats:
        row = y + 26 + seat.seat * 28
        colour = SEAT_COLOURS[seat.seat % len(SEAT_COLOURS)]
        if view.turn == seat.seat:
            draw.rectangle((x - 6, row - 2, right + 4, row + 25), fill=tint(colour, 0.65))
        symbol = SEAT_SYMBOLS[seat.seat % len(SEAT_SYMBOLS)]
        draw.text((x, row), symbol, font=font(17), fill=colour, stroke_width=1, stroke_fill=INK)
        marks = (" (D)" if seat.is_dealer else "") + (" ★" if seat.first_out else "")
        label = fit_text(seat_name(names, seat.seat) + marks, right - 150 - x - 24, 17)
        draw.text((x + 24, row), label, font=font(17), fill=INK)
        draw.text(
            (right - 118, row), str(seat.hand_size), font=font(17, bold=True), fill=INK, anchor="ra"
        )
        draw.text((right, row), str(seat.score), font=font(17, bold=True), fill=INK, anchor="ra")


def next_up_shown(view: FlightGameView) -> bool:
    """True when some route shows an orange frame: a flight under way, not held up, not landed
    (`_paint_column` frames its next stop, or Safe Landing once all five are in)."""
    return any(
        f.started and not f.blocked and not f.landed and f.next_number <= 6
        for f in view.flights[:4]
    )


def _last_hand_lines(view: FlightGameView, names: Sequence[str]) -> list[str]:
    """The most recent finished hand, wrapped (and the legend for D, ★ and the orange frame)."""
    lang = spoken()
    legend = translate(lang, "(D) dealer · ★ first out this hand")
    if next_up_shown(view):  # explained only when the picture has one
        legend += " · " + translate(lang, "orange frame: each flight's next stop")
    lines = wrap(legend, WIDTH - 2 * MARGIN, SMALL)  # one line in English
    if not view.results:
        return lines
    last = view.results[-1]
    route = next((f.name for f in view.flights if f.route == last.route), last.route)
    text = translate(
        lang, "Hand {number}: {player} landed on {route}", number=last.number,
        player=seat_name(names, last.lander), route=translate(lang, route),
    )  # fmt: skip
    if last.first_out is not None:
        out = translate(lang, "{player} first out", player=seat_name(names, last.first_out))
        text += f"; {out}"
    scores = ", ".join(f"{seat_name(names, s)} {p:+d}" for s, p in enumerate(last.points))
    return [*wrap(f"{text} ({scores})", WIDTH - 2 * MARGIN, SMALL)[:3], *lines]


def render_board(view: FlightGameView, *, names: Sequence[str]) -> Image.Image:
    """The public table from the public view: routes, obstacles, piles, players, turn."""
    return draw_board(view, names, static=True)


def draw_board(view: FlightGameView, names: Sequence[str], *, static: bool) -> Image.Image:
    """The table; `static` starts from the cached empty table and draws only what moved
    (False draws every slot: the reference the cached picture must equal)."""
    footer_y = _slot_box(0, 6)[3] + 16
    seats_h = 30 + len(view.seats) * 28
    notes = _last_hand_lines(view, names)
    height = footer_y + max(seats_h, 96) + 12 + 20 * len(notes)
    image, draw = canvas(WIDTH, height, BACKGROUND)
    flights = view.flights[:4]
    if static:
        towns = tuple(tuple(s.town for s in f.stops) for f in flights)
        image.paste(_empty_table(towns, spoken()), (0, 0))
    _header(image, view, names)
    for i, flight in enumerate(flights):
        _flight_column(image, flight, i, on_empty=static)
    _pile(draw, view, footer_y)
    _seats(draw, view, names, footer_y)
    y = footer_y + max(seats_h, 96) + 8
    for line in notes:
        draw.text((MARGIN, y), line, font=font(SMALL), fill=MUTED)
        y += 20
    return image


def wrap(text: str, width: int, size: int) -> list[str]:
    """Greedy word wrap in the shipped font."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines += pieces(word, width, size)
    return lines


# ---------------------------------------------------------------- private hand


def _stamp_hand_card(
    image: Image.Image, x: int, y: int, card: CardView, *, playable: bool, pending: bool
) -> None:
    """A card of the hand (a cached tile: a hand keeps its cards for many turns)."""
    size = (HAND_CARD_W + 1, HAND_CARD_H + 1)
    stamp(image, (x, y), size, BACKGROUND, _paint_hand_card, card, playable, pending)


def _paint_hand_card(
    image: Image.Image, x: int, y: int, card: CardView, playable: bool, pending: bool
) -> None:
    """`hand_card` as a tile painter."""
    hand_card(ImageDraw.Draw(image), x, y, card, playable=playable, pending=pending)


def hand_card(
    draw: ImageDraw.ImageDraw, x: int, y: int, card: CardView, *, playable: bool, pending: bool
) -> None:
    """A full card face with its kind, name, town and penalty points."""
    colour = card.colour or SPECIAL_COLOURS.get(card.kind, MUTED)
    box = (x, y, x + HAND_CARD_W, y + HAND_CARD_H)
    outline, width = (HIGHLIGHT, 5) if pending else ((INK, 3) if playable else (MUTED, 1))
    draw.rounded_rectangle(box, radius=8, fill=colour, outline=outline, width=width)
    inner = (x + 5, y + 34, x + HAND_CARD_W - 5, y + HAND_CARD_H - 30)
    draw.rounded_rectangle(inner, radius=5, fill=WHITE)
    if card.kind == "route":
        title, route, middle = f"{card.number}", _route_name(card), card.town or ""
    elif card.kind == "aeroplane":
        title, route, middle = "✈", _route_name(card), translate(spoken(), "Aeroplane")
    else:
        name = translate(spoken(), card.name)
        title, route, middle = hand_titles().get(card.kind, (name, "", ""))
    box = (x, y + 5, x + HAND_CARD_W, y + 33)
    centred(draw, box, title, 20, bold=True, fill=WHITE, smallest=SMALL)
    centred(draw, (inner[0], inner[1] + 4, inner[2], inner[1] + 26), route, SMALL)
    for i, line in enumerate(_lines(middle, inner[2] - inner[0] - 4)):
        top = inner[1] + 30 + i * 20
        centred(draw, (inner[0], top, inner[2], top + 20), line, SMALL)
    mark = "▶ " if playable else ""
    centred(
        draw,
        (x, y + HAND_CARD_H - 28, x + HAND_CARD_W, y + HAND_CARD_H - 4),
        mark + ntranslate(spoken(), "{count} pt", "{count} pts", card.points),
        16,
        bold=True,
        fill=WHITE,
    )


def render_private(view: FlightGameView, *, names: Sequence[str]) -> Image.Image:
    """One seat's view: the same header plus the hand as cards with their point values."""
    hand = view.hand or ()
    rows = max(1, -(-len(hand) // PER_ROW))
    height = HEADER_H + 40 + rows * (HAND_CARD_H + 10) + 34
    image, draw = canvas(WIDTH, height, BACKGROUND)
    _header(image, view, names)
    total = sum(c.points for c in hand)
    lang = spoken()
    cards = ntranslate(lang, "{count} card", "{count} cards", len(hand))
    points = ntranslate(lang, "{count} point", "{count} points", total)
    title = translate(
        lang, "Your hand — {cards}, {points} if caught holding them", cards=cards, points=points
    )
    size = shrunk(title, WIDTH - 2 * MARGIN, 17, bold=True, smallest=SMALL)
    draw.text(
        (MARGIN, HEADER_H + 4 + 17 - size),
        fit_words(title, WIDTH - 2 * MARGIN, size, bold=True),
        font=font(size, bold=True),
        fill=INK,
    )
    if not hand:
        empty = translate(lang, "No cards in hand.")
        draw.text((MARGIN, HEADER_H + 44), empty, font=font(16), fill=MUTED)
    pending_done = False
    gap = (WIDTH - 2 * MARGIN - PER_ROW * HAND_CARD_W) // (PER_ROW - 1)
    for i, card in enumerate(hand):
        row, col = divmod(i, PER_ROW)
        pending = not pending_done and view.pending is not None and card.code == view.pending.code
        pending_done = pending_done or pending
        x = MARGIN + col * (HAND_CARD_W + gap)
        y = HEADER_H + 34 + row * (HAND_CARD_H + 10)
        _stamp_hand_card(image, x, y, card, playable=card.code in view.playable, pending=pending)
    if view.playable:
        note = translate(lang, "▶ and a black frame: playable now. Orange frame: being played.")
        draw.text(
            (MARGIN, height - 26),
            fit_words(note, WIDTH - 2 * MARGIN, SMALL),
            font=font(SMALL),
            fill=MUTED,
        )
    return image


def alt_text(view: FlightGameView, *, names: Sequence[str], last: str = "") -> str:
    """The picture in words (≤ 1,024 characters), for screen readers and images turned off."""
    return alt.flight(view, names, last)
