"""Rules errors: every illegal input raises one of these, with a reason a player can read."""

from __future__ import annotations

from rules.core.words import Part, Said, joined, parts_of, said

__all__ = ["Part", "Said", "joined", "parts_of", "said"]  # refusals say sentences (words.py)


class PlayerError(Exception):
    """Base of every refusal a player may read: the message says what happened and what to do.

    Rules engines raise RulesErrors; the bot's services and its Discord edge raise their own
    subclasses. The bot shows any PlayerError's message as it is, and logs nothing for it.
    Raised with a `Said` message, it carries the message ids so the bot can show it in the
    player's language; `str(error)` is always the English.
    """

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        first = args[0] if args else ""
        self.parts: tuple[Part, ...] = parts_of(first) if isinstance(first, str) else ()


class RulesError(PlayerError):
    """Base of every error a rules engine raises for bad input; the message is player-readable."""


class UnknownGameError(RulesError):
    """No game is registered under that id."""


class IllegalActionError(RulesError):
    """The action is not legal in this state; the message says why."""


class NotYourTurnError(RulesError):
    """The seat that tried to act is not one of the seats that must act now."""


class StaleActionError(RulesError):
    """The action was built for an earlier state (a double or late click)."""


class GameOverError(RulesError):
    """The game has ended; nobody can act any more."""


class InvalidOptionsError(RulesError):
    """The game options or player count are not allowed."""
