"""The rules contract shared by all games (DESIGN.md §2)."""

from rules.core import messages
from rules.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidOptionsError,
    NotYourTurnError,
    PlayerError,
    RulesError,
    StaleActionError,
    UnknownGameError,
)
from rules.core.game import BaseGame, Game, GameContract
from rules.core.model import (
    Action,
    Ending,
    Event,
    Frozen,
    Outcome,
    Transition,
    fill_names,
    ranks_from_scores,
    seat_ref,
)
from rules.core.rng import Rng

__all__ = [
    "Action",
    "BaseGame",
    "Ending",
    "Event",
    "Frozen",
    "Game",
    "GameContract",
    "GameOverError",
    "IllegalActionError",
    "InvalidOptionsError",
    "NotYourTurnError",
    "Outcome",
    "PlayerError",
    "Rng",
    "RulesError",
    "StaleActionError",
    "Transition",
    "UnknownGameError",
    "fill_names",
    "messages",
    "ranks_from_scores",
    "seat_ref",
]
