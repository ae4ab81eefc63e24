"""Flight renderer: the table of four routes, pack and discard, players; and one seat's hand."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_COLOURS,
    canvas,
    centred,
    fit_text,
    font,
    seat_name,
    tint,
)
from rules.core.messages import plural
from rules.flight.view import CardView, FlightGameView, FlightView, ObstacleView

WIDTH = 900
MARGIN = 16
LABEL_W = 128
SLOT_W = 104
CARD_W = 96
CARD_H = 64
ROW_H = 112
HEADER_H = 76
SEAT_ROW_H = 26
HAND_CARD_W = 100
HAND_CARD_H = 132

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
PHASE_WORDS = {
    "draw": "drawing",
    "play": "playing cards",
    "target": "choosing a flight",
    "discard": "discarding",
    "over": "match over",
}


def _header(draw: ImageDraw.ImageDraw, view: FlightGameView, names: Sequence[str]) -> None:
    """Title, hand number, dealer, match rule and whose turn it is."""
    draw.text((MARGIN, 10), "Flight", font=font(26, bold=True), fill=INK)
    goal = (
        f"match to {view.target} points"
        if view.match == "target"
        else f"match of {plural(view.hands_to_play, 'hand')}"
    )
    info = f"Hand {view.hand_number} · dealer {seat_name(names, view.dealer)} · {goal}"
    draw.text((MARGIN + 100, 18), fit_text(info, WIDTH - 140, 15), font=font(15), fill=MUTED)
    if view.over:
        winners = " & ".join(seat_name(names, w) for w in view.winners)
        status, colour = f"Match over — {winners} won", LANDING
    else:
        assert view.turn is not None
        status = f"Turn: {seat_name(names, view.turn)} — {PHASE_WORDS[view.phase]}"
        colour = SEAT_COLOURS[view.turn % len(SEAT_COLOURS)]
    draw.rounded_rectangle((MARGIN, 44, WIDTH - MARGIN, 70), radius=6, fill=tint(colour, 0.75))
    draw.text(
        (MARGIN + 10, 48),
        fit_text(status, WIDTH - 60, 16, bold=True),
        font=font(16, bold=True),
        fill=INK,
    )


# ---------------------------------------------------------------- table


def _slot_box(row_y: int, index: int) -> tuple[int, int, int, int]:
    """The card rectangle of slot `index` (0 = Aeroplane, 1–5 = stops, 6 = Safe Landing)."""
    x = MARGIN + LABEL_W + index * SLOT_W
    return (x, row_y + 8, x + CARD_W, row_y + 8 + CARD_H)


def _route_label(draw: ImageDraw.ImageDraw, flight: FlightView, y: int) -> None:
    """Route name, colour and state at the left of a row."""
    draw.rounded_rectangle(
        (MARGIN, y + 8, MARGIN + 10, y + 8 + CARD_H), radius=3, fill=flight.colour
    )
    draw.text(
        (MARGIN + 16, y + 10),
        fit_text(flight.name, LABEL_W - 20, 15, bold=True),
        font=font(15, bold=True),
        fill=INK,
    )
    draw.text((MARGIN + 16, y + 30), flight.colour_name, font=font(12), fill=MUTED)
    if flight.landed:
        state, colour = "LANDED", LANDING
    elif flight.blocked:
        state, colour = "HELD UP", "#c0392b"
    elif flight.started and flight.next_number > 5:
        state, colour = "ready to land", LANDING
    elif flight.started:
        state, colour = f"needs {flight.next_number}", INK
    else:
        state, colour = "not started", MUTED
    draw.text((MARGIN + 16, y + 50), state, font=font(12, bold=True), fill=colour)


def _empty_slot(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    top: str,
    bottom: str,
    *,
    next_up: bool,
) -> None:
    """An unfilled position: a pale outline with its label."""
    outline = HIGHLIGHT if next_up else "#cfc8b6"
    draw.rounded_rectangle(
        box, radius=6, fill=EMPTY_FILL, outline=outline, width=2 if next_up else 1
    )
    x0, y0, x1, y1 = box
    centred(draw, (x0, y0 + 4, x1, y0 + 26), top, 13, bold=True, fill=MUTED)
    centred(draw, (x0, y0 + 30, x1, y1 - 4), bottom, 11, fill=MUTED)


def _filled_slot(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], top: str, bottom: str, colour: str
) -> None:
    """A laid card in its route colour."""
    draw.rounded_rectangle(box, radius=6, fill=colour, outline=INK, width=1)
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 4, y0 + 30, x1 - 4, y1 - 4), radius=4, fill=WHITE)
    centred(draw, (x0, y0 + 4, x1, y0 + 28), top, 14, bold=True, fill=WHITE)
    centred(draw, (x0 + 4, y0 + 30, x1 - 4, y1 - 4), bottom, 11, fill=INK)


def _alternative_slot(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], town: str) -> None:
    """A position replaced by an Alternative Route: the town is skipped."""
    draw.rounded_rectangle(box, radius=6, fill=SPECIAL_COLOURS["alt"], outline=INK, width=1)
    x0, y0, x1, y1 = box
    centred(draw, (x0, y0 + 4, x1, y0 + 26), "Alt. Route", 13, bold=True, fill=WHITE)
    centred(draw, (x0, y0 + 30, x1, y1 - 4), f"skips {town}", 11, fill=WHITE)


def _obstacle_badge(draw: ImageDraw.ImageDraw, x: int, y: int, obstacle: ObstacleView) -> None:
    """A Fog/Customs marker under its Route card; ticked with its remedy once cancelled."""
    colour = SPECIAL_COLOURS[obstacle.kind]
    box = (x, y, x + CARD_W, y + 16)
    if obstacle.cancelled:
        label = f"{obstacle.name} ✓ {obstacle.cancelled_by or ''}"
        draw.rounded_rectangle(box, radius=4, fill=tint(colour, 0.7), outline=colour)
        centred(draw, box, label.replace("Alternative", "Alt."), 9, fill=INK)
    else:
        draw.rounded_rectangle(box, radius=4, fill=colour, outline="#c0392b", width=2)
        centred(draw, box, f"{obstacle.name.upper()} ✗", 10, bold=True, fill=WHITE)


def _flight_row(draw: ImageDraw.ImageDraw, flight: FlightView, y: int) -> None:
    """One route from Aeroplane through stops 1–5 to Safe Landing, with its obstacles."""
    if flight.blocked or flight.landed:
        tint = "#f6dcd8" if flight.blocked else "#d9efe0"
        draw.rectangle((MARGIN - 6, y + 2, WIDTH - MARGIN + 6, y + ROW_H - 4), fill=tint)
    _route_label(draw, flight, y)
    plane = _slot_box(y, 0)
    if flight.started:
        _filled_slot(draw, plane, "✈", "Aeroplane", flight.colour)
    else:
        _empty_slot(draw, plane, "✈", "Aeroplane", next_up=False)
    for stop in flight.stops:
        box = _slot_box(y, stop.number)
        next_up = flight.started and not flight.blocked and stop.number == flight.next_number
        if stop.filled == "route":
            _filled_slot(draw, box, str(stop.number), stop.town, flight.colour)
        elif stop.filled == "alternative":
            _alternative_slot(draw, box, stop.town)
        else:
            _empty_slot(draw, box, str(stop.number), stop.town, next_up=next_up)
    landing = _slot_box(y, 6)
    if flight.landed:
        _filled_slot(draw, landing, "Safe", "Landing", LANDING)
    else:
        ready = flight.started and flight.next_number == 6 and not flight.blocked
        _empty_slot(draw, landing, "Safe", "Landing", next_up=ready)
    _obstacles(draw, flight, y)


def _obstacles(draw: ImageDraw.ImageDraw, flight: FlightView, y: int) -> None:
    """Obstacle badges stacked under the Route card each lies beside (newest last)."""
    stacked: dict[int, int] = {}
    for obstacle in flight.obstacles:
        depth = stacked.get(obstacle.beside, 0)
        stacked[obstacle.beside] = depth + 1
        x0, _, _, y1 = _slot_box(y, obstacle.beside)
        if depth < 2:  # two badges fit; a third on the same card is rare and shown by the log
            _obstacle_badge(draw, x0, y1 + 3 + depth * 18, obstacle)


# ---------------------------------------------------------------- footer


SHORT_TITLES = {
    "landing": ("Safe", "Landing"),
    "fog": ("Fog", "obstacle"),
    "customs": ("Customs", "obstacle"),
    "alt": ("Alt. Route", "on a Fog"),
    "passport": ("Passport", "on Customs"),
}


HAND_TITLES = {
    "landing": ("Safe", "Landing", "ends the hand"),
    "fog": ("Fog", "obstacle", "stops a flight"),
    "customs": ("Customs", "obstacle", "stops a flight"),
    "alt": ("Alt. Route", "cancels Fog", "skips a stop"),
    "passport": ("Passport", "cancels", "Customs"),
}


def _route_name(card: CardView) -> str:
    """'South Africa' from 'South Africa 4 (Johannesburg)' or 'South Africa Aeroplane'."""
    base = card.name.split(" (")[0]
    return base.removesuffix(" Aeroplane").removesuffix(f" {card.number}")


def _small_card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: CardView) -> None:
    """A compact card face (used for the exposed discard)."""
    colour = card.colour or SPECIAL_COLOURS.get(card.kind, MUTED)
    # The route name goes in the two-line lower half: on the top line it was cut ("South Afr…").
    if card.kind == "route":
        top, bottom = str(card.number), f"{_route_name(card)}\n{card.town or ''}"
    elif card.kind == "aeroplane":
        top, bottom = "✈", f"{_route_name(card)}\nAeroplane"
    else:
        top, bottom = SHORT_TITLES.get(card.kind, (card.name, ""))
    _filled_slot(draw, box, top, bottom, colour)


def _pile(draw: ImageDraw.ImageDraw, view: FlightGameView, y: int) -> None:
    """The pack (face down, with its size) and the exposed discard."""
    draw.text((MARGIN, y), "Pack", font=font(13, bold=True), fill=INK)
    back = (MARGIN, y + 20, MARGIN + CARD_W, y + 20 + CARD_H)
    draw.rounded_rectangle(back, radius=6, fill="#30415d", outline=INK)
    centred(draw, back, plural(view.pack_size, "card"), 14, bold=True, fill=WHITE)
    x = MARGIN + SLOT_W + 8
    draw.text((x, y), "Exposed discard", font=font(13, bold=True), fill=INK)
    face = (x, y + 20, x + CARD_W, y + 20 + CARD_H)
    if view.exposed_discard is None:
        _empty_slot(draw, face, "—", "none", next_up=False)
    else:
        _small_card(draw, face, view.exposed_discard)


def _seats(draw: ImageDraw.ImageDraw, view: FlightGameView, names: Sequence[str], y: int) -> None:
    """Each player: colour, name, cards in hand, match score, dealer/first-out/turn marks."""
    x = MARGIN + 2 * SLOT_W + 40
    right = WIDTH - MARGIN
    draw.text((x, y), "Player", font=font(13, bold=True), fill=INK)
    draw.text((right - 200, y), "Cards", font=font(13, bold=True), fill=INK)
    draw.text((right - 120, y), "Score", font=font(13, bold=True), fill=INK)
    for seat in view.seats:
        row = y + 20 + seat.seat * SEAT_ROW_H
        colour = SEAT_COLOURS[seat.seat % len(SEAT_COLOURS)]
        if view.turn == seat.seat:
            draw.rectangle((x - 6, row - 2, right, row + SEAT_ROW_H - 4), fill=tint(colour, 0.7))
        draw.ellipse((x, row + 4, x + 12, row + 16), fill=colour, outline=INK)
        marks = ("  (dealer)" if seat.is_dealer else "") + (
            "  ★ first out" if seat.first_out else ""
        )
        label = fit_text(seat_name(names, seat.seat) + marks, right - 220 - x, 14)
        draw.text((x + 20, row + 2), label, font=font(14), fill=INK)
        draw.text((right - 200, row + 2), str(seat.hand_size), font=font(14, bold=True), fill=INK)
        draw.text((right - 120, row + 2), str(seat.score), font=font(14, bold=True), fill=INK)
    if view.winners:
        draw.text(
            (x, y + 24 + len(view.seats) * SEAT_ROW_H),
            "Winner: " + " & ".join(seat_name(names, w) for w in view.winners),
            font=font(14, bold=True),
            fill=LANDING,
        )


def _last_hand_line(view: FlightGameView, names: Sequence[str]) -> str:
    """A one-line summary of the most recent finished hand."""
    if not view.results:
        return ""
    last = view.results[-1]
    route = next((f.name for f in view.flights if f.route == last.route), last.route)
    text = f"Hand {last.number}: {seat_name(names, last.lander)} landed on {route}"
    if last.first_out is not None:
        text += f"; {seat_name(names, last.first_out)} first out"
    scores = ", ".join(f"{seat_name(names, s)} {p:+d}" for s, p in enumerate(last.points))
    return f"{text} ({scores})"


def render_board(view: FlightGameView, *, names: Sequence[str]) -> Image.Image:
    """The public table from the public view: routes, obstacles, piles, players, turn."""
    seats_h = 28 + len(view.seats) * SEAT_ROW_H + 24
    footer_y = HEADER_H + 4 * ROW_H + 10
    height = footer_y + max(seats_h, 20 + CARD_H + 10) + 34
    image, draw = canvas(WIDTH, height, BACKGROUND)
    _header(draw, view, names)
    for i, flight in enumerate(view.flights):
        _flight_row(draw, flight, HEADER_H + i * ROW_H)
    _pile(draw, view, footer_y)
    _seats(draw, view, names, footer_y)
    line = _last_hand_line(view, names)
    if line:
        draw.text(
            (MARGIN, height - 26), fit_text(line, WIDTH - 2 * MARGIN, 13), font=font(13), fill=MUTED
        )
    return image


# ---------------------------------------------------------------- private hand


def _hand_card(
    draw: ImageDraw.ImageDraw, x: int, y: int, card: CardView, *, playable: bool, pending: bool
) -> None:
    """A full card face with its kind, name, town and penalty points."""
    colour = card.colour or SPECIAL_COLOURS.get(card.kind, MUTED)
    box = (x, y, x + HAND_CARD_W, y + HAND_CARD_H)
    outline, width = (HIGHLIGHT, 4) if pending else ((INK, 2) if playable else (MUTED, 1))
    draw.rounded_rectangle(box, radius=8, fill=colour, outline=outline, width=width)
    inner = (x + 6, y + 34, x + HAND_CARD_W - 6, y + HAND_CARD_H - 30)
    draw.rounded_rectangle(inner, radius=5, fill=WHITE)
    if card.kind == "route":
        title, route, middle = f"{card.number}", _route_name(card), card.town or ""
    elif card.kind == "aeroplane":
        title, route, middle = "✈", _route_name(card), "Aeroplane"
    else:
        title, route, middle = HAND_TITLES.get(card.kind, (card.name, "", ""))
    centred(draw, (x, y + 6, x + HAND_CARD_W, y + 32), title, 16, bold=True, fill=WHITE)
    centred(draw, (inner[0], inner[1] + 6, inner[2], inner[1] + 26), route, 11, bold=True)
    centred(draw, (inner[0], inner[1] + 30, inner[2], inner[3] - 4), middle, 11)
    centred(
        draw,
        (x, y + HAND_CARD_H - 28, x + HAND_CARD_W, y + HAND_CARD_H - 4),
        plural(card.points, "pt"),
        13,
        bold=True,
        fill=WHITE,
    )


def render_private(view: FlightGameView, *, names: Sequence[str]) -> Image.Image:
    """One seat's view: the same header plus the hand as cards with their point values."""
    hand = view.hand or ()
    per_row = 8
    rows = max(1, -(-len(hand) // per_row))
    height = HEADER_H + 40 + rows * (HAND_CARD_H + 12) + 30
    image, draw = canvas(WIDTH, height, BACKGROUND)
    _header(draw, view, names)
    who = seat_name(names, view.viewer) if view.viewer is not None else "?"
    total = sum(c.points for c in hand)
    cards, points = plural(len(hand), "card"), plural(total, "point")
    title = f"{who}'s hand — {cards}, {points} if caught holding them"
    draw.text(
        (MARGIN, HEADER_H + 8),
        fit_text(title, WIDTH - 2 * MARGIN, 15),
        font=font(15, bold=True),
        fill=INK,
    )
    if not hand:
        draw.text((MARGIN, HEADER_H + 48), "No cards in hand.", font=font(15), fill=MUTED)
    pending_done = False
    for i, card in enumerate(hand):
        row, col = divmod(i, per_row)
        pending = not pending_done and view.pending is not None and card.code == view.pending.code
        pending_done = pending_done or pending
        x = MARGIN + col * (HAND_CARD_W + 9)
        y = HEADER_H + 36 + row * (HAND_CARD_H + 12)
        _hand_card(draw, x, y, card, playable=card.code in view.playable, pending=pending)
    if view.playable:
        draw.text((MARGIN, height - 24), "Black outline: playable now.", font=font(12), fill=MUTED)
    return image
