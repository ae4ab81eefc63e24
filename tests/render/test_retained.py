"""Pictures repainted where they changed are the very pictures a full draw gives."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render import private_png, public_png, renderer_for, retained
from bot.render.png import BAND_ROWS
from rules import GAMES

NAMES = ("Ann", "Bo")


def pixels(data: bytes) -> bytes:
    """A PNG's pixels."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB").tobytes()


def full(draw: object, view: object) -> bytes:
    """The same picture drawn from a blank canvas."""
    return Image.Image.tobytes(draw(view, names=NAMES))  # type: ignore[operator]


@pytest.mark.parametrize("seed", range(4))
def test_every_takeoff_picture_of_a_game_equals_its_full_draw(seed: int) -> None:
    """Board and both players' views after every move of a random game, each drawn on the kept
    picture it differs least from: pixel for pixel the full draw."""
    game, renderer = GAMES["takeoff"], renderer_for("takeoff")
    assert renderer is not None
    shelf = retained.forget()
    state = game.new_game(seed, 2, None)
    chooser = random.Random(seed)
    for _ in range(400):
        public = game.view(state, None)
        assert pixels(public_png("takeoff", public, NAMES)) == full(renderer.board, public)
        for seat in (0, 1):
            mine = game.view(state, seat)
            assert pixels(private_png("takeoff", mine, NAMES)) == full(renderer.private, mine)
        active = game.active_players(state)
        if not active:
            break
        state = game.apply(
            state, active[0], chooser.choice(game.legal_actions(state, active[0])).key
        ).state
    assert shelf.repainted > 3 * shelf.drawn, "most pictures are repainted, not drawn in full"


def test_a_picture_whose_parts_are_all_as_kept_is_the_kept_png() -> None:
    """A view that changed nothing the picture shows (the same state drawn again with the
    layout it had) is answered with the very bytes drawn before, nothing drawn or encoded."""
    game = GAMES["takeoff"]
    shelf = retained.forget()
    state = game.new_game(3, 2, None)
    first = game.view(state, 0)
    drawn = private_png("takeoff", first, NAMES)
    again = private_png("takeoff", first.model_copy(), NAMES)
    assert again == drawn
    assert (shelf.drawn, shelf.repainted, shelf.reused) == (1, 0, 1)


def test_kept_pictures_of_every_drawing_stay_within_the_budget() -> None:
    """Boards and views of two repainted games, played in turn: the pixels kept of all of them
    never exceed retained.BUDGET, and the pictures of the game just drawn are the ones kept."""
    shelf = retained.forget()
    games = {g: (GAMES[g], GAMES[g].new_game(2, 2, None)) for g in ("takeoff", "first-in-flight")}
    chooser = random.Random(2)
    for _ in range(12):
        for game_id, (game, state) in games.items():
            active = game.active_players(state)
            public_png(game_id, game.view(state, None), NAMES)
            private_png(game_id, game.view(state, active[0]), NAMES)
            kept = [k for pictures in shelf.kept.values() for k in pictures]
            assert sum(k.size for k in kept) <= retained.BUDGET
            assert len(kept) == len(shelf.order) and all(k in shelf.order for k in kept)
            assert (
                shelf.order[-1].image.size
                == Image.open(
                    io.BytesIO(private_png(game_id, game.view(state, active[0]), NAMES))
                ).size
            ), "the view just drawn is kept"
            action = chooser.choice(game.legal_actions(state, active[0]))
            games[game_id] = (game, game.apply(state, active[0], action.key).state)


def test_the_bands_a_repaint_touches_are_those_sharing_a_row_with_it() -> None:
    """A band is encoded again exactly when a repainted span shares a row with it, for random
    spans (some empty, some starting above the picture)."""
    chooser = random.Random(5)
    for _ in range(500):
        spans = []
        for _ in range(chooser.randrange(6)):
            top = chooser.randrange(-40, 400)
            spans.append((top, top + chooser.randrange(-3, 90)))
        rows = {row for top, bottom in spans for row in range(top, bottom)}
        expected = {
            band
            for band in range(20)
            if rows & set(range(band * BAND_ROWS, (band + 1) * BAND_ROWS))
        }
        assert retained._bands(spans) == expected
