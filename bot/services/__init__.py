"""Game services: what the Discord layer calls to open, play and administer games."""

from bot.services.errors import (
    AlreadyJoinedError,
    AlreadyStartedError,
    ChannelBusyError,
    GameFullError,
    NoGameHereError,
    NotAllowedError,
    NotInGameError,
    NotStartedError,
    UndoRefusedError,
)
from bot.services.games import (
    STALE_MESSAGE,
    ActResult,
    GameService,
    LoadedGame,
    VerifyReport,
    turn_message,
)

__all__ = [
    "STALE_MESSAGE",
    "ActResult",
    "AlreadyJoinedError",
    "AlreadyStartedError",
    "ChannelBusyError",
    "GameFullError",
    "GameService",
    "LoadedGame",
    "NoGameHereError",
    "NotAllowedError",
    "NotInGameError",
    "NotStartedError",
    "UndoRefusedError",
    "VerifyReport",
    "turn_message",
]
