"""Both backends for store and service tests: a SQLite file, or a fresh PostgreSQL schema.

PostgreSQL is looked for at HANGAR_TEST_POSTGRES (default: the local server's `test` database).
Without one the PostgreSQL half is skipped with one reason, unless HANGAR_REQUIRE_POSTGRES=1 (set
by `.ci/run`), which turns the skip into a failure so CI can never pass without it.
"""

from __future__ import annotations

import asyncio
import functools
import os
import uuid
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest

POSTGRES_URL = os.environ.get("HANGAR_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgres")


@functools.cache
def postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used for tests here, or None when it can."""

    async def probe() -> None:
        conn = await asyncpg.connect(POSTGRES_URL, timeout=3)
        await conn.close()

    try:
        # Its own thread and loop: this is first called from inside a test's running loop.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, probe()).result()
    except Exception as exc:  # any failure means "not here"; the reason is reported
        return f"PostgreSQL not reachable at {POSTGRES_URL} ({type(exc).__name__}: {exc})"
    return None


def require_postgres() -> None:
    """Skip (or, with HANGAR_REQUIRE_POSTGRES=1, fail) when PostgreSQL is missing."""
    problem = postgres_problem()
    if problem is None:
        return
    if os.environ.get("HANGAR_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{problem}, but HANGAR_REQUIRE_POSTGRES=1 requires it", pytrace=False)
    pytest.skip(f"{problem}: the PostgreSQL half of the store and service tests is skipped")


def with_search_path(url: str, schema: str) -> str:
    """The URL with a schema selected (asyncpg passes unknown URL parameters to the server)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _admin(sql: str) -> None:
    """Run one statement on the test server."""
    conn = await asyncpg.connect(POSTGRES_URL, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def postgres_schema() -> AsyncIterator[str]:
    """A URL for a new, empty schema, dropped (with everything in it) afterwards."""
    require_postgres()
    schema = f"hangar_test_{uuid.uuid4().hex[:12]}"
    await _admin(f'CREATE SCHEMA "{schema}"')
    try:
        yield with_search_path(POSTGRES_URL, schema)
    finally:
        await _admin(f'DROP SCHEMA "{schema}" CASCADE')


async def database_url_for(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database of this backend, as a DATABASE_URL."""
    if backend == "sqlite":
        yield str(tmp_path / "hangar.sqlite3")
        return
    async for url in postgres_schema():
        yield url
