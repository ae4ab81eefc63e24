"""The automatic player finishes games and the simulator reports the balance figures."""

from __future__ import annotations

from rules.first_in_flight import GAME
from rules.first_in_flight.simulate import Tally, main, play_one, record_game, report, simulate


def test_automatic_players_finish_a_game_with_an_outcome() -> None:
    """A bot game ends with a winner and every seat has flown."""
    state = play_one(7, 3)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners
    assert all(m.flights > 0 for m in state.seats)


def test_report_lists_endings_records_pilots_and_turns(capsys: object) -> None:
    """The printed summary has every figure the balance target needs."""
    tally = Tally()
    state = play_one(3, 2)
    record_game(tally, state, state.year)
    text = report(tally, 2)
    for part in (
        "ended by a 40+ record",
        "ended after Year 4",
        "winning record",
        "win rate by Pilot",
        "mean turns",
    ):
        assert part in text
    assert main(["--games", "1", "--players", "1"]) == 0


def test_parallel_simulation_gives_the_same_figures_as_serial() -> None:
    """Running games in worker processes changes the speed, not the figures."""
    serial = report(simulate(2, 3, 11, "standard", 1), 3)
    parallel = report(simulate(2, 3, 11, "standard", 2), 3)
    assert serial == parallel
