"""Typed endings: who won and why is data; the sentence players read is made from it."""

from __future__ import annotations

import pytest

from rules import get_game
from rules.core import Ending, Outcome
from rules.first_in_flight import GAME as FIF
from rules.first_in_flight import text
from rules.first_in_flight.simulate import Tally, record_game
from rules.first_in_flight.state import State
from tests.rules.first_in_flight.helpers import table, with_seat
from tests.rules.test_contract import play_random


def _ended(players: int, records: tuple[int, ...], gustave: int, trigger: int = -1) -> State:
    """A finished First in Flight game with these records and end trigger (-1 = Year 4)."""
    state = table(players=players).model_copy(
        update={"over": True, "steps": (), "gustave_record": gustave, "end_trigger": trigger}
    )
    for seat, record in enumerate(records):
        state = with_seat(state, seat, record=record)
    return state


@pytest.mark.parametrize(
    ("records", "gustave", "trigger", "winner", "kind"),
    [
        ((31, 35), 40, 2, "automa", "gustave_record"),
        ((40, 12), 40, 0, "seats", "highest_record"),
        ((33, 12), 33, -1, "draw", "shared_with_gustave"),
        ((20, 30), 10, -1, "seats", "highest_record"),
    ],
)
def test_first_in_flight_ending_says_who_won_as_data(
    records: tuple[int, ...], gustave: int, trigger: int, winner: str, kind: str
) -> None:
    """Gustave's win, a player's win and a shared win are told apart without reading text."""
    outcome = FIF.outcome(_ended(2, records, gustave, trigger))
    assert outcome is not None and outcome.ending is not None
    assert (outcome.ending.winner, outcome.ending.kind) == (winner, kind)
    assert outcome.automa_won == (winner == "automa")
    assert outcome.reason == text.ending_text(outcome.ending)
    assert outcome.ending.params["best"] == max(records)


def test_the_simulator_counts_gustave_wins_from_the_ending() -> None:
    """A Gustave win is tallied from the typed ending, and no Pilot is credited with it."""
    tally = Tally()
    record_game(tally, _ended(2, (31, 35), 40, trigger=2), 4)
    record_game(tally, _ended(2, (40, 12), 40, trigger=0), 4)
    assert tally.gustave_wins == 1
    assert sum(tally.pilot_wins.values()) == 1


@pytest.mark.parametrize(("game_id", "players"), [("takeoff", 2), ("flight", 3)])
def test_every_game_ends_with_a_typed_ending(game_id: str, players: int) -> None:
    """Seat wins and draws are marked as such; the reason text is the ending's text."""
    game = get_game(game_id)
    _, _, state = play_random(game_id, players, 5)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.ending is not None
    assert outcome.ending.winner == ("draw" if outcome.is_draw else "seats")
    assert outcome.reason == outcome.ending.text and outcome.reason


def test_an_automa_ending_with_a_winning_seat_is_refused() -> None:
    """The ending and the winners cannot disagree."""
    with pytest.raises(ValueError, match="automa"):
        Outcome(scores=(3,), ranks=(1,), winners=(0,), ending=Ending(winner="automa", kind="x"))


def test_an_outcome_built_from_reason_text_keeps_the_text() -> None:
    """Code written before endings were typed still works: its text becomes a "text" ending."""
    shared = Outcome(scores=(5, 5), ranks=(1, 1), winners=(0, 1), reason="Tied.")
    assert shared.reason == "Tied." and shared.ending is not None
    assert (shared.ending.winner, shared.ending.kind) == ("draw", "text")
    gustave = Outcome(scores=(3,), ranks=(2,), winners=(), reason="Gustave won.")
    assert gustave.automa_won and gustave.reason == "Gustave won."
    assert Outcome(scores=(1,), ranks=(1,), winners=(0,)).reason == ""
