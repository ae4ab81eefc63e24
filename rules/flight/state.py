"""Flight's game state: options, the flights on the table, the turn step and the match record."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.core import Frozen, Rng

Phase = Literal["draw", "play", "target", "discard", "over"]
ObstacleKind = Literal["fog", "customs"]


class FlightOptions(BaseModel):
    """Match options for Flight (the rulebook: an agreed number of hands or points)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    match: Literal["target", "hands"] = Field(
        default="target",
        title="Match",
        description="Play to a points target, or a fixed number of hands.",
    )
    target: int = Field(
        default=100,
        ge=10,
        le=500,
        title="Points target",
        description="Points that win the match (target mode).",
    )
    hands: int = Field(
        default=4, ge=1, le=20, title="Hands", description="Number of hands to play (hands mode)."
    )
    max_hands: int = Field(
        default=15,
        ge=0,
        le=100,
        title="House rule: hand limit",
        # Not in the 1954 rules (issue 15): 0 switches it off and plays the rulebook game.
        description="House rule: the leader wins after this many hands (0 = off: the 1954 rules).",
    )


class Stop(Frozen):
    """A filled position 1–5 of a flight: by its Route card or by an Alternative Route."""

    number: int
    by: Literal["route", "alternative"]


class Obstacle(Frozen):
    """A Fog or Customs card beside a Route card; `cancelled` once covered by its remedy."""

    kind: ObstacleKind
    beside: int
    cancelled: bool = False


class Flight(Frozen):
    """One route's flight on the table (shared by all players)."""

    route: str
    started: bool = False
    stops: tuple[Stop, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    landed: bool = False

    @property
    def next_number(self) -> int:
        """The number of the next Route card this flight needs (6 = ready to land)."""
        return len(self.stops) + 1

    @property
    def open_obstacle(self) -> Obstacle | None:
        """The uncancelled obstacle holding this flight up, if any."""
        for obstacle in self.obstacles:
            if not obstacle.cancelled:
                return obstacle
        return None


class Step(Frozen):
    """Where the current turn stands, and what it has used up (rules 3, 4 and 7)."""

    phase: Phase = "draw"
    played: int = 0
    aeroplane: bool = False
    special: bool = False
    route_flight: str | None = None
    pending: str | None = None


class HandResult(Frozen):
    """The score of one finished hand (rule 11)."""

    number: int
    dealer: int
    lander: int
    route: str
    first_out: int | None
    penalties: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


class FlightState(Frozen):
    """The whole match: the hand in progress plus the scores of finished hands."""

    players: int
    options: FlightOptions
    rng: Rng
    hand_number: int = 1
    dealer: int
    turn: int
    hands: tuple[tuple[str, ...], ...]
    pack: tuple[str, ...]
    discards: tuple[str, ...]
    flights: tuple[Flight, ...]
    step: Step = Step()
    first_out: int | None = None
    scores: tuple[int, ...]
    results: tuple[HandResult, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        """True once the match has been decided."""
        return self.step.phase == "over"

    def flight(self, route: str) -> Flight:
        """The flight of one route."""
        for flight in self.flights:
            if flight.route == route:
                return flight
        raise KeyError(route)

    def with_flight(self, new: Flight) -> FlightState:
        """A copy with one flight replaced."""
        flights = tuple(new if f.route == new.route else f for f in self.flights)
        return self.model_copy(update={"flights": flights})

    def with_hand(self, seat: int, hand: tuple[str, ...]) -> FlightState:
        """A copy with one seat's hand replaced."""
        hands = tuple(hand if i == seat else h for i, h in enumerate(self.hands))
        return self.model_copy(update={"hands": hands})
