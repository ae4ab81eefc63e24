"""Takeoff!'s action keys: the one place a key string is parsed or written (parse ↔ format).

Wire format (unchanged since version 1; stored games replay it): main step `play:<card>`,
`ticket`, `change:<card>`, `end`, `decline`; targeting `seat:4A`, `pair:4CD`, `side:<row name>`,
`block:5AB`, `row:4` (narrow a long list), `back`, `cancel`; Pinch `take:<card>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from rules.core import IllegalActionError, messages
from rules.core.keys import KeyCodec, join_key
from rules.core.words import said

SpotKind = Literal["seat", "pair", "side", "block"]
SPOT_KINDS: dict[str, SpotKind] = {kind: kind for kind in get_args(SpotKind)}


@dataclass(frozen=True, slots=True)
class Play:
    """Play a seat or event card from the hand."""

    card: str


@dataclass(frozen=True, slots=True)
class Ticket:
    """Use a captain's ticket (played like a seat card of any type)."""


@dataclass(frozen=True, slots=True)
class Change:
    """Change a card instead of playing (ends the turn)."""

    card: str


@dataclass(frozen=True, slots=True)
class End:
    """End the turn (or finish a last turn)."""


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline a last turn (ends the game)."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A targeting choice: a seat, a pair, a single row side or a block of rows."""

    kind: SpotKind
    spot: str


@dataclass(frozen=True, slots=True)
class Row:
    """Narrow a long list of targets to one numbered row (`row` is the text after `row:`)."""

    row: str


@dataclass(frozen=True, slots=True)
class Back:
    """Leave the row narrowing."""


@dataclass(frozen=True, slots=True)
class Cancel:
    """Cancel the half-built play."""


@dataclass(frozen=True, slots=True)
class Take:
    """Pinch: take this card from the opponent's hand."""

    card: str


MainKey = Play | Ticket | Change | End | Decline
TargetKey = Spot | Row | Back | Cancel | Take
Key = MainKey | TargetKey

_BARE: dict[str, Key] = {
    "ticket": Ticket(),
    "end": End(),
    "decline": Decline(),
    "back": Back(),
    "cancel": Cancel(),
}


def _with_argument(verb: str, arg: str, context: str) -> Key:
    """A key with an argument; KeyError when the verb is none of Takeoff!'s."""
    match verb:
        case "play":
            return Play(arg)
        case "change":
            return Change(arg)
        case "take":
            return Take(arg)
        case "row":
            return Row(arg)
    return Spot(SPOT_KINDS[verb], arg)


CODEC: KeyCodec[Key] = KeyCodec(
    _BARE,
    _with_argument,
    lambda text: messages.NOT_A_MOVE,
)


def parse_key(text: str) -> Key:
    """The typed key for `text`; IllegalActionError when it is no Takeoff! key at all."""
    return CODEC.parse(text)


def format_key(key: Key) -> str:
    """The wire text of a typed key (the inverse of parse_key)."""
    match key:
        case Play(card):
            return join_key("play", card)
        case Change(card):
            return join_key("change", card)
        case Take(card):
            return join_key("take", card)
        case Row(row):
            return join_key("row", row)
        case Spot(kind, spot):
            return join_key(kind, spot)
        case Ticket() | End() | Decline() | Back() | Cancel():
            return CODEC.bare_word(key)


def spot_kind(text: str) -> SpotKind:
    """The kind of a targeting key (`seat:4A` → "seat"); keys come from targets.py."""
    key = parse_key(text)
    if not isinstance(key, Spot):
        raise IllegalActionError(said("{key} is not a seat choice.", key=repr(text)))
    return key.kind
