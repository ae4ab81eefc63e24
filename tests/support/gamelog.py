"""A finished game as a GameLog (record, seats, final state, moves) from seeded random play."""

from __future__ import annotations

import random
from typing import Any

import rules
from bot.services.games import LoadedGame
from bot.services.timeline import GameLog
from bot.store import ActionRecord, GameRecord, SeatRecord


def played(game_id: str, players: int, seed: int, options: dict[str, Any] | None = None) -> GameLog:
    """Random legal play to the end, kept as the log a replay would load from the database."""
    game = rules.get_game(game_id)
    opts = game.Options.model_validate(options or {}).model_dump(mode="json")
    state = game.new_game(seed, players, game.Options.model_validate(opts))
    rng, actions = random.Random(seed), []
    while active := game.active_players(state):
        action = rng.choice(game.legal_actions(state, active[0]))
        actions.append(ActionRecord(len(actions) + 1, active[0], {"key": action.key}, 1, 0.0))
        state = game.apply(state, active[0], action).state
    record = GameRecord(1, 1, 1, game_id, opts, seed, "finished", len(actions), 1, None, None, 0, 0)
    seats = tuple(SeatRecord(n, n + 1, f"Player {n + 1}") for n in range(players))
    return GameLog(LoadedGame(record, seats, state, game), tuple(actions))
