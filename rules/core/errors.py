"""Rules errors: every illegal input raises one of these, with a reason a player can read."""

from __future__ import annotations

from collections.abc import Mapping

# One part of a refusal: the English sentence with named `{placeholders}` (its message id in the
# catalogue) and the values for them.
Part = tuple[str, Mapping[str, object]]


class Said(str):
    """An English sentence that remembers its message ids and arguments, to be translated later.

    It is a plain `str` to everything that does not ask (logs, tests, f-strings), so rules stay
    pure: they say which sentence and with what values; the bot's edge picks the language.
    """

    parts: tuple[Part, ...]

    def __new__(cls, text: str, parts: tuple[Part, ...] = ()) -> Said:
        """The English `text`, made of `parts` (no parts: the text is its own message id)."""
        made = super().__new__(cls, text)
        made.parts = parts or ((str(text), {}),)
        return made


def said(template: str, **args: object) -> Said:
    """A sentence to translate: `said("Not your turn — it is {who}'s turn.", who=name)`.

    `python -m bot.i18n extract` collects every `said("…")` literal into the catalogue.
    """
    text = template.format_map(args) if args else template
    return Said(text, ((template, dict(args)),))


def parts_of(text: str) -> tuple[Part, ...]:
    """The parts of a sentence: a Said's own, or plain text as one part (its own message id)."""
    return text.parts if isinstance(text, Said) else ((str(text), {}),)


def joined(*texts: str) -> Said:
    """Sentences said one after another (each translated on its own), separated by a space."""
    kept = [t for t in texts if t.strip()]
    return Said(
        " ".join(str(t).strip() for t in kept),
        tuple(p for t in kept for p in parts_of(t if isinstance(t, Said) else t.strip())),
    )


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
