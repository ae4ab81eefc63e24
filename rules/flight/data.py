"""Flight's card data: routes, towns and point values, loaded and validated from the data file."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.core.words import Said, Text, said

DATA_FILE = Path(__file__).resolve().parents[2] / "assets" / "cards" / "flight.json"

CardKind = Literal["aeroplane", "route", "landing", "fog", "alt", "customs", "passport"]

# Special card ids in the data file → the kind the rules reason about.
SPECIAL_KINDS: dict[str, CardKind] = {
    "FOG": "fog",
    "ALT": "alt",
    "CUS": "customs",
    "PAS": "passport",
}


class _Data(BaseModel):
    """Base for data-file models: strict and immutable."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class StopData(_Data):
    """One intermediate stop (Route card) of a route."""

    number: int = Field(ge=1, le=5)
    town: str
    points: int = Field(ge=0)
    stand_in: bool


class RouteData(_Data):
    """One Empire Air Route: its colour, Aeroplane value and five stops."""

    id: str = Field(pattern=r"^[A-Z]{3}$")
    name: str
    colour: str = Field(pattern=r"^#[0-9a-f]{6}$")
    colour_name: str
    colour_stand_in: bool
    aeroplane_points: int = Field(ge=0)
    stops: tuple[StopData, ...] = Field(min_length=5, max_length=5)


class SafeLandingData(_Data):
    """The interchangeable Safe Landing cards."""

    id: str
    name: str
    count: int = Field(ge=1)
    points: int = Field(ge=0)


class SpecialData(_Data):
    """A Fog, Alternative Route, Customs or Passport card."""

    id: Literal["FOG", "ALT", "CUS", "PAS"]
    name: str
    count: int = Field(ge=1)
    points: int = Field(ge=0)
    role: Literal["obstacle", "cancel"]
    cancelled_by: str | None = None
    cancels: str | None = None


class FlightData(_Data):
    """The whole data file."""

    game: Literal["flight"]
    source: str
    stand_in_note: str
    hand_size: int = Field(ge=1)
    min_players: int = Field(ge=2)
    max_players: int = Field(ge=2)
    routes: tuple[RouteData, ...] = Field(min_length=4, max_length=4)
    safe_landing: SafeLandingData
    specials: tuple[SpecialData, ...] = Field(min_length=4, max_length=4)
    points_stand_in: bool


class CardInfo(_Data):
    """Everything the rules and renderers need about one card code."""

    code: str
    kind: CardKind
    name: Text  # a Said: the card's name in every language (issue 30)
    points: int
    route: str | None = None
    number: int | None = None
    town: str | None = None


@lru_cache(maxsize=1)
def load_data() -> FlightData:
    """The validated data file (read once)."""
    return FlightData.model_validate(json.loads(DATA_FILE.read_text(encoding="utf-8")))


def _route_cards(route: RouteData) -> list[CardInfo]:
    """The Aeroplane and five Route cards of one route, in flight order."""
    # The route's name is card data (in the catalogue by the asset extraction); towns are kept
    # as printed on the 1954 cards, in every language.
    name = Said(route.name)
    cards = [
        CardInfo(
            code=f"{route.id}.A",
            kind="aeroplane",
            name=said("{route} Aeroplane", route=name),
            points=route.aeroplane_points,
            route=route.id,
        )
    ]
    for stop in route.stops:
        cards.append(
            CardInfo(
                code=f"{route.id}.{stop.number}",
                kind="route",
                name=said(
                    "{route} {number} ({town})", route=name, number=stop.number, town=stop.town
                ),
                points=stop.points,
                route=route.id,
                number=stop.number,
                town=stop.town,
            )
        )
    return cards


@lru_cache(maxsize=1)
def catalogue() -> dict[str, CardInfo]:
    """Card code → card info, in canonical order (routes, Safe Landing, specials)."""
    data = load_data()
    cards: list[CardInfo] = []
    for route in data.routes:
        cards.extend(_route_cards(route))
    landing = data.safe_landing
    cards.append(
        CardInfo(code=landing.id, kind="landing", name=Said(landing.name), points=landing.points)
    )
    for special in data.specials:
        kind = SPECIAL_KINDS[special.id]
        name = Said(special.name)
        cards.append(CardInfo(code=special.id, kind=kind, name=name, points=special.points))
    return {card.code: card for card in cards}


def card(code: str) -> CardInfo:
    """Info for one card code (KeyError for an unknown code)."""
    return catalogue()[code]


def is_card(code: str) -> bool:
    """True when `code` names a card of this game."""
    return code in catalogue()


@lru_cache(maxsize=64)
def card_order(code: str) -> int:
    """Sort key that keeps hands in canonical order."""
    return list(catalogue()).index(code)


def sort_cards(codes: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cards in canonical order (hands are kept sorted so equal hands compare equal)."""
    return tuple(sorted(codes, key=card_order))


def full_deck() -> tuple[str, ...]:
    """All 44 card codes, with repeats for Safe Landings and specials, in canonical order."""
    data = load_data()
    counts = {data.safe_landing.id: data.safe_landing.count}
    counts.update({s.id: s.count for s in data.specials})
    return tuple(code for code in catalogue() for _ in range(counts.get(code, 1)))


def route_ids() -> tuple[str, ...]:
    """The four route ids in table order."""
    return tuple(route.id for route in load_data().routes)


def route_data(route_id: str) -> RouteData:
    """The data of one route."""
    for route in load_data().routes:
        if route.id == route_id:
            return route
    raise KeyError(route_id)


@lru_cache(maxsize=8)
def route_name(route_id: str) -> Said:
    """A route's name ("Canada"), to be translated inside sentences."""
    return Said(route_data(route_id).name)


# The data file's note, said here so it is in the catalogue (data files are not scanned for it).
STAND_IN_NOTE = said(
    "Unofficial stand-in data: the original card faces were not found. Route colours, card "
    "point values and some stops (marked stand_in) are ours, not the publisher's."
)


def stand_in_note() -> str:
    """Where the card data departs from the printed game (a Said while it matches the file)."""
    note = load_data().stand_in_note
    return STAND_IN_NOTE if note == STAND_IN_NOTE else note


def hand_points(codes: tuple[str, ...]) -> int:
    """Penalty value of the cards left in a hand."""
    return sum(card(code).points for code in codes)
