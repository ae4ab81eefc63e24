"""Flight's action keys: the one place a key string is parsed or written (parse ↔ format).

Wire format (unchanged since version 1; stored games replay it): `draw:pack`, `draw:discard`,
`draw:pack3`, `draw:pack2+discard` (rule 9), `play:<card>`, `to:<route>`, `cancel`, `done`,
`discard:<card>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from rules.core import messages
from rules.core.keys import KeyCodec, join_key

DrawSource = Literal["pack", "discard", "pack3", "pack2+discard"]
DRAW_SOURCES: dict[str, DrawSource] = {source: source for source in get_args(DrawSource)}


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw at the start of a turn: one card, or three with an empty hand (rule 9)."""

    source: DrawSource


@dataclass(frozen=True, slots=True)
class Play:
    """Choose a card from the hand to lay."""

    card: str


@dataclass(frozen=True, slots=True)
class To:
    """Lay the chosen card on this route's flight."""

    route: str


@dataclass(frozen=True, slots=True)
class Cancel:
    """Drop the chosen card and choose another."""


@dataclass(frozen=True, slots=True)
class Done:
    """Stop playing and move on to the discard."""


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard this card (ends the turn)."""

    card: str


Key = Draw | Play | To | Cancel | Done | Discard


def _with_argument(verb: str, arg: str, context: str) -> Key:
    """A key with an argument; KeyError when the verb or argument is none of Flight's."""
    match verb:
        case "draw":
            return Draw(DRAW_SOURCES[arg])
        case "play":
            return Play(arg)
        case "to":
            return To(arg)
        case "discard":
            return Discard(arg)
    raise KeyError(verb)


CODEC: KeyCodec[Key] = KeyCodec(
    {"cancel": Cancel(), "done": Done()},
    _with_argument,
    lambda text: messages.NOT_A_MOVE,
)


def parse_key(text: str) -> Key:
    """The typed key for `text`; IllegalActionError when it is no Flight key at all."""
    return CODEC.parse(text)


def format_key(key: Key) -> str:
    """The wire text of a typed key (the inverse of parse_key)."""
    match key:
        case Draw(source):
            return join_key("draw", source)
        case Play(card):
            return join_key("play", card)
        case To(route):
            return join_key("to", route)
        case Discard(card):
            return join_key("discard", card)
        case Cancel() | Done():
            return CODEC.bare_word(key)
