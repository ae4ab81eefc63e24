"""First in Flight pictures repainted where they changed are the very pictures a full draw gives."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.render import private_png, public_png, renderer_for, retained
from bot.render.common import speaking
from rules import GAMES
from rules.first_in_flight.view import GameView

GAME = "first-in-flight"
NAMES = ("Ann", "Bo", "Cy", "Di")


def pixels(data: bytes) -> bytes:
    """A PNG's pixels."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB").tobytes()


def full(draw: object, view: GameView, names: tuple[str, ...], language: str) -> bytes:
    """The same picture drawn from a blank canvas (a copy of the view: laid out anew)."""
    with speaking(language):
        return Image.Image.tobytes(draw(view.model_copy(), names=names))  # type: ignore[operator]


def states(seed: int, players: int, moves: int) -> Iterator[tuple[object, int | None]]:
    """A random game's states, each with the seat that made the move before it (None first)."""
    game = GAMES[GAME]
    state = game.new_game(seed, players, None)
    chooser = random.Random(seed)
    mover: int | None = None
    for _ in range(moves):
        yield state, mover
        active = game.active_players(state)
        if not active:
            return
        mover = active[0]
        state = game.apply(state, mover, chooser.choice(game.legal_actions(state, mover)).key).state


def check(state: object, names: tuple[str, ...], seats: list[int], language: str) -> None:
    """The board and `seats`' views of `state`, each repainted on a kept picture where one
    fits, equal the full draws."""
    game, renderer = GAMES[GAME], renderer_for(GAME)
    assert renderer is not None
    public = game.view(state, None)
    drawn = public_png(GAME, public, names, language=language)
    assert pixels(drawn) == full(renderer.board, public, names, language)
    for seat in seats:
        mine = game.view(state, seat)
        drawn = private_png(GAME, mine, names, language=language)
        assert pixels(drawn) == full(renderer.private, mine, names, language)


@pytest.mark.long
@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 4), (3, 1), (4, 3)])
def test_every_first_in_flight_picture_of_a_game_equals_its_full_draw(
    seed: int, players: int
) -> None:
    """Board and every seat's view after each of a random game's first 250 moves (solo against
    Gustave too: a whole game takes 300–600), each drawn on the kept picture it differs least
    from: pixel for pixel the full draw."""
    shelf = retained.forget()
    names = NAMES[:players]
    for state, _ in states(seed, players, 250):
        check(state, names, list(range(players)), "en")
    assert shelf.repainted > 20, "pictures are repainted, not only drawn in full"


@pytest.mark.long
def test_most_pictures_a_worker_draws_are_repainted() -> None:
    """As a render worker draws them (the board, then the mover's view), most pictures of a
    four-player game are repainted on a kept one; each equals its full draw."""
    shelf = retained.forget()
    for state, mover in states(6, 4, 300):
        check(state, NAMES, [] if mover is None else [mover], "en")
    assert shelf.repainted + shelf.reused > 1.5 * shelf.drawn


def test_a_picture_in_another_language_equals_its_full_draw() -> None:
    """The same in German: longer words move lines and the key, never a stale pixel."""
    shelf = retained.forget()
    for state, mover in states(5, 4, 200):
        check(state, NAMES, [] if mover is None else [mover], "de")
    assert shelf.repainted > shelf.drawn
