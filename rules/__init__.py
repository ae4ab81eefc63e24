"""Pure rules engines for Hangar's games; `GAMES` maps game id → engine."""

from __future__ import annotations

from rules.core import Game, UnknownGameError
from rules.core.words import said
from rules.first_in_flight import GAME as FIRST_IN_FLIGHT
from rules.flight import GAME as FLIGHT
from rules.takeoff import GAME as TAKEOFF

# Every engine, in menu order. A new game is one line here (and its renderer in bot/render).
ENGINES: tuple[Game, ...] = (TAKEOFF, FLIGHT, FIRST_IN_FLIGHT)

GAMES: dict[str, Game] = {game.id: game for game in ENGINES}


def get_game(game_id: str) -> Game:
    """The engine registered under `game_id`; raises UnknownGameError otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES) or "none"
        error = said("Unknown game {game} (known: {known}).", game=repr(game_id), known=known)
        raise UnknownGameError(error) from None


__all__ = ["ENGINES", "GAMES", "Game", "get_game"]
