"""First in Flight's step kinds and action keys: the one place a key string is parsed or written.

Wire format (unchanged since version 1; stored games replay it), by step kind:
draft `pilot:<pilot>`; turn `recover`, `move:<space>`, `start`, `menu:other`; space `use:<space>`;
option `opt:<i>`; any_target `copy:<space>`; copy_option `copt:<i>`; repair_slot `slot:0`,
`slot:1`, `slot:0+1`; pay `pay:m<money>t<time>x<x>[:<reducer>]`; dev `take:<card>`, `top`;
abilities `use:<source>`; copy `copy:<card>`; ignore `ignore:<card>`; refresh `refresh:<card>`;
look `top:<card>`, `bottom:<card>`, `fly:<card>`, `done`; pick `pick:<card>`; flight `draw`,
`descend`, `exhaust:<skill>`, `menu:skill`, `menu:other`; cleanup `garage:<flaw>`, `done`;
`cancel` (Back) in the choice chain and menus. `use:` and `copy:` mean a space number in the
space / any_target steps and a card elsewhere, so parsing takes the step kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from rules.core import IllegalActionError, messages
from rules.core.keys import KeyCodec, join_key
from rules.core.words import said

StepKind = Literal[
    "draft",
    "turn",
    "space",
    "option",
    "any_target",
    "copy_option",
    "repair_slot",
    "pay",
    "dev",
    "abilities",
    "copy",
    "ignore",
    "refresh",
    "look",
    "pick",
    "flight",
    "cleanup",
]
STEP_KINDS: tuple[StepKind, ...] = get_args(StepKind)

MenuKind = Literal["skill", "other"]
Arrange = Literal["top", "bottom", "fly"]  # where a looked-at card goes


@dataclass(frozen=True, slots=True)
class ChoosePilot:
    """Draft: take this Pilot."""

    pilot: str


@dataclass(frozen=True, slots=True)
class Recover:
    """Turn: a crashed pawn pays 2 Time and stands up."""


@dataclass(frozen=True, slots=True)
class Move:
    """Turn: move the pawn to this Action Space."""

    space: int


@dataclass(frozen=True, slots=True)
class StartArea:
    """Turn: go to the start area."""


@dataclass(frozen=True, slots=True)
class OpenMenu:
    """Open an ability menu: Skills (in a Flight) or Friends and the Pilot."""

    menu: MenuKind


@dataclass(frozen=True, slots=True)
class Back:
    """Leave the choice chain or a menu (`cancel`)."""


@dataclass(frozen=True, slots=True)
class UseSpace:
    """Todd / Fame: take the action of this space without moving."""

    space: int


@dataclass(frozen=True, slots=True)
class ChooseOption:
    """One option of the space (or, `copied`, of the space an Any Action copies)."""

    index: int
    copied: bool = False


@dataclass(frozen=True, slots=True)
class CopySpace:
    """Any Action: copy this space."""

    space: int


@dataclass(frozen=True, slots=True)
class RepairSlots:
    """Repair these Garage slots (0 = left, 1 = right)."""

    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pay:
    """Pay Money and Time (buying Upgrade X), maybe reduced by a card."""

    money: int
    time: int
    x: int = 0
    reducer: str = ""


@dataclass(frozen=True, slots=True)
class TakeDev:
    """Development: take this face-up card."""

    card: str


@dataclass(frozen=True, slots=True)
class DeckTop:
    """Development: take the top of the deck."""


@dataclass(frozen=True, slots=True)
class UseAbility:
    """Use the ability of this source (a card, `pilot`, or Peltier's copy)."""

    source: str


@dataclass(frozen=True, slots=True)
class CopyCard:
    """Peltier: copy this card's ability."""

    card: str


@dataclass(frozen=True, slots=True)
class Ignore:
    """Stop a revealed card's Problem icon from counting."""

    card: str


@dataclass(frozen=True, slots=True)
class Refresh:
    """Refresh this exhausted Skill."""

    card: str


@dataclass(frozen=True, slots=True)
class Place:
    """A looked-at card goes on top, to the bottom, or into the Flight."""

    where: Arrange
    card: str


@dataclass(frozen=True, slots=True)
class Done:
    """Finish looking (keep the rest on top) or finish the Garage cleanup."""


@dataclass(frozen=True, slots=True)
class PickCard:
    """Gain this looked-at card."""

    card: str


@dataclass(frozen=True, slots=True)
class Draw:
    """Flight: draw a card."""


@dataclass(frozen=True, slots=True)
class Descend:
    """Flight: Descend."""


@dataclass(frozen=True, slots=True)
class Exhaust:
    """Pitch Instability: exhaust this Skill."""

    card: str


@dataclass(frozen=True, slots=True)
class Garage:
    """Cleanup: put this revealed Design Flaw in the Garage."""

    card: str


Key = (
    ChoosePilot
    | Recover
    | Move
    | StartArea
    | OpenMenu
    | Back
    | UseSpace
    | ChooseOption
    | CopySpace
    | RepairSlots
    | Pay
    | TakeDev
    | DeckTop
    | UseAbility
    | CopyCard
    | Ignore
    | Refresh
    | Place
    | Done
    | PickCard
    | Draw
    | Descend
    | Exhaust
    | Garage
)

_BARE: dict[str, Key] = {
    "recover": Recover(),
    "start": StartArea(),
    "cancel": Back(),
    "top": DeckTop(),
    "done": Done(),
    "draw": Draw(),
    "descend": Descend(),
}
_MENUS: dict[str, MenuKind] = {menu: menu for menu in get_args(MenuKind)}
_ARRANGE: dict[str, Arrange] = {where: where for where in get_args(Arrange)}
_PAY = re.compile(r"^m(\d+)t(\d+)x(\d+)(?::(.+))?$")
_SLOTS = {"0": (0,), "1": (1,), "0+1": (0, 1)}
CardKey = ChoosePilot | TakeDev | Ignore | Refresh | PickCard | Exhaust | Garage
_CARD_VERBS: dict[str, type[CardKey]] = {
    "pilot": ChoosePilot,
    "take": TakeDev,
    "ignore": Ignore,
    "refresh": Refresh,
    "pick": PickCard,
    "exhaust": Exhaust,
    "garage": Garage,
}


def _number(arg: str) -> int:
    """A small non-negative number (a space or option index)."""
    if not arg.isdigit():
        raise ValueError(arg)
    return int(arg)


def _with_argument(verb: str, arg: str, kind: str) -> Key:
    """A key with an argument; ValueError/KeyError when it is malformed."""
    if verb in _CARD_VERBS:
        return _CARD_VERBS[verb](arg)
    match verb:
        case "move":
            return Move(_number(arg))
        case "menu":
            return OpenMenu(_MENUS[arg])
        case "use" if kind == "space":
            return UseSpace(_number(arg))
        case "use":
            return UseAbility(arg)
        case "opt" | "copt":
            return ChooseOption(_number(arg), copied=verb == "copt")
        case "copy" if kind == "any_target":
            return CopySpace(_number(arg))
        case "copy":
            return CopyCard(arg)
        case "slot":
            return RepairSlots(_SLOTS[arg])
        case "pay":
            found = _PAY.match(arg)
            if found is None:
                raise ValueError(arg)
            money, time, x, reducer = found.groups()
            return Pay(int(money), int(time), int(x), reducer or "")
        case "top" | "bottom" | "fly":
            return Place(_ARRANGE[verb], arg)
    raise KeyError(verb)


CODEC: KeyCodec[Key] = KeyCodec(_BARE, _with_argument, lambda text: messages.NOT_A_MOVE)


def parse_key(text: str, kind: str = "") -> Key:
    """The typed key for `text` in a step of this kind; IllegalActionError when it is none."""
    return CODEC.parse(text, kind)


def format_key(key: Key) -> str:
    """The wire text of a typed key (the inverse of parse_key)."""
    match key:
        case Move(space):
            return join_key("move", space)
        case OpenMenu(menu):
            return join_key("menu", menu)
        case UseSpace(space):
            return join_key("use", space)
        case UseAbility(source):
            return join_key("use", source)
        case ChooseOption(index, copied):
            return join_key("copt" if copied else "opt", index)
        case CopySpace(space):
            return join_key("copy", space)
        case CopyCard(card):
            return join_key("copy", card)
        case RepairSlots(slots):
            return join_key("slot", "+".join(str(s) for s in slots))
        case Pay(money, time, x, reducer):
            return join_key("pay", f"m{money}t{time}x{x}" + (f":{reducer}" if reducer else ""))
        case Place(where, card):
            return join_key(where, card)
        case ChoosePilot() | TakeDev() | Ignore() | Refresh() | PickCard() | Exhaust() | Garage():
            return join_key(_verb_of(key), _card_of(key))
    return CODEC.bare_word(key)


def _verb_of(key: CardKey) -> str:
    """The verb of a card-argument key."""
    return next(verb for verb, cls in _CARD_VERBS.items() if isinstance(key, cls))


def _card_of(key: CardKey) -> str:
    """The card (or Pilot) a card-argument key names."""
    return key.pilot if isinstance(key, ChoosePilot) else key.card


def unexpected(key: Key, kind: str) -> IllegalActionError:
    """The error for a key that a step of this kind does not take (a bug or a forged key)."""
    return IllegalActionError(
        said("{key} is not a choice of the {step} step.", key=repr(format_key(key)), step=kind)
    )
