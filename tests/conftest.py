"""Test tiers (everything under tests/e2e is marked `e2e`; `make test-fast` skips it) and one
clear line when the PostgreSQL half of the store and service tests was skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.databases import postgres_problem

E2E_DIR = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark end-to-end tests by location, so a new e2e file needs no decorator."""
    for item in items:
        if E2E_DIR in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say once why PostgreSQL tests were skipped (they are, each, for the same reason)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if skipped and any("[postgres]" in getattr(r, "nodeid", "") for r in skipped):
        terminalreporter.write_line(
            f"NOTE: {postgres_problem()} — the PostgreSQL half of the store and service tests "
            "was skipped (CI sets HANGAR_REQUIRE_POSTGRES=1 to make this a failure)."
        )
