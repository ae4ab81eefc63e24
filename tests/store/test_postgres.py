"""What only the PostgreSQL backend must get right: URLs, TLS mode, types, placeholders, schema."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import LATEST, IntegrityError, open_store
from bot.store import repository as repo
from bot.store.migrations import migrate_postgres, postgres_schema_version, postgres_sql
from bot.store.postgres import translate
from tests.support.databases import postgres_schema

SNOWFLAKE = 1_577_121_039_895_232_515  # a real-sized Discord id: needs 64 bits


@pytest.fixture
async def url() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema."""
    async for fresh in postgres_schema():
        yield fresh


def test_placeholders_outside_quotes_become_numbered() -> None:
    """`?` → $1, $2 …; a `?` inside a string literal or quoted name is left alone."""
    sql = "SELECT '?', \"a?\" FROM t WHERE x = ? AND y IN (?, ?)"
    assert translate(sql) == "SELECT '?', \"a?\" FROM t WHERE x = $1 AND y IN ($2, $3)"


async def test_heroku_scheme_ids_and_timestamps_round_trip(url: str) -> None:
    """postgres:// works, 64-bit ids and sub-second times come back exactly."""
    heroku = url.replace("postgresql://", "postgres://", 1)
    store = await open_store(heroku)
    try:
        async with store.transaction() as db:
            pk = await repo.insert_game(
                db,
                guild_id=SNOWFLAKE,
                channel_id=SNOWFLAKE + 1,
                game_id="toy",
                options={"a": "é"},
                seed=2**31 - 1,
                creator_id=SNOWFLAKE + 2,
                now=1_764_547_200.123456,
            )
        async with store.reading() as db:
            stored = await repo.fetch_open_game(db, SNOWFLAKE + 1)
        assert stored is not None and stored.record.pk == pk
        assert stored.record.guild_id == SNOWFLAKE and stored.record.creator_id == SNOWFLAKE + 2
        assert stored.record.created_at == 1_764_547_200.123456
        assert stored.record.options == {"a": "é"}
    finally:
        await store.close()


async def test_sslmode_in_the_url_is_honoured(url: str) -> None:
    """sslmode=require refuses a server without TLS (the local one); sslmode=disable connects."""
    with pytest.raises(ConnectionError, match="SSL"):
        await open_store(url + "&sslmode=require")
    store = await open_store(url + "&sslmode=disable")
    await store.ping()
    await store.close()


async def test_migrations_run_once_and_a_newer_schema_is_refused(url: str) -> None:
    """A second open migrates nothing; a schema from newer code stops the start with a reason."""
    store = await open_store(url)
    try:
        assert await postgres_schema_version(store) == LATEST
        assert await migrate_postgres(store) == LATEST
        async with store.pool.acquire() as conn:
            await conn.execute("UPDATE hangar_schema SET version = $1", LATEST + 1)
    finally:
        await store.close()
    with pytest.raises(RuntimeError, match="newer than this code"):
        await open_store(url)


async def test_the_log_cannot_be_truncated(url: str) -> None:
    """TRUNCATE bypasses row triggers, so PostgreSQL gets a statement trigger as well."""
    store = await open_store(url)
    try:
        with pytest.raises(IntegrityError, match="append-only"):
            async with store.transaction() as db:
                await db.execute("TRUNCATE actions CASCADE")
    finally:
        await store.close()


async def test_portable_ddl_gets_64_bit_columns_and_a_generated_key(url: str) -> None:
    """A later migration's `INTEGER PRIMARY KEY` table hands out keys through lastrowid."""
    store = await open_store(url)
    try:
        async with store.transaction() as db:
            ddl = "CREATE TABLE notes (id INTEGER PRIMARY KEY, who INTEGER, at REAL, body TEXT)"
            await db.execute(postgres_sql(ddl))
            sql = "INSERT INTO notes (who, at, body) VALUES (?, ?, ?)"
            first = await db.execute(sql, (SNOWFLAKE, 0.5, "a"))
            second = await db.execute(sql, (SNOWFLAKE, 0.25, "b"))
        assert (first.lastrowid, second.lastrowid) == (1, 2)
        async with (
            store.reading() as db,
            db.execute("SELECT who, at FROM notes ORDER BY id") as cur,
        ):
            assert [(r["who"], r["at"]) for r in await cur.fetchall()] == [
                (SNOWFLAKE, 0.5),
                (SNOWFLAKE, 0.25),
            ]
    finally:
        await store.close()
