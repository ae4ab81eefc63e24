"""Test tiers: everything under tests/e2e is marked `e2e` (`make test-fast` skips it)."""

from __future__ import annotations

from pathlib import Path

import pytest

E2E_DIR = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark end-to-end tests by location, so a new e2e file needs no decorator."""
    for item in items:
        if E2E_DIR in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
