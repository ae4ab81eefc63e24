"""Service errors: all RulesErrors, so the bot's one handler shows their message to the player."""

from __future__ import annotations

from rules.core import RulesError, messages


class NoGameHereError(RulesError):
    """The channel has no lobby or running game."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or messages.NO_GAME_HERE)


class ChannelBusyError(RulesError):
    """The channel already has a lobby or running game."""


class NotInGameError(RulesError):
    """The user has no seat in this game."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or messages.NOT_IN_GAME)


class AlreadyJoinedError(RulesError):
    """The user already has a seat in this game."""


class GameFullError(RulesError):
    """Every seat of the lobby is taken."""


class NotStartedError(RulesError):
    """The game is still a lobby."""


class AlreadyStartedError(RulesError):
    """The game has started; lobby-only operations are closed."""


class NotAllowedError(RulesError):
    """Only the creator or an admin may do this."""


class UndoRefusedError(RulesError):
    """The last action cannot be taken back; the message says why."""
