"""A throw-away PostgreSQL schema for benches (HANGAR_BENCH_POSTGRES, default: local `test`)."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg

SERVER = os.environ.get("HANGAR_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def _run(sql: str) -> None:
    """One statement on the bench server."""
    conn = await asyncpg.connect(SERVER, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def postgres_problem() -> str | None:
    """Why no PostgreSQL bench can run here, or None."""
    try:
        asyncio.run(_run("SELECT 1"))
    except Exception as exc:  # the reason is printed instead of a figure
        return f"{SERVER} not reachable: {type(exc).__name__}: {exc}"
    return None


@contextmanager
def temporary_schema() -> Iterator[str]:
    """A URL selecting a new schema, dropped afterwards."""
    schema = f"hangar_bench_{uuid.uuid4().hex[:12]}"
    asyncio.run(_run(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{SERVER}{'&' if '?' in SERVER else '?'}search_path={schema}"
    finally:
        asyncio.run(_run(f'DROP SCHEMA "{schema}" CASCADE'))
