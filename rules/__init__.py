"""Pure rules engines for Hangar's games; `GAMES` maps game id → engine."""

from __future__ import annotations

import importlib
import logging

from rules.core import Game, UnknownGameError

log = logging.getLogger(__name__)

# Game packages in menu order; each exposes `GAME`. A package not written yet is skipped.
_PACKAGES = ("rules.takeoff", "rules.flight", "rules.first_in_flight")


def _load_games() -> dict[str, Game]:
    """Import every game package that exists and index its engine by id."""
    games: dict[str, Game] = {}
    for name in _PACKAGES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        game: Game = module.GAME
        games[game.id] = game
    return games


GAMES: dict[str, Game] = _load_games()


def get_game(game_id: str) -> Game:
    """The engine registered under `game_id`; raises UnknownGameError otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES) or "none"
        raise UnknownGameError(f"Unknown game {game_id!r} (known: {known}).") from None


__all__ = ["GAMES", "Game", "get_game"]
