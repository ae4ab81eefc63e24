"""Suite-wide reporting: one clear line when the PostgreSQL half of the tests was skipped."""

from __future__ import annotations

import pytest

from tests.support.databases import postgres_problem


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say once why PostgreSQL tests were skipped (they are, each, for the same reason)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if skipped and any("[postgres]" in getattr(r, "nodeid", "") for r in skipped):
        terminalreporter.write_line(
            f"NOTE: {postgres_problem()} — the PostgreSQL half of the store and service tests "
            "was skipped (CI sets HANGAR_REQUIRE_POSTGRES=1 to make this a failure)."
        )
