"""The phone rule for every picture, and seat colours that survive colour blindness.

Rule (bot/render/common.py): shown 400 px wide, as a phone shows an image, the smallest text's
rendered glyph height ("Hg", cap top to descender) is at least 9 px, and the turn picture is at
most 1.8 times as tall as it is wide (it fits a portrait phone screen without scrolling).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import pytest
from PIL import Image, ImageColor
from pydantic import BaseModel

from bot.render import first_in_flight, renderer_for
from bot.render.common import (
    PHONE_ASPECT,
    PHONE_GLYPH_PX,
    PHONE_WIDTH,
    SEAT_COLOURS,
    glyph_height,
    trace_fonts,
)
from bot.render.fif_board import GUSTAVE_COLOUR
from bot.render.samples import after_moves, final, play_until
from rules import GAMES
from tests.render.test_first_in_flight import texts_drawn

NAMES = ["Alice", "Bob", "Chandrasekhar the Magnificent", "Dee"]


def _takeoff_pending(state: Any) -> bool:
    """A card is being placed (the private picture frames its seats)."""
    return state.pending is not None and not state.over


def _takeoff_pinch() -> Any:
    """Full hands during Pinch: the private picture shows both hands."""
    from tests.rules.takeoff.helpers import Y, play, rig

    hands = (
        ("pinch", "window", "drunk", "aisle", "stretcher"),
        ("aisle", "stretcher", "middle", "window", "drunk"),
    )
    state, _ = play(rig(hands=hands), Y, "play:pinch")
    return state


def _fif_flying(state: Any) -> bool:
    """A Flight with a few cards in its row."""
    return state.flight is not None and len(state.flight.row) >= 4


SAMPLES: dict[str, list[tuple[str, Callable[[], Any]]]] = {
    "takeoff": [
        ("start", lambda: after_moves("takeoff", 2, 0)),
        ("placing", lambda: play_until("takeoff", 2, 5, _takeoff_pending)),
        ("pinch", _takeoff_pinch),
        ("middle", lambda: after_moves("takeoff", 2, 40)),
        ("final", lambda: final("takeoff", 2)),
    ],
    "flight": [
        ("start", lambda: after_moves("flight", 4, 0)),
        ("middle", lambda: after_moves("flight", 4, 60, seed=2)),
        ("final-2p", lambda: final("flight", 2)),
        ("final-4p", lambda: final("flight", 4)),
    ],
    "first-in-flight": [
        ("start-4p", lambda: after_moves("first-in-flight", 4, 10)),
        ("flying-4p", lambda: play_until("first-in-flight", 4, 3, _fif_flying)),
        ("late-4p", lambda: after_moves("first-in-flight", 4, 400)),
        ("final-4p", lambda: final("first-in-flight", 4)),
        ("final-1p", lambda: final("first-in-flight", 1)),
    ],
}
# Games whose "Whole table" is paged: every page is a picture the bot posts.
TABLE_PAGES: dict[str, Callable[..., list[Image.Image]]] = {
    "first-in-flight": first_in_flight.render_table_pages,
}
CASES = [(game, moment, make) for game, moments in SAMPLES.items() for moment, make in moments]


def _pictures(game_id: str, state: Any) -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    """Every picture the bot posts for a state: the board, the live picture, each seat's view."""
    game = GAMES[game_id]
    renderer = renderer_for(game_id)
    assert renderer is not None
    names = NAMES[: state.players] if hasattr(state, "players") else NAMES[:2]
    public = game.view(state, None)

    def draw(fn: Callable[..., Image.Image], view: BaseModel) -> Callable[[], Image.Image]:
        return lambda: fn(view, names=names)

    yield "board", draw(renderer.board, public)
    if renderer.live is not None:
        yield "live", draw(renderer.live, public)
    pages = TABLE_PAGES.get(game_id)
    if pages is not None:  # the "Whole table" button sends every page
        for i in range(len(pages(public, names=names))):  # each page drawn under the tracer
            yield f"whole table page {i + 1}", lambda i=i: pages(public, names=names)[i]
    elif renderer.table is not None:
        yield "whole table", draw(renderer.table, public)
    for seat in range(len(names)):
        yield f"seat {seat}", draw(renderer.private, game.view(state, seat))


@pytest.mark.parametrize(
    ("game_id", "moment", "make"), CASES, ids=[f"{g}-{m}" for g, m, _ in CASES]
)
def test_every_picture_reads_on_a_phone(game_id: str, moment: str, make: Callable[[], Any]) -> None:
    """At 400 px wide no text is under 9 px tall, and every picture fits a phone screen."""
    state = make()
    for label, draw in _pictures(game_id, state):
        _assert_phone_sized(label, draw)


def _assert_phone_sized(label: str, draw: Callable[[], Image.Image]) -> None:
    """The picture `draw` makes passes the phone rule: no text under 9 px at 400 px wide, and
    at most 1.8 times as tall as it is wide."""
    with trace_fonts() as sizes:
        image = draw()
    assert sizes, f"{label}: no text drawn"
    scale = PHONE_WIDTH / image.width
    smallest = min(glyph_height(size, bold=bold) for size, bold in sizes) * scale
    assert smallest >= PHONE_GLYPH_PX, f"{label}: text {smallest:.1f} px tall at 400 px"
    assert image.height <= PHONE_ASPECT * image.width, f"{label}: {image.size} too tall"


# ---------------------------------------------------------------- long First in Flight Flights

FIF = GAMES["first-in-flight"]


def _keen_pilot(state: Any, seat: int, chooser: random.Random) -> str:
    """A player who keeps flying: draws while allowed and uses abilities mid-Flight (long
    Flight rows come from here); any legal move otherwise."""
    actions = FIF.legal_actions(state, seat)
    keys = [a.key for a in actions]
    if state.flight is not None:
        if "draw" in keys:
            return "draw"
        uses = [k for k in keys if k.startswith("use:")]
        if uses and chooser.random() < 0.8:
            return chooser.choice(uses)
    return str(chooser.choice(keys))


def _fif_states(players: int, seed: int, *, keen: bool = True) -> Iterator[Any]:
    """Every state of one seeded First in Flight game, keen or uniformly random players."""
    state = FIF.new_game(seed, players, None)
    chooser = random.Random(seed)
    for _ in range(4000):
        yield state
        active = FIF.active_players(state)
        if not active:
            return
        if keen:
            key = _keen_pilot(state, active[0], chooser)
        else:
            key = chooser.choice(FIF.legal_actions(state, active[0])).key
        state = FIF.apply(state, active[0], key).state


def _long_flight(players: int, seed: int, cards: int) -> Any:
    """The first state of a seeded game whose Flight row holds at least `cards` cards."""
    for state in _fif_states(players, seed):
        if state.flight is not None and len(state.flight.row) >= cards:
            return state
    raise AssertionError(f"no {cards}-card Flight in game {seed} ({players} players)")


def _stretched(players: int, seed: int, cards: int = 30, owned: int = 6) -> Any:
    """A rigged worst case: a real 15-card Flight grown to `cards` cards by more Glides, its
    flyer owning `owned` more Development cards and everyone's deck fuller."""
    from rules.first_in_flight.state import Owned, RowCard

    state = _long_flight(players, seed, 15)
    flight = state.flight
    row = flight.row + (RowCard(card="glide"),) * (cards - len(flight.row))
    extra = tuple(Owned(card=c) for deck in state.dev_decks for c in deck)[:owned]
    flyer = state.seats[flight.seat]
    seats = list(state.seats)
    seats[flight.seat] = flyer.model_copy(update={"cards": flyer.cards + extra})
    return state.model_copy(
        update={"flight": flight.model_copy(update={"row": row}), "seats": tuple(seats)}
    )


# Seeds whose keen games reach the row length (found by searching seeds 1–3000).
LONG_FLIGHTS: list[tuple[str, Callable[[], Any]]] = [
    ("solo-15-cards", lambda: _long_flight(1, 753, 15)),
    ("2p-19-cards", lambda: _long_flight(2, 40, 19)),
    ("4p-15-cards", lambda: _long_flight(4, 14, 15)),
    ("4p-15-cards-seed-20", lambda: _long_flight(4, 20, 15)),
    ("solo-rigged-30-cards", lambda: _stretched(1, 58)),
    ("2p-rigged-30-cards", lambda: _stretched(2, 40)),
    ("4p-rigged-30-cards", lambda: _stretched(4, 14)),
]


@pytest.mark.parametrize(("moment", "make"), LONG_FLIGHTS, ids=[m for m, _ in LONG_FLIGHTS])
def test_long_flights_fit_a_phone(moment: str, make: Callable[[], Any]) -> None:
    """With 15 or more cards in the Flight row, the board, the flyer's private picture and
    another player's stay phone-sized with text at full size."""
    state = make()
    assert len(state.flight.row) >= 15
    names = NAMES[: state.players]
    flyer = state.flight.seat
    seats = {flyer, (flyer + 1) % state.players}
    _assert_phone_sized(
        "board", lambda: first_in_flight.render_board(FIF.view(state, None), names=names)
    )
    for seat in sorted(seats):
        view = FIF.view(state, seat)
        _assert_phone_sized(
            f"seat {seat}", lambda v=view: first_in_flight.render_private(v, names=names)
        )


def test_a_long_flight_keeps_its_latest_cards_and_counts_the_rest() -> None:
    """When even shorter tiles cannot hold a 30-card row, the board shows the latest cards and
    one tile telling how many earlier cards there were, with their Distance."""
    from bot.render import fif_phone

    state = _stretched(4, 14)
    view = FIF.view(state, None)
    with texts_drawn() as texts:
        first_in_flight.render_board(view, names=NAMES)
    folded = [t for t in texts if "earlier cards" in t]
    assert folded, "the board says how many earlier cards it folded"
    assert len(state.flight.row) > fif_phone.PER_ROW * 3


# (players, seed, keen): keen players make long Flights; random ones reach everything else.
RANDOM_GAMES = [
    (1, 3, True),
    (2, 5, True),
    (3, 7, True),
    (4, 11, True),
    (2, 13, False),
    (4, 17, False),
]
POSITIONS_PER_GAME = 50  # 300 positions in all


def _positions(players: int, seed: int, keen: bool) -> list[Any]:
    """50 positions from games seeded from `seed` on: in each, the Flights of 8+ cards (longest
    first), then every 9th state."""
    found: list[Any] = []
    while len(found) < POSITIONS_PER_GAME:
        states = list(_fif_states(players, seed, keen=keen))
        flying = [s for s in states if s.flight is not None and len(s.flight.row) >= 8]
        found += sorted(flying, key=lambda s: -len(s.flight.row))[:10] + states[::9]
        seed += 1000
    return found[:POSITIONS_PER_GAME]


@pytest.mark.parametrize(("players", "seed", "keen"), RANDOM_GAMES)
def test_every_first_in_flight_position_fits_a_phone(players: int, seed: int, keen: bool) -> None:
    """Property: in positions from whole games (long Flights among them), the board and every
    seat's private picture pass the phone rule."""
    names = NAMES[:players]
    positions = _positions(players, seed, keen)
    assert len(positions) == POSITIONS_PER_GAME
    for n, state in enumerate(positions):
        board = FIF.view(state, None)
        label = f"position {n} board"
        _assert_phone_sized(label, lambda b=board: first_in_flight.render_board(b, names=names))
        for seat in range(players):
            view = FIF.view(state, seat)
            label = f"position {n} seat {seat}"
            _assert_phone_sized(
                label, lambda v=view: first_in_flight.render_private(v, names=names)
            )


def test_the_rule_measures_rendered_ink() -> None:
    """The glyph height is measured from rendered pixels, and grows with the font size."""
    from bot.render.common import canvas, font

    image, draw = canvas(100, 60, "#ffffff")
    draw.text((10, 10), "Hg", font=font(20), fill="#000000")
    top, bottom = _ink_rows(image)
    assert abs((bottom - top) - glyph_height(20)) <= 1
    assert glyph_height(15) < glyph_height(16) < glyph_height(20)


def _ink_rows(image: Image.Image) -> tuple[int, int]:
    """First and last row with dark pixels."""
    box = image.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()
    assert box is not None
    return box[1], box[3]


# ---------------------------------------------------------------- colour blindness

# Machado, Oliveira & Fernandes (2009) simulation matrices at full severity, on linear RGB.
SIMULATIONS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
# CIE76 ΔE: ~2.3 is just noticeable; 15 is plainly different at a glance, stone against stone.
MIN_DELTA_E = 15.0
Matrix = tuple[tuple[float, float, float], ...]


def _linear(channel: int) -> float:
    """sRGB channel (0–255) to linear light."""
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(colour: str, matrix: Matrix | None) -> tuple[float, float, float]:
    """CIELAB of a colour as seen with the simulated deficiency (None = typical vision)."""
    rgb = [_linear(c) for c in ImageColor.getrgb(colour)[:3]]
    if matrix is not None:
        rgb = [
            min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
        ]
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def _delta_e(a: str, b: str, matrix: Matrix | None) -> float:
    """CIE76 colour difference of two colours under a simulation."""
    la, lb = _lab(a, matrix), _lab(b, matrix)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)


@pytest.mark.parametrize("vision", [None, *SIMULATIONS])
def test_seat_colours_stay_apart_for_colour_blind_players(vision: str | None) -> None:
    """Every pair of seat colours (and Gustave's grey against First in Flight's four seats)
    differs by at least ΔE 15 under protanopia, deuteranopia and tritanopia."""
    matrix = SIMULATIONS[vision] if vision else None
    pairs = [*combinations(SEAT_COLOURS, 2), *((GUSTAVE_COLOUR, c) for c in SEAT_COLOURS[:4])]
    worst = min(pairs, key=lambda p: _delta_e(*p, matrix))
    assert _delta_e(*worst, matrix) >= MIN_DELTA_E, f"{vision}: {worst} too close"


def test_the_simulation_tells_a_classic_confusion_apart_from_a_safe_pair() -> None:
    """Sanity check: red/green collapses under deuteranopia, blue/orange does not."""
    deut = SIMULATIONS["deuteranopia"]
    assert _delta_e("#d62728", "#2ca02c", None) > 40
    assert _delta_e("#c8553d", "#6b8e23", deut) < MIN_DELTA_E
    assert _delta_e("#0072b2", "#e69f00", deut) > 40
