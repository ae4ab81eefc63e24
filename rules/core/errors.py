"""Rules errors: every illegal input raises one of these, with a reason a player can read."""

from __future__ import annotations


class PlayerError(Exception):
    """Base of every refusal a player may read: the message says what happened and what to do.

    Rules engines raise RulesErrors; the bot's services and its Discord edge raise their own
    subclasses. The bot shows any PlayerError's message as it is, and logs nothing for it.
    """


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
