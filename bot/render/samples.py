"""Seeded game states reached by random legal play: for render tests, the bench and eyeballing."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules import GAMES

Stop = Callable[[Any], bool]


def play_until(game_id: str, players: int, seed: int, stop: Stop, limit: int = 4000) -> Any:
    """The first state of a seeded random game for which `stop(state)` holds (or the last one)."""
    game = GAMES[game_id]
    state = game.new_game(seed, players, None)
    chooser = random.Random(seed)
    for _ in range(limit):
        if stop(state):
            return state
        active = game.active_players(state)
        if not active:
            break
        actions = game.legal_actions(state, active[0])
        state = game.apply(state, active[0], chooser.choice(actions).key).state
    return state


def after_moves(game_id: str, players: int, moves: int, seed: int = 1) -> Any:
    """The state after `moves` random legal moves (or the final state, if it ends sooner)."""
    count = [0]

    def stop(_state: Any) -> bool:
        count[0] += 1
        return count[0] > moves

    return play_until(game_id, players, seed, stop)


def final(game_id: str, players: int, seed: int = 1) -> Any:
    """A finished game."""
    return play_until(game_id, players, seed, lambda _s: False, limit=100_000)
