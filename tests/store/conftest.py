"""Store tests run on both backends (see tests/support/databases.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.databases import BACKENDS, database_url_for


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database on each backend in turn."""
    async for url in database_url_for(request.param, tmp_path):
        yield url
