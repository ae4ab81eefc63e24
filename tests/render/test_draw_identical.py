"""Cached tiles give the very pixels drawing in place gives: every game, board and private views."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from bot.render import first_in_flight, flight, takeoff, tiles
from bot.render.common import BACKGROUND, canvas
from rules import GAMES

NAMES = ["Alice", "Chandrasekhar the Magnificent", "Dee", "", "Eve"]
Draw = Callable[..., Image.Image]
DRAWS: dict[str, tuple[Draw, ...]] = {
    "takeoff": (takeoff.render_board, takeoff.render_private),
    "flight": (flight.render_board, flight.render_private),
    "first-in-flight": (
        first_in_flight.render_board,
        first_in_flight.render_private,
        first_in_flight.render_table,
    ),
}
GAME_PLAYERS = [("takeoff", 2), ("flight", 2), ("flight", 5), ("first-in-flight", 1)]
GAME_PLAYERS += [("first-in-flight", 3)]


def _states(game_id: str, players: int, seed: int, every: int, limit: int) -> Iterator[Any]:
    """Every `every`-th state of a seeded random game (and its last one), at most `limit`."""
    game = GAMES[game_id]
    state = game.new_game(seed, players, None)
    rng = random.Random(seed)
    for step in range(every * limit):
        active = game.active_players(state)
        if step % every == 0 or not active:
            yield state
        if not active:
            return
        action = rng.choice(game.legal_actions(state, active[0]))
        state = game.apply(state, active[0], action.key).state


def _pictures(game_id: str, players: int, state: Any) -> list[bytes]:
    """Raw pixels of the board, every seat's private view and (First in Flight) the table."""
    game = GAMES[game_id]
    board, private, *table = DRAWS[game_id]
    names = NAMES[:players]
    public = game.view(state, None)
    seats = range(players)
    out = [board(public, names=names).tobytes()]
    out += [private(game.view(state, seat), names=names).tobytes() for seat in seats]
    out += [draw(public, names=names).tobytes() for draw in table]
    return out


@pytest.mark.parametrize(("game_id", "players"), GAME_PLAYERS)
def test_tiles_give_the_pixels_of_drawing_in_place(game_id: str, players: int) -> None:
    """A game drawn move by move from the tile cache (cold, then warm, tiles carried over from
    earlier moves) equals the same game drawn with every tile painted in place."""
    states = list(_states(game_id, players, seed=players, every=7, limit=25))
    with tiles.drawn_in_place():
        reference = [_pictures(game_id, players, s) for s in states]
    tiles.CACHE.clear()
    for state, expected in zip(states, reference, strict=True):
        # first the tiles of this move are painted (or come from earlier moves), then all hit
        assert _pictures(game_id, players, state) == expected
        assert _pictures(game_id, players, state) == expected
    assert len(tiles.CACHE) > 0


def test_a_tile_is_reused_only_over_the_same_pixels() -> None:
    """The same painter stamped over a different colour is painted anew, not pasted."""

    def dot(image: Image.Image, x: int, y: int, colour: str) -> None:
        image.paste(colour, (x + 2, y + 2, x + 6, y + 6))

    tiles.CACHE.clear()
    image, _ = canvas(20, 10)
    tiles.stamp(image, (0, 0), (8, 8), BACKGROUND, dot, "#ff0000")
    tiles.stamp(image, (10, 0), (8, 8), BACKGROUND, dot, "#ff0000")
    assert len(tiles.CACHE) == 1
    assert image.getpixel((12, 2)) == (255, 0, 0)
    assert image.getpixel((10, 0)) == image.getpixel((0, 0))
    green, _ = canvas(8, 8, "#00ff00")
    tiles.stamp(green, (0, 0), (8, 8), "#00ff00", dot, "#ff0000")
    assert green.getpixel((0, 0)) == (0, 255, 0)
    assert len(tiles.CACHE) == 2


def test_a_tile_past_the_edge_is_drawn_in_place_and_not_kept() -> None:
    """A crop past the picture's edge would keep padding as pixels: such a stamp is not cached."""

    def bar(image: Image.Image, x: int, y: int) -> None:
        image.paste("#000000", (x, y, x + 4, y + 1))

    tiles.CACHE.clear()
    image, _ = canvas(10, 10)
    tiles.stamp(image, (6, 6), (8, 8), BACKGROUND, bar)
    assert len(tiles.CACHE) == 0
    assert image.getpixel((9, 6)) == (0, 0, 0)


def test_the_cache_keeps_within_its_byte_budget() -> None:
    """Workers are long-lived: the oldest tiles go once the budget is spent."""

    def key(i: int) -> tiles.Key:
        return (print, (10, 10), i, ())

    cache = tiles.TileCache(budget=3 * 10 * 10 * 4)
    for i in range(5):
        cache.put(key(i), Image.new("RGB", (10, 10)))
    assert len(cache) == 3
    assert cache.used <= cache.budget
    assert cache.get(key(0)) is None
    assert cache.get(key(4)) is not None
