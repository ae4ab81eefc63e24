"""The shape every game's key codec shares: a bare word (`end`) or a verb with an argument
(`play:4A`), parsed into the game's typed keys and written back (like python-chess's UCI).

Each game keeps its own typed keys and wire format in `rules/<game>/keys.py`; this module is
the one place a key string is split or joined, so no other code slices one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from rules.core.errors import IllegalActionError

K = TypeVar("K")
# Parses the argument of a verb (given the codec's context, e.g. First in Flight's step kind):
# a typed key, or KeyError/ValueError when the verb or argument is not one of the game's.
VerbParser = Callable[[str, str, str], K]


def split_key(text: str) -> tuple[str, str | None]:
    """('play', '4A') for 'play:4A'; ('end', None) for the bare word 'end'."""
    verb, colon, arg = text.partition(":")
    return (verb, arg) if colon else (text, None)


def join_key(verb: str, arg: object = None) -> str:
    """The wire text of a verb and its argument (the inverse of `split_key`)."""
    return verb if arg is None else f"{verb}:{arg}"


class KeyCodec(Generic[K]):
    """Bare words, verbs with an argument, and the refusal for any other text."""

    def __init__(
        self, bare: Mapping[str, K], verbs: VerbParser[K], refusal: Callable[[str], str]
    ) -> None:
        self.bare = bare
        self.verbs = verbs
        self.refusal = refusal  # the player-readable reason, given the text

    def parse(self, text: str, context: str = "") -> K:
        """The typed key for `text`; IllegalActionError when it is none of the game's."""
        if text in self.bare:
            return self.bare[text]
        verb, arg = split_key(text)
        if arg is not None:
            try:
                return self.verbs(verb, arg, context)
            except (KeyError, ValueError):
                pass
        raise IllegalActionError(self.refusal(text))

    def bare_word(self, key: K) -> str:
        """The wire text of a key that takes no argument."""
        return next(text for text, bare in self.bare.items() if bare == key)
