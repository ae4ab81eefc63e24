"""The PostgreSQL backend (asyncpg): the repository's `?` SQL runs unchanged through an adapter."""

from __future__ import annotations

import re
import zlib
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.store.cursor import FetchedCursor, PendingStatement
from bot.store.errors import PostgresIntegrityError
from bot.store.locks import Lock

# An INSERT (without RETURNING) into a table whose key PostgreSQL generates (an identity column:
# what a portable `INTEGER PRIMARY KEY` becomes) gets `RETURNING <key>`, so the cursor's lastrowid
# works as on SQLite. The identity column of each table is looked up once per store.
_IDENTITY_SQL = (
    "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass($1) "
    "AND a.attidentity <> '' AND NOT a.attisdropped"
)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)
_STATUS_COUNT = re.compile(r"(\d+)$")
_translated: dict[str, str] = {}


def translate(sql: str) -> str:
    """`?` placeholders → `$1, $2, …`, leaving string literals and quoted names alone."""
    cached = _translated.get(sql)
    if cached is not None:
        return cached
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            quote = None if char == quote else quote
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    _translated[sql] = result = "".join(out)
    return result


def lock_key(*parts: str) -> int:
    """A signed 64-bit advisory lock key for a name (stable across processes and versions)."""
    value = zlib.crc32("\x00".join(parts).encode()) | (zlib.adler32("/".join(parts).encode()) << 32)
    return value - (1 << 64) if value >= 1 << 63 else value


def game_space(namespace: str) -> int:
    """A signed 32-bit key space for a schema's game locks."""
    value = zlib.crc32(namespace.encode())
    return value - (1 << 32) if value >= 1 << 31 else value


def game_key(game_pk: int) -> int:
    """A game's key in that space (keys are positive and far below 2**31 in practice)."""
    return game_pk % 2147483647


class PgDb:
    """One pooled asyncpg connection speaking the aiosqlite subset the repository uses."""

    dialect = "postgres"

    def __init__(
        self, conn: asyncpg.Connection, identities: dict[str, str | None], namespace: str = ""
    ) -> None:
        self.conn = conn
        self._identities = identities  # table → generated key column (shared by the store)
        self.namespace = namespace  # the database and schema, so test schemas never share locks
        # Games are locked by (space, key) pairs: a key space of this schema's own.
        self.game_space = game_space(namespace)

    async def hold(self, name: str) -> None:
        """Hold a transaction-level advisory lock named `name` (released at COMMIT/ROLLBACK)."""
        await self.conn.execute("SELECT pg_advisory_xact_lock($1)", lock_key(self.namespace, name))

    async def hold_game(self, game_pk: int) -> None:
        """Hold one game's lock (the same one `repository.lock_open_game` takes)."""
        await self.conn.execute(
            "SELECT pg_advisory_xact_lock($1, $2)", self.game_space, game_key(game_pk)
        )

    async def _generated_key(self, table: str) -> str | None:
        """The identity column of `table`, if it has one (cached)."""
        table = table.lower()
        if table not in self._identities:
            self._identities[table] = await self.conn.fetchval(_IDENTITY_SQL, table)
        return self._identities[table]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PendingStatement:
        """Run one statement; `await` it for a cursor or use it with `async with`."""
        return PendingStatement(self, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        rows = list(rows)
        if rows:
            with _integrity():
                await self.conn.executemany(translate(sql), rows)

    async def run(self, sql: str, params: Sequence[Any]) -> FetchedCursor:
        """Execute with translated placeholders; RETURNING supplies lastrowid for generated keys."""
        text = translate(sql)
        insert = _INSERT_INTO.match(text)
        key = await self._generated_key(insert.group(1)) if insert else None
        if key and not _RETURNS_ROWS.search(text):
            text = f"{text.rstrip().rstrip(';')} RETURNING {key}"
        with _integrity():
            if _RETURNS_ROWS.search(text):
                rows = await self.conn.fetch(text, *params)
                lastrowid = int(rows[0][0]) if key and rows else None
                return FetchedCursor(rows, len(rows), lastrowid)
            status = await self.conn.execute(text, *params)
        found = _STATUS_COUNT.search(status or "")
        return FetchedCursor([], int(found.group(1)) if found else -1, None)


class _integrity:
    """Turn PostgreSQL's constraint errors into the store's IntegrityError (as SQLite raises)."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> None:
        if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
            raise PostgresIntegrityError(str(exc)) from exc


class PgStore:
    """A connection pool; write transactions are serialised like SQLite's BEGIN IMMEDIATE."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str, namespace: str) -> None:
        self.pool = pool
        self.url = url
        # Advisory locks are per database; the schema keeps parallel test schemas apart.
        self.namespace = namespace
        self._write_key = lock_key(namespace, "write")
        self._identities: dict[str, str | None] = {}

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 5) -> PgStore:
        """Connect to the server named by `url` and migrate its schema."""
        from bot.store.migrations import migrate_postgres

        pool = await create_pool(url, min_size=min_size, max_size=max_size)
        try:
            async with pool.acquire() as conn:
                namespace = await conn.fetchval(
                    "SELECT current_database() || '.' || current_schema()"
                )
            store = cls(pool, url, str(namespace))
            await migrate_postgres(store)
        except BaseException:
            await pool.close()
            raise
        return store

    @asynccontextmanager
    async def transaction(
        self, *, durable: bool = True, lock: Lock = Lock.ALL
    ) -> AsyncIterator[PgDb]:
        """A write transaction: committed on success, rolled back on any error.

        `durable=False` (bookkeeping that can be found again) commits without waiting for the
        WAL flush (synchronous_commit off for this transaction only).

        `lock` (bot/store/locks.py): `Lock.ALL` takes the database-wide advisory lock exclusively,
        so the transaction runs alone across all processes; `Lock.GAMES` takes it shared, so
        transactions of different games run side by side and each holds its own game's lock;
        `Lock.NONE` takes none.
        """
        # BEGIN, the lock and the commit mode go in one round trip (simple query protocol: the
        # key is an int of our own, never user text).
        opening = ["BEGIN"]
        if lock is Lock.ALL:
            opening.append(f"SELECT pg_advisory_xact_lock({self._write_key})")
        elif lock is Lock.GAMES:
            opening.append(f"SELECT pg_advisory_xact_lock_shared({self._write_key})")
        if not durable:
            opening.append("SET LOCAL synchronous_commit TO OFF")
        # _integrity also covers COMMIT, where deferred constraints are checked.
        with _integrity():
            async with self.pool.acquire() as conn:
                await conn.execute("; ".join(opening))
                try:
                    yield PgDb(conn, self._identities, self.namespace)
                except BaseException:
                    if not conn.is_closed():
                        await conn.execute("ROLLBACK")
                    raise
                await conn.execute("COMMIT")

    @asynccontextmanager
    async def reading(self, *, quick: bool = False) -> AsyncIterator[PgDb]:
        """A read-only transaction: several SELECTs see one committed snapshot (`quick` is for
        SQLite's sake: asyncpg never leaves the loop's thread)."""
        async with (
            self.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PgDb(conn, self._identities, self.namespace)

    @asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[None]:
        """Hold a named lock shared by every process on this database (e.g. command sync)."""
        key = lock_key(self.namespace, name)
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", key)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", key)

    async def ping(self) -> None:
        """Raise unless the server answers a query."""
        async with self.pool.acquire(timeout=5) as conn:
            await conn.fetchval("SELECT 1", timeout=5)

    async def close(self) -> None:
        """Close every pooled connection."""
        await self.pool.close()


def _numeric(text: str) -> int | float:
    """PostgreSQL `numeric` (SUM of integers, AVG …) as SQLite does: int if whole, else float."""
    return int(text) if text.lstrip("-").isdigit() else float(text)


async def _like_sqlite(conn: asyncpg.Connection) -> None:
    """Per connection: numbers come back as int/float (not Decimal), as the repository expects."""
    await conn.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text"
    )


async def create_pool(url: str, *, min_size: int = 1, max_size: int = 5) -> asyncpg.Pool:
    """A pool for `url`; asyncpg reads sslmode (and any server setting) from the URL itself.

    Five connections: writes are serialised anyway, and small plans (Heroku's has 20) must fit
    a few processes plus the `copy` and `migrate` tools.
    """
    pool = await asyncpg.create_pool(
        dsn=url, min_size=min_size, max_size=max_size, command_timeout=60, init=_like_sqlite
    )
    assert pool is not None
    return pool
