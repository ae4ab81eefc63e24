"""Render cost: drawing a final board vs PNG-encoding the same image, and the image size."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bot.render import renderer_for
from bot.render.common import to_png
from rules import GAMES, Game

REPEATS = 15


def final_state(game: Game, players: int, seed: int = 1) -> Any:
    """A finished game reached by seeded random legal play."""
    state = game.new_game(seed, players, None)
    chooser = random.Random(seed)
    while active := game.active_players(state):
        action = chooser.choice(game.legal_actions(state, active[0]))
        state = game.apply(state, active[0], action).state
    return state


def median_seconds(work: Any, repeats: int = REPEATS) -> float:
    """Median wall time of `work()` over `repeats` runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_game(game: Game) -> str:
    """One line of figures for a game with a renderer."""
    renderer = renderer_for(game.id)
    if renderer is None:
        return f"  {game.id}: no renderer"
    players = max(game.min_players, 2) if game.max_players >= 2 else game.min_players
    view = game.view(final_state(game, players), None)
    names = [f"Player {i + 1}" for i in range(players)]
    image = renderer.board(view, names=names)
    render = median_seconds(lambda: renderer.board(view, names=names))
    encode = median_seconds(lambda: to_png(image))
    size = len(to_png(image))
    return (
        f"  {game.id}: render {render * 1000:.1f} ms, PNG encode {encode * 1000:.1f} ms, "
        f"render/encode = {render / encode:.2f}, PNG {size / 1024:.0f} KiB "
        f"({image.width}x{image.height})"
    )


def main() -> None:
    """Print render ÷ encode and the PNG size for every game that has a renderer."""
    print(f"render bench (median of {REPEATS}, final board, public view)")
    for game in GAMES.values():
        print(bench_game(game))


if __name__ == "__main__":
    main()
