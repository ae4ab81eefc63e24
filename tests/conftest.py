"""Test tiers (everything under tests/e2e is marked `e2e`; `make test-fast` skips it), the order
tests start in under xdist, and one clear line when the PostgreSQL half of the store and service
tests was skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.databases import postgres_problem

E2E_DIR = Path(__file__).parent / "e2e"
LONG = "long"  # marker: a test that plays whole games (tens of seconds)
# The other slowest tests of `pytest --durations=60` (Dec 2026), marked `long` here until they
# carry the marker themselves: node id prefixes.
SLOWEST = (
    "tests/e2e/test_reliability_e2e.py::test_random_kills_lose_no_move",
    "tests/e2e/test_reliability_e2e.py::test_crash_between_commit_and_record",
    "tests/e2e/test_history_e2e.py::test_a_finished_game_lives_on",
    "tests/e2e/test_first_in_flight_e2e.py::test_two_players_through_year_one",
    "tests/rules/test_ai_terminates.py::test_an_all_hard_table_plays_to_the_end",
    "tests/rules/test_ai_twins.py::test_the_ai_chooses_the_same_in_twins",
    "tests/rules/takeoff/test_can_play.py::test_can_play_agrees_with_the_target_lists",
    "tests/render/test_retained.py::test_every_takeoff_picture_of_a_game",
)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """With `-n N` and no `--dist`, let an idle worker take tests queued on a busy one.

    xdist's default (`load`) hands each worker a fixed share of the queue at the start; a worker
    that drew the long end-to-end games then runs them alone while the other waits.
    """
    option = config.option
    if getattr(option, "numprocesses", None) and getattr(option, "dist", None) == "no":
        option.dist = "worksteal"


def pytest_configure(config: pytest.Config) -> None:
    """Register the `long` marker (see `run_order`)."""
    config.addinivalue_line(
        "markers", f"{LONG}: plays whole games; started before the others (tests/conftest.py)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark end-to-end tests by location, so a new e2e file needs no decorator; then start the
    long tests first, so that the end of a parallel run is many short tests, not one long one."""
    for item in items:
        if E2E_DIR in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
        if item.nodeid.startswith(SLOWEST):
            item.add_marker(LONG)
    items.sort(key=run_order)  # stable: files and their fixtures stay together within a tier


def run_order(item: pytest.Item) -> int:
    """0 for tests marked `long`, 1 for other end-to-end tests (seconds each), 2 for the rest."""
    if item.get_closest_marker(LONG) is not None:
        return 0
    return 1 if item.get_closest_marker("e2e") is not None else 2


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say once why PostgreSQL tests were skipped (they are, each, for the same reason)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if skipped and any("[postgres]" in getattr(r, "nodeid", "") for r in skipped):
        terminalreporter.write_line(
            f"NOTE: {postgres_problem()} — the PostgreSQL half of the store and service tests "
            "was skipped (CI sets HANGAR_REQUIRE_POSTGRES=1 to make this a failure)."
        )
