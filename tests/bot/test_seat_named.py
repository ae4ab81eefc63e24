"""`/admin replace` finds the seat `old` names and tells an AI from a member in `new`."""

from __future__ import annotations

import pytest

from bot.edge.commands.admin import names_an_ai, seat_named
from bot.services.errors import NotInGameError
from bot.services.games import LoadedGame
from bot.store.repository import SeatRecord

BOB = 157721628395333223


class Seated:
    """The part of a LoadedGame seat_named reads."""

    seats = (
        SeatRecord(0, 42_000_000_000_000_001, "alice"),
        SeatRecord(1, None, "🤖 Hard AI", "hard"),
        SeatRecord(2, BOB, "bob"),
    )


GAME: LoadedGame = Seated()  # type: ignore[assignment]


@pytest.mark.parametrize(
    ("old", "seat"),
    [
        (f"<@{BOB}>", 2),
        (f"<@!{BOB}>", 2),
        (str(BOB), 2),
        ("BOB", 2),
        ("🤖 Hard AI", 1),
        ("hard ai", 1),
        ("ai", 1),
        ("2", 1),
        ("seat 3", 2),
        ("#1", 0),
    ],
)
def test_old_names_a_seat_by_mention_id_name_or_number(old: str, seat: int) -> None:
    """Every way an admin may name a seat finds it."""
    assert seat_named(GAME, old).seat == seat


@pytest.mark.parametrize("old", ["carol", "9", "<@123456789012345678>", "None"])
def test_old_naming_no_seat_is_refused_with_the_name(old: str) -> None:
    """A name, number or member that is not at the table is refused, saying which."""
    with pytest.raises(NotInGameError, match="is not a player in this game"):
        seat_named(GAME, old)


def test_new_tells_an_ai_from_a_member() -> None:
    """`ai` (any case, with or without the robot) asks for an AI; a mention does not."""
    assert names_an_ai("ai") and names_an_ai(" AI ") and names_an_ai("🤖 AI")
    assert not names_an_ai(f"<@{BOB}>") and not names_an_ai("aisha")
