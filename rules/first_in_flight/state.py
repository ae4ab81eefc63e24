"""The First in Flight game state: frozen models that round-trip through JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.core import Frozen, Rng
from rules.first_in_flight.keys import StepKind

START = -1  # pawn position: the start area at the beginning of a Year


class Options(Frozen):
    """Game options (each becomes a slash-command option)."""

    gustave: Literal["standard", "advanced"] = Field(
        "standard",
        title="Gustave",
        description="Gustave's side in a 2-player game (solo always uses Advanced).",
    )
    solo_expert: bool = Field(
        False,
        title="Solo expert Gustave",
        description="Solo: Gustave gains +5 per Fly and +7 per Year.",
    )
    odds_aid: bool = Field(
        True,
        title="Odds aid",
        description="Show the chance that the next Flight card is a Problem (an aid).",
    )
    card_data: str = Field(
        "first-in-flight.json",
        title="Card data",
        description="Card data file under assets/cards/ (stand-in set).",
    )


class Pawn(Frozen):
    """A pilot pawn: position index on the board (-1 / len(board) = start area), arrival order."""

    pos: int = START
    arrival: int = 0
    standing: bool = True


class Owned(Frozen):
    """A Development card in a player's play area."""

    card: str
    exhausted: bool = False


class Player(Frozen):
    """One human player's mat: pilot, coins, Flight deck, Garage, record and cards."""

    pilot: str = ""
    famous: bool = False
    coins: int = 0
    deck: tuple[str, ...] = ()  # draw order, top first; "name*" = a flaw nobody has seen
    garage: tuple[str, str] = ("", "")
    record: int = 0
    record_seq: int = 0  # 0 = never flown; else the global order in which the record was set
    record_year: int = 0
    record_by_year: tuple[int, ...] = ()  # the record at the end of each finished Year
    cards: tuple[Owned, ...] = ()
    pilot_used: int = 0
    known_top: tuple[str, ...] = ()  # the top of the deck this player has looked at, in order
    flights: int = 0


class RowCard(Frozen):
    """A card in the current Flight row."""

    card: str
    ignored: bool = False  # its Problem icon does not count
    cancelled: bool = False  # its effect is cancelled
    bonus: int = 0  # extra Distance (Throttle Up)


class FlightState(Frozen):
    """The Flight in progress."""

    seat: int
    row: tuple[RowCard, ...] = ()
    descended: bool = False
    descend_at: int = -1  # cards in the row when Descend was played (-1 = not played)
    landing_left: int = 0
    crashed: bool = False
    landed: bool = False
    bonus: int = 0
    bonuses_if: tuple[tuple[str, int, int], ...] = ()  # (condition, value, n) checked at scoring
    elevator: bool = False
    pitch: bool = False
    no_lie_down: bool = False
    next_upgrade_bonus: int = 0
    flaws_at_descend: int = -1
    distance: int = 0
    final: bool = False
    done: bool = False


class Step(Frozen):
    """A decision waiting for `seat`; steps stack (the last is current)."""

    kind: StepKind
    seat: int
    space: int = -1  # the Action Space whose action is being taken
    option: int = -1
    via: str = "move"  # move | katharine | todd | fame | any
    copied: int = -1  # the space an Any Action copies
    slots: tuple[int, ...] = ()  # Garage slots being repaired
    cards: tuple[str, ...] = ()  # cards being looked at (private to seat)
    keep: int = 0
    dest: str = ""
    source: str = ""  # the card or "pilot" whose ability is in use
    kept: tuple[str, ...] = ()


class State(Frozen):
    """The whole game."""

    options: Options
    players: int
    rng: Rng
    year: int = 1
    seq: int = 0  # global counter: arrivals and record times
    pawns: tuple[Pawn, ...]  # seats first, then Gustave when present
    seats: tuple[Player, ...]
    gustave: bool = False
    gustave_record: int = 0
    gustave_record_seq: int = 0
    gustave_record_by_year: tuple[int, ...] = ()  # Gustave's record at the end of each Year
    gustave_cards: tuple[str, ...] = ()
    pilot_offer: tuple[str, ...] = ()
    upgrade_deck: tuple[str, ...] = ()
    flaw_deck: tuple[str, ...] = ()
    flaw_discard: tuple[str, ...] = ()
    dev_decks: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())
    dev_discards: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())
    display: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())
    supply: tuple[int, int, int] = (0, 0, 0)  # glide, experience, basic_problem
    steps: tuple[Step, ...] = ()
    flight: FlightState | None = None
    end_trigger: int = -2  # -2 = not triggered, -1 = Year 4 ended, n = that actor reached 40
    final_queue: tuple[int, ...] | None = None
    over: bool = False
    turns: int = 0


DEV_TYPES = ("friend", "technology", "skill")
SUPPLY = ("glide", "experience", "basic_problem")


def dev_index(kind: str) -> int:
    """Index of a Development type in the per-type tuples."""
    return DEV_TYPES.index(kind)


def gustave_actor(state: State) -> int:
    """Pawn index of Gustave (-1 when absent)."""
    return state.players if state.gustave else -1
