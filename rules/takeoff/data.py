"""Takeoff! card and board data, loaded from assets/cards/takeoff.json and validated at import."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.core.words import Said, said

DATA_FILE = Path(__file__).resolve().parents[2] / "assets" / "cards" / "takeoff.json"

SeatType = Literal["window", "middle", "aisle"]
Area = Literal["economy", "business", "any"]
# The small vocabulary the engine's event mechanics are keyed by (kind, shape).
EventKind = Literal["place", "remove", "turn", "move_turn", "pinch"]
Shape = Literal["seat", "pair", "single_row", "block", "column", "none"]
_MECHANICS: frozenset[tuple[str, str]] = frozenset(
    {
        ("place", "seat"),
        ("place", "pair"),
        ("place", "single_row"),
        ("remove", "seat"),
        ("remove", "pair"),
        ("remove", "single_row"),
        ("remove", "block"),
        ("remove", "column"),
        ("turn", "seat"),
        ("move_turn", "seat"),
        ("pinch", "none"),
    }
)


class _Data(BaseModel):
    """Strict, immutable base for data-file records."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class BoardSpec(_Data):
    """The plane: numbered rows of six seats and each seat letter's type."""

    rows: int = Field(ge=3, le=20)
    letters: str = Field(min_length=6, max_length=6)
    seat_types: dict[str, SeatType]

    @model_validator(mode="after")
    def _every_letter_has_a_type(self) -> BoardSpec:
        """Each seat letter needs a seat type."""
        if sorted(self.seat_types) != sorted(self.letters):
            raise ValueError("seat_types must name exactly the seat letters")
        return self


class SeatCardSpec(_Data):
    """A seat card (Window/Middle/Aisle) or the red Business-Class card (seat_type None)."""

    id: str
    name: str
    seat_type: SeatType | None
    count: int = Field(ge=1)
    text: str


class EventSpec(_Data):
    """One event card: its effect as data (kind + shape + area); mechanics live in targets.py."""

    number: int = Field(ge=1)
    id: str
    name: str
    kind: EventKind
    shape: Shape
    area: Area
    count: int = Field(ge=0)
    check: bool = False  # ✔: may also break single rows filled by one colour
    aisle_pairs: bool = False  # C+D across the aisle count as neighbours
    to_area: Area | None = None
    block_rows: int = 0
    column_sets: tuple[str, ...] = ()
    text: str

    @model_validator(mode="after")
    def _mechanics_exist(self) -> EventSpec:
        """Reject effects the engine has no mechanics for."""
        if (self.kind, self.shape) not in _MECHANICS:
            raise ValueError(f"{self.id}: no mechanics for {self.kind}/{self.shape}")
        if self.shape in ("block", "column") and not self.column_sets:
            raise ValueError(f"{self.id}: {self.shape} needs column_sets")
        if self.shape == "block" and self.block_rows < 1:
            raise ValueError(f"{self.id}: block needs block_rows")
        if self.kind == "move_turn" and self.to_area is None:
            raise ValueError(f"{self.id}: move_turn needs to_area")
        return self


class ClassScores(_Data):
    """Points per seat type in one class, plus the bonus for a single row in one colour."""

    window: int
    middle: int
    aisle: int
    bonus: int

    def seat(self, seat_type: SeatType) -> int:
        """Points for one stone on a seat of this type."""
        return int(getattr(self, seat_type))


class ScoringSpec(_Data):
    """One scoring version: Business and Economy tables."""

    business: ClassScores
    economy: ClassScores


class TakeoffData(_Data):
    """The whole data file."""

    game: Literal["takeoff"]
    source: str
    stand_in: tuple[str, ...]
    board: BoardSpec
    seat_cards: tuple[SeatCardSpec, ...]
    events: tuple[EventSpec, ...]
    scoring: dict[Literal["A", "B"], ScoringSpec]

    @model_validator(mode="after")
    def _ids_unique(self) -> TakeoffData:
        """Card ids must be unique and the deck must hold the 54 cards of the rulebook."""
        ids = [c.id for c in self.seat_cards] + [e.id for e in self.events]
        if len(ids) != len(set(ids)) or "ticket" in ids:
            raise ValueError("card ids must be unique (and not 'ticket')")
        total = sum(c.count for c in self.seat_cards) + len(self.events)
        if total != 54:
            raise ValueError(f"the deck must hold 54 cards, not {total}")
        return self


@lru_cache(maxsize=1)
def load() -> TakeoffData:
    """The validated data file (cached)."""
    return TakeoffData.model_validate_json(DATA_FILE.read_text(encoding="utf-8"))


DATA = load()
SEAT_CARDS: dict[str, SeatCardSpec] = {c.id: c for c in DATA.seat_cards}
EVENTS: dict[str, EventSpec] = {e.id: e for e in DATA.events}
# Catalogue order: seat cards first, then events by number; hands are kept sorted by it.
CARD_ORDER: tuple[str, ...] = tuple(SEAT_CARDS) + tuple(
    e.id for e in sorted(DATA.events, key=lambda e: e.number)
)
BUSINESS_CARD = next(c.id for c in DATA.seat_cards if c.seat_type is None)


# Names and texts as said in sentences: the data file's English is their message id (the
# asset extraction puts them in the catalogue), so the bot translates them in every line.
_NAMES: dict[str, Said] = {
    **{c.id: Said(c.name) for c in DATA.seat_cards},
    **{e.id: Said(e.name) for e in DATA.events},
}
_TEXTS: dict[str, Said] = {
    **{c.id: Said(c.text) for c in DATA.seat_cards},
    **{e.id: Said(e.text) for e in DATA.events},
}


def card_name(card: str) -> Said:
    """The player-facing name of a card id (or of the captain's ticket)."""
    if card == "ticket":
        return said("Captain's ticket")
    return _NAMES[card]


def card_text(card: str) -> Said:
    """The effect text of a card id."""
    if card == "ticket":
        return said(
            "Seat a passenger on any free seat (a Business seat also needs a Business-Class card)."
        )
    return _TEXTS[card]


def full_deck() -> tuple[str, ...]:
    """All 54 cards in catalogue order (shuffled by the engine)."""
    cards: list[str] = []
    for spec in DATA.seat_cards:
        cards.extend([spec.id] * spec.count)
    cards.extend(e.id for e in sorted(DATA.events, key=lambda e: e.number))
    return tuple(cards)


def sort_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cards in catalogue order (a hand's canonical order)."""
    return tuple(sorted(cards, key=CARD_ORDER.index))
