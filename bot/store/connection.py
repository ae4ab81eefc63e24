"""Opening a store: SQLite (WAL, foreign keys, one serialised write path) or PostgreSQL.

`open_store(DATABASE_URL)` picks the backend; both stores offer transaction(), reading(),
exclusive(name), ping() and close(), and the `db` they yield runs the repository's `?` SQL.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import aiosqlite

from bot.settings import database_path, is_postgres_url
from bot.store.cursor import FetchedCursor, PendingStatement, Store
from bot.store.errors import StoreUnavailable
from bot.store.locks import Lock
from bot.store.migrations import migrate
from bot.store.postgres import PgStore
from bot.store.sqlite_disk import DiskWatch

DEFAULT_BUSY_TIMEOUT_MS = 5000


def _fetched(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> FetchedCursor:
    """Execute, fetch every row, close the cursor."""
    cursor = conn.execute(sql, params)
    try:
        return FetchedCursor(cursor.fetchall(), cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


def _many(conn: sqlite3.Connection, sql: str, rows: list[Sequence[Any]]) -> None:
    """One statement for each parameter row."""
    conn.executemany(sql, rows).close()


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if any."""
    conn.rollback()


RunInThread = Callable[[Callable[[], Any]], Awaitable[Any]]


class SqliteDb:
    """The connection a transaction yields: each statement runs, fetches and closes at once.

    aiosqlite's own cursors take three trips to its thread per statement (execute, fetch,
    close), each a hand-off that also contends with the event loop for the GIL; a move runs
    ~25 statements (issue 14). `inline` statements skip the trip altogether: used inside a write
    transaction, once BEGIN IMMEDIATE (the one step that can wait for a lock) has run in the
    thread — WAL writes under that lock take microseconds, and COMMIT's fsync stays in the thread.
    """

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, *, inline: bool = False) -> None:
        self.conn = conn
        self.inline = inline

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PendingStatement:
        """Run one statement; `await` it for a cursor or use it with `async with`."""
        return PendingStatement(self, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        batch = list(rows)
        if batch:
            await self._call(_many, sql, batch)

    async def rollback(self) -> None:
        """End the transaction without writing (a no-op when none is open)."""
        await self._call(_rollback)

    async def hold(self, name: str) -> None:
        """Nothing to hold: BEGIN IMMEDIATE already made this transaction the only writer."""

    async def hold_game(self, game_pk: int) -> None:
        """Nothing to hold (see `hold`)."""

    async def run(self, sql: str, params: Sequence[Any]) -> FetchedCursor:
        """Execute and fetch in one step."""
        fetched: FetchedCursor = await self._call(_fetched, sql, params)
        return fetched

    async def _call(self, work: Callable[..., Any], *args: Any) -> Any:
        """`work(sqlite3 connection, *args)`, here or in aiosqlite's thread (in queue order).

        `_execute` is aiosqlite's own queue (pinned in requirements.lock); tests/store cover it.
        """
        conn = self.conn
        if self.inline:
            return work(conn._conn, *args)
        queue = cast(RunInThread, conn._execute)
        return await queue(lambda: work(conn._conn, *args))


class SqliteStore:
    """One aiosqlite connection with a lock so coroutines never interleave inside a transaction."""

    dialect = "sqlite"

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: Path,
        synchronous: str = "FULL",
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    ) -> None:
        self.db = db
        self.synchronous = synchronous.upper()
        self.busy_timeout_ms = int(busy_timeout_ms)
        self.statements = SqliteDb(db)
        self.writes = SqliteDb(db, inline=True)
        self.path = path
        self.url = str(path)
        # Checked before each use: a database the OS stops writing is refused, not a SIGBUS.
        self.disk = DiskWatch(path)
        # Coroutines sharing one connection would otherwise see each other's uncommitted writes.
        self._lock = asyncio.Lock()
        self._named: dict[str, asyncio.Lock] = {}

    @classmethod
    async def open(
        cls, path: str | Path, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS
    ) -> SqliteStore:
        """Open the database at `path` and migrate it (same as `open_store`)."""
        store: SqliteStore = await open_store(path, busy_timeout_ms=busy_timeout_ms)
        return store

    @asynccontextmanager
    async def transaction(
        self, *, durable: bool = True, lock: Lock = Lock.ALL
    ) -> AsyncIterator[SqliteDb]:
        """A write transaction (BEGIN IMMEDIATE): committed on success, rolled back on any error.

        `durable=False` is for bookkeeping that can be found again (which message shows a board):
        its COMMIT does not wait for the disk. It survives a crash of the bot and reaches the disk
        with the next durable commit (WAL); only a power cut in between can lose it.
        """
        async with self._lock, self.disk.writes:
            relax = not durable and self.synchronous in ("FULL", "EXTRA")
            if relax:
                await self.writes.execute("PRAGMA synchronous = NORMAL")
            try:
                await self._begin_immediate()
                try:
                    yield self.writes
                    await self.db.commit()
                    self.disk.committed()
                except BaseException:
                    # Also after a failed COMMIT: never leave the shared connection mid-transaction.
                    await self.db.rollback()
                    raise
            finally:
                if relax:
                    await self.writes.execute(f"PRAGMA synchronous = {self.synchronous}")

    async def _begin_immediate(self) -> None:
        """Take the write lock: on the loop's thread when it is free (always, unless another
        program holds it), else waiting for it in aiosqlite's thread as long as busy_timeout."""
        await self.writes.execute("PRAGMA busy_timeout = 0")
        try:
            await self.writes.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError:  # locked: wait where waiting blocks nobody
            pass
        finally:
            await self.writes.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
        await self.statements.execute("BEGIN IMMEDIATE")

    @asynccontextmanager
    async def reading(self, *, quick: bool = False) -> AsyncIterator[SqliteDb]:
        """A read transaction: several SELECTs see one committed snapshot.

        BEGIN (deferred) and the closing rollback take no lock and read no page, so they run on
        the loop's thread; the SELECTs, which can be large (history, exports), go to the thread.
        `quick` reads (a few rows by key, on every move's path) run on the loop's thread too: in
        WAL mode a reader never waits for a lock, and each hand-off to the thread cost more than
        the lookup (issue 14).
        """
        async with self._lock, self.disk.reads:
            await self.writes.execute("BEGIN")
            try:
                yield self.writes if quick else self.statements
            finally:
                await self.writes.rollback()

    @asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[None]:
        """A named lock; SQLite serves one process (several are refused at start), so in-process."""
        async with self._named.setdefault(name, asyncio.Lock()):
            yield

    async def ping(self) -> None:
        """Raise unless the database answers a query and its last write went through."""
        async with self.reading() as db, db.execute("SELECT 1") as cursor:
            await cursor.fetchone()
        if self.disk.trouble is not None:
            raise StoreUnavailable(self.disk.trouble, writing=True)

    async def close(self) -> None:
        """Close the connection (WAL is checkpointed by SQLite on the last close)."""
        await self.db.close()


AnyStore = SqliteStore | PgStore


async def connect(
    path: str | Path, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS, synchronous: str = "FULL"
) -> aiosqlite.Connection:
    """A configured connection without migrations (tests use it to build old schemas)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: we issue BEGIN/COMMIT ourselves instead of sqlite3's implicit ones.
    # check_same_thread=False: write transactions run their statements on the event loop's
    # thread (see SqliteDb); the store's lock keeps one coroutine at a time on the connection.
    db = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
    db.row_factory = aiosqlite.Row
    await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    await db.execute("PRAGMA journal_mode = WAL")
    await db.execute("PRAGMA foreign_keys = ON")
    # FULL: a move acknowledged to a player has reached the disk, even across a power cut.
    if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"bad synchronous mode {synchronous!r}")
    await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
    return db


async def open_store(
    url: str | Path, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS, synchronous: str = "FULL"
) -> Any:  # a Store (bot/store/cursor.py); Any so tests may reach the SQLite file's own parts
    """Open the store DATABASE_URL names (postgres://…, sqlite:///path or a path), migrated.

    Typed Any: both stores have the same methods, and callers must not care which one they got.
    """
    if isinstance(url, str) and is_postgres_url(url):
        return await PgStore.open(url)
    path = database_path(url) if isinstance(url, str) else url
    db = await connect(path, busy_timeout_ms=busy_timeout_ms, synchronous=synchronous)
    try:
        await migrate(db)
    except BaseException:
        await db.close()
        raise
    return SqliteStore(db, Path(path), synchronous, busy_timeout_ms)


if TYPE_CHECKING:  # mypy proves both backends are the one Store the services use

    def _both_are_stores(sqlite: SqliteStore, postgres: PgStore) -> tuple[Store, Store]:
        return sqlite, postgres
