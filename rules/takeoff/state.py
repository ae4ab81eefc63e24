"""Takeoff! options and the frozen game state."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.core import Frozen, Rng


class Options(Frozen):
    """Takeoff! game options (each becomes a slash-command option)."""

    scoring: Literal["A", "B"] = Field(
        "B",
        title="Scoring",
        description="Scoring: A = 2/1 per stone plus row bonus; B = points by seat popularity",
    )
    business_rows: int = Field(
        3,
        ge=1,
        le=6,
        title="Business-class rows",
        description="How many numbered rows are Business class (red carpet)",
    )
    row_rule: Literal["numbered", "single"] = Field(
        "numbered",
        title="Row rule",
        description="Each placement in a turn needs a different numbered row, or single row",
    )


class Pending(Frozen):
    """A half-built play: the card (or 'ticket') and the targets picked so far.

    The card stays in the hand until the play completes, so cancelling restores the state exactly.
    `row` is set while a long target list is narrowed to one numbered row.
    """

    card: str
    picks: tuple[str, ...] = ()
    row: int | None = None


class TakeoffState(Frozen):
    """Everything about a game of Takeoff! (seats: 0 = yellow, 1 = blue)."""

    options: Options
    rng: Rng
    board: tuple[int, ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    deck: tuple[str, ...]  # index 0 is the top card
    discard: tuple[str, ...]  # the last card is on top
    pass_number: int = 1  # 1 = initial pile, 2 and 3 after reshuffles
    tickets: tuple[int, int] = (4, 4)
    turn: int = 0
    turn_no: int = 1
    played: bool = False  # a card or ticket was played this turn
    ticket_used: bool = False
    rows_used: tuple[int, ...] = ()  # row keys that received a placement this turn
    freed: tuple[int, ...] = ()  # seats emptied by this turn's events (may be re-seated)
    changed_last: tuple[bool, bool] = (False, False)  # each seat's previous turn was a change
    pending: Pending | None = None
    final_round: bool = False
    final_turns_left: int = 0
    last_seats: tuple[int, ...] = ()
    last_seats_turn: int = 0
    over: bool = False
    end_reason: str = ""
