"""Statement results fetched at once: what both backends hand the repository's SQL.

Every statement runs, fetches its rows and releases its cursor in one step (for SQLite: one trip
to aiosqlite's thread instead of three — execute, fetch, close), so a move's ~25 statements cost
~25 thread hand-offs, not ~75. The repository's queries return a handful of rows each.
"""

from __future__ import annotations

from collections.abc import Awaitable, Generator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.store.locks import Lock


class FetchedCursor:
    """What a repository function gets from `await db.execute(...)`: rows, rowcount, lastrowid."""

    def __init__(self, rows: Sequence[Any], rowcount: int, lastrowid: int | None) -> None:
        self._rows = list(rows)
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> Any:
        """The next row, or None."""
        return self._rows.pop(0) if self._rows else None

    async def fetchall(self) -> list[Any]:
        """Every remaining row."""
        rows, self._rows = self._rows, []
        return rows

    async def close(self) -> None:
        """Nothing to release: the rows were fetched at once."""


class Runs(Protocol):
    """A backend connection that runs one statement and fetches its result."""

    def run(self, sql: str, params: Sequence[Any]) -> Awaitable[FetchedCursor]:
        """Execute `sql` and fetch everything it returns."""
        ...


class PendingStatement:
    """What `db.execute(...)` returns: awaitable (a cursor) and an async context manager."""

    def __init__(self, db: Runs, sql: str, params: Sequence[Any]) -> None:
        self._run = db.run(sql, params)

    def __await__(self) -> Generator[Any, None, FetchedCursor]:
        return self._run.__await__()

    async def __aenter__(self) -> FetchedCursor:
        return await self._run

    async def __aexit__(self, *exc: object) -> None:
        return None


class Db(Protocol):
    """The connection a store's transaction yields (SQLite or PostgreSQL): what the SQL uses."""

    dialect: str

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PendingStatement:
        """Run one statement; `await` it for a cursor or use it with `async with`."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        ...

    async def hold(self, name: str) -> None:
        """Hold the named lock until the transaction ends (see bot/store/locks.py)."""
        ...

    async def hold_game(self, game_pk: int) -> None:
        """Hold one game's lock until the transaction ends."""
        ...


class Store(Protocol):
    """A game store, SQLite or PostgreSQL: what the services use (bot/store/connection.py and
    bot/store/postgres.py implement it; nothing above the store knows which runs)."""

    dialect: str
    url: str

    def transaction(
        self, *, durable: bool = True, lock: Lock = ...
    ) -> AbstractAsyncContextManager[Db]:
        """A write transaction (see bot/store/locks.py for `lock`)."""
        ...

    def reading(self, *, quick: bool = False) -> AbstractAsyncContextManager[Db]:
        """A read-only transaction: its statements see one committed snapshot."""
        ...

    def exclusive(self, name: str) -> AbstractAsyncContextManager[None]:
        """A named lock shared by every process on this database."""
        ...

    async def ping(self) -> None:
        """Raise unless the database answers."""
        ...

    async def close(self) -> None:
        """Close the connections."""
        ...
