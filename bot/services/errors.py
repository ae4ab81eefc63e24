"""Service errors: PlayerErrors, so the bot's one handler shows their message to the player."""

from __future__ import annotations

from rules.core import PlayerError, messages
from rules.core.errors import said


class ServiceError(PlayerError):
    """A refusal of the bot's services (not of a game's rules); the message says why."""


class NoGameHereError(ServiceError):
    """The channel has no lobby or running game."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or messages.NO_GAME_HERE)


class ChannelBusyError(ServiceError):
    """The channel already has a lobby or running game."""


class NotInGameError(ServiceError):
    """The user has no seat in this game."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or messages.NOT_IN_GAME)


class AlreadyJoinedError(ServiceError):
    """The user already has a seat in this game."""


class GameFullError(ServiceError):
    """Every seat of the lobby is taken."""


class NotStartedError(ServiceError):
    """The game is still a lobby."""


class AlreadyStartedError(ServiceError):
    """The game has started; lobby-only operations are closed."""


class NotAllowedError(ServiceError):
    """Only the creator or an admin may do this."""


class UndoRefusedError(ServiceError):
    """The last action cannot be taken back; the message says why."""


class DamagedGameError(ServiceError):
    """A stored game cannot be read (bad JSON, wrong shape, unknown game, bad options)."""

    def __init__(self, game_pk: int, channel_id: int, what: str, reason: str) -> None:
        self.game_pk, self.channel_id, self.what, self.reason = game_pk, channel_id, what, reason
        super().__init__(
            said(
                "⚠️ The {what} game #{number} here is damaged ({reason}), so it cannot be "
                "played. An admin can download it with `/admin export` and end it with "
                "`/admin abandon`; then `/game new` works here again.",
                what=what,
                number=game_pk,
                reason=reason,
            )
        )
