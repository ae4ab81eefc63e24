"""The First in Flight data file: pydantic models for board, cards and effects, and its loader."""

from __future__ import annotations

import json
from functools import cache, cached_property
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.core.words import Said, joined, said

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "cards"
DEFAULT_FILE = "first-in-flight.json"


class Spec(BaseModel):
    """Base for data-file models: immutable, no unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --- the effect vocabulary -------------------------------------------------------------------

GainTarget = Literal[
    "glide", "experience", "basic_problem", "upgrade", "skill", "technology", "friend"
]


class Coins(Spec):
    """Take coins from the supply."""

    op: Literal["coins"]
    n: int


class Gain(Spec):
    """Gain a card: supply cards by name, or the top card of a deck (Langley may look further)."""

    op: Literal["gain"]
    card: GainTarget


class Distance(Spec):
    """Add Distance to the current Flight (activated) or to every Flight (passive)."""

    op: Literal["distance"]
    n: int


class DistancePer(Spec):
    """Add n Distance per counted thing in the Flight or play area."""

    op: Literal["distance_per"]
    per: Literal["upgrade", "upgrade_ge4", "glides_per3", "friend_owned", "recent_glides"]
    n: int = 1


class LookTop(Spec):
    """Look at the top n cards of your deck and rearrange them (seen only by you)."""

    op: Literal["look_top"]
    n: int
    mode: Literal["reorder", "bottom_any", "one_to_flight"]


class IgnoreProblem(Spec):
    """One revealed card's Problem icon stops counting (`card` limits which kind; "" = any)."""

    op: Literal["ignore_problem"]
    card: str = ""


class CancelFlaw(Spec):
    """Cancel the effect (not the icon) of a pending flaw of one of these kinds."""

    op: Literal["cancel_flaw"]
    cards: tuple[str, ...]


class BoostNextUpgrade(Spec):
    """The next Upgrade added to this Flight counts n more."""

    op: Literal["boost_next_upgrade"]
    n: int


class NoLieDown(Spec):
    """A crash this Flight does not lay the pawn down."""

    op: Literal["no_lie_down"]


class BonusIf(Spec):
    """At scoring, add n Distance when the condition holds."""

    op: Literal["bonus_if"]
    cond: Literal["problems_eq", "no_flaw_at_descend"]
    value: int = 0
    n: int


class BottomRecent(Spec):
    """Put the most recent card of this kind in the Flight on the bottom of the deck."""

    op: Literal["bottom_recent"]
    card: str


class RedrawRecent(Spec):
    """Shuffle the most recent Flight card back into the deck, then draw one."""

    op: Literal["redraw_recent"]


class RefreshSkill(Spec):
    """Refresh another exhausted Skill."""

    op: Literal["refresh_skill"]


ModifierKey = Literal[
    "upgrade_look",
    "upgrade_discount",
    "gain_look",
    "look_bonus",
    "space_discount",
    "any_surcharge_waived",
    "descend_land",
    "descend_crash",
    "flaw_single",
    "flaw_immune",
    "reduce_to",
    "first_no_problem",
]


class Modifier(Spec):
    """A standing rule change the engine consults by key (n and card qualify it)."""

    op: Literal["modifier"]
    key: ModifierKey
    n: int = 0
    card: str = ""


class TakeAction(Spec):
    """Take an action without moving: "behind" = a space behind your pawn, "any" = any space."""

    op: Literal["take_action"]
    scope: Literal["any", "behind"]


class CopyAbility(Spec):
    """Use the ability of another player's (or Gustave's) Friend or Skill without exhausting it."""

    op: Literal["copy_ability"]


class UseOccupied(Spec):
    """Move to an Action Space occupied by another pawn (yours goes in front)."""

    op: Literal["use_occupied"]


class ReduceCost(Spec):
    """Reduce one Money cost by up to `money` or one Time cost by up to `time`."""

    op: Literal["reduce_cost"]
    money: int = 0
    time: int = 0


class RepairSecond(Spec):
    """During a Repair, repair the other Garage flaw too (both bonuses)."""

    op: Literal["repair_second"]


class ExhaustOrDescend(Spec):
    """When drawn: exhaust a ready Skill (no effect) or Descend."""

    op: Literal["exhaust_or_descend"]


class ScrapNext(Spec):
    """When drawn: if the next card added to the Flight is of this kind, scrap it."""

    op: Literal["scrap_next"]
    card: str


class ReduceLargest(Spec):
    """At scoring: the largest unreduced Upgrade in the Flight counts n."""

    op: Literal["reduce_largest"]
    n: int


Effect = Annotated[
    Coins
    | Gain
    | Distance
    | DistancePer
    | LookTop
    | IgnoreProblem
    | CancelFlaw
    | BoostNextUpgrade
    | NoLieDown
    | BonusIf
    | BottomRecent
    | RedrawRecent
    | RefreshSkill
    | Modifier
    | TakeAction
    | CopyAbility
    | UseOccupied
    | ReduceCost
    | RepairSecond
    | ExhaustOrDescend
    | ScrapNext
    | ReduceLargest,
    Field(discriminator="op"),
]


class Condition(Spec):
    """When an activated ability may be used (all given parts must hold)."""

    flight_start: bool = False
    recent: str | None = None  # kind of the `count` most recent Flight cards ("" = any card)
    count: int = 0
    has: str = ""  # a counting card of this kind is in the Flight
    pending: str = ""  # an uncancelled flaw of this kind is in effect
    exhausted_skill: bool = False


Trigger = Literal[
    "turn", "flight", "any", "passive", "on_record", "on_crash", "on_land", "move", "pay", "repair"
]


class Ability(Spec):
    """One ability: when it applies, how often, and its effects."""

    when: Trigger
    limit: Literal["none", "flight", "year"] = "none"
    uses: int = 1
    effects: tuple[Effect, ...]
    condition: Condition | None = None
    text: str = ""


# --- cards, pilots, board ----------------------------------------------------------------------


class FlightCard(Spec):
    """A Flight card type (Glide, Experience, Upgrade, Design Flaw, Basic Flight Problem)."""

    id: str
    name: str
    kind: Literal["glide", "experience", "upgrade", "flaw", "problem"]
    distance: int
    problems: int = 0
    first_problem_counts: int = 0
    on_draw: tuple[Effect, ...] = ()
    at_scoring: tuple[Effect, ...] = ()
    repair_bonus: tuple[Effect, ...] = ()


class DevCard(Spec):
    """A Friend, Technology or Skill card."""

    id: str
    name: str
    # The card text cut to fit a Discord select option's description (100 characters).
    short: str = Field("", max_length=100)
    type: Literal["friend", "technology", "skill"]
    text: str = ""
    abilities: tuple[Ability, ...]


class Pilot(Spec):
    """A Pilot card: normal side, Fame Benefit and Famous side."""

    id: str
    name: str
    short: str = Field("", max_length=100)  # both sides in ≤ 100 characters (select option text)
    normal: tuple[Ability, ...]
    fame_benefit: tuple[Effect, ...]
    famous: tuple[Ability, ...]

    @property
    def text(self) -> str:
        """The full text of both sides, each ability's text said on its own (a catalogue entry)."""
        normal = joined(*(Said(a.text) for a in self.normal if a.text))
        famous = joined(*(Said(a.text) for a in self.famous if a.text))
        if not famous:
            return normal
        return said("{normal} Famous: {famous}", normal=normal, famous=famous)


class Cost(Spec):
    """Money or Time (either alone), or both together when `both` is set."""

    money: int | None = None
    time: int | None = None
    both: bool = False


ActionKind = Literal[
    "funding", "glide", "experience", "skill", "friend", "technology", "fly", "upgrade",
    "repair", "any",
]  # fmt: skip


class SpaceOption(Spec):
    """One action offered on an Action Space (amount: coins, minimum X, or Any surcharge)."""

    action: ActionKind
    cost: Cost = Cost()
    amount: int = 0
    label: str = ""


class Space(Spec):
    """A board space: an Action Space with 1–2 options, or a Time Space."""

    kind: Literal["action", "time"]
    options: tuple[SpaceOption, ...] = ()


class Board(Spec):
    """One board side and the player counts it serves."""

    players: tuple[int, ...]
    spaces: tuple[Space, ...]


class GustaveLevel(Spec):
    """Gustave's record gains per Fly/Any space and per Year end."""

    fly: int
    year: int


class GameData(Spec):
    """The whole data file."""

    name: str
    stand_in: bool
    notes: tuple[str, ...] = ()
    coins_by_position: tuple[int, ...]
    famous_at: int
    end_at: int
    crash_at: int
    descend: dict[str, int]
    cup: tuple[int, ...]
    start_deck: dict[str, int]
    display: dict[str, int]
    supply: dict[str, int]
    upgrade_deck: dict[str, int]
    flaw_deck: dict[str, int]
    gustave: dict[str, GustaveLevel]
    boards: dict[str, Board]
    flight_cards: tuple[FlightCard, ...]
    pilots: tuple[Pilot, ...]
    development: tuple[DevCard, ...]

    @model_validator(mode="after")
    def _ids_are_unique(self) -> GameData:
        """Every card id is unique and every deck names known cards."""
        ids = [c.id for c in self.flight_cards] + [p.id for p in self.pilots]
        ids += [d.id for d in self.development]
        if len(ids) != len(set(ids)):
            raise ValueError("duplicate card ids in the data file")
        known = {c.id for c in self.flight_cards}
        for deck in (self.upgrade_deck, self.flaw_deck):
            if not set(deck) <= known:
                raise ValueError(f"unknown flight cards in deck: {sorted(set(deck) - known)}")
        return self

    @cached_property
    def _flight_index(self) -> dict[str, FlightCard]:
        """Flight cards by id."""
        return {c.id: c for c in self.flight_cards}

    @cached_property
    def _dev_index(self) -> dict[str, DevCard]:
        """Development cards by id."""
        return {c.id: c for c in self.development}

    def flight(self, card: str) -> FlightCard:
        """The Flight card type for a card id (a trailing '*' marks an unrevealed flaw)."""
        return self._flight_index[card.rstrip("*")]

    def dev(self, card: str) -> DevCard:
        """The Development card with this id."""
        return self._dev_index[card]

    @cached_property
    def _pilot_index(self) -> dict[str, Pilot]:
        """Pilot cards by id."""
        return {p.id: p for p in self.pilots}

    @cached_property
    def _board_index(self) -> dict[int, Board]:
        """The board side for each player count (the first side listing it, as in the file)."""
        index: dict[int, Board] = {}
        for side in self.boards.values():
            for count in side.players:
                index.setdefault(count, side)
        return index

    def pilot(self, pilot_id: str) -> Pilot:
        """The Pilot card with this id."""
        return self._pilot_index[pilot_id]

    def dev_ids(self, kind: str) -> tuple[str, ...]:
        """All Development card ids of one type, in file order."""
        return tuple(d.id for d in self.development if d.type == kind)

    def board_for(self, players: int) -> Board:
        """The board side used for this many pawns-owning players."""
        return self._board_index[players]


@cache
def load_data(name: str = DEFAULT_FILE) -> GameData:
    """Load and validate a data file from assets/cards/ (cached per name)."""
    path = (ASSETS / name).resolve()
    if path.parent != ASSETS.resolve() or not path.is_file():
        raise ValueError(f"there is no card data file called {name!r}")
    return GameData.model_validate(json.loads(path.read_text(encoding="utf-8")))
