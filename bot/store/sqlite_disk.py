"""A SQLite database that cannot be written any more: refused in words, not by a dead process.

SQLite keeps a WAL database's index in `<db>-shm` and maps that file into memory. When the OS
stops letting anyone write it (the disk turned read-only, the files were made immutable), the
next store into the mapping is answered with SIGBUS: the process dies at once, logging nothing,
and every interaction goes unanswered. So each transaction and read first asks the OS whether
that file can still be written (one access() call) and, when it cannot, is refused with
StoreUnavailable without touching SQLite. SQLite's own refusals while writing (read-only or full
disk, I/O error) become the same error. The first refusal of an episode is one ERROR line; the
first commit after it, one line saying the database can be written again.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path
from types import TracebackType

from bot.store.errors import StoreUnavailable

log = logging.getLogger(__name__)

# Primary result codes meaning "the disk does not take this write" (not a locked or bad query).
UNWRITABLE_CODES = frozenset(
    {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN}
)


class DiskWatch:
    """Whether the database's files can be written, checked before each use; logs episodes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.shm = f"{path}-shm"
        self.trouble: str | None = None  # why the database cannot be written, during an episode
        self.reads = _Guard(self, writing=False)
        self.writes = _Guard(self, writing=True)

    def check(self, *, writing: bool) -> None:
        """Raise StoreUnavailable when SQLite's memory-mapped index can no longer be written."""
        # A missing -shm is SQLite's to create (a fresh database); only a refusal matters here.
        if os.access(self.shm, os.W_OK) or not os.path.exists(self.shm):
            return
        raise self.refused(_why(self.shm), writing=writing)

    def translate(self, exc: BaseException, *, writing: bool) -> StoreUnavailable | None:
        """The StoreUnavailable for SQLite's own "cannot write" errors; None for any other."""
        code = getattr(exc, "sqlite_errorcode", None)
        if not isinstance(exc, sqlite3.OperationalError) or code is None:
            return None
        if code & 0xFF not in UNWRITABLE_CODES:
            return None
        return self.refused(str(exc), writing=writing)

    def refused(self, reason: str, *, writing: bool) -> StoreUnavailable:
        """The error to raise; the first of an episode is logged (one line, no traceback)."""
        if self.trouble is None:
            log.error(
                "database cannot be written: %s (%s); moves are refused until it can be",
                self.path,
                reason,
            )
        self.trouble = reason
        return StoreUnavailable(reason, writing=writing)

    def committed(self) -> None:
        """A commit went through: an episode, if any, is over."""
        if self.trouble is not None:
            self.trouble = None
            log.warning("database can be written again: %s", self.path)


class _Guard:
    """`async with`: check before SQLite is touched, translate its "cannot write" errors after."""

    __slots__ = ("watch", "writing")

    def __init__(self, watch: DiskWatch, *, writing: bool) -> None:
        self.watch = watch
        self.writing = writing

    async def __aenter__(self) -> None:
        self.watch.check(writing=self.writing)

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is not None and (refusal := self.watch.translate(exc, writing=self.writing)):
            raise refusal from exc


def _why(path: str) -> str:
    """Why the OS refuses writes to `path`, as far as can be told without opening it.

    Never open it: closing any descriptor of a file drops every POSIX lock this process holds on
    it, SQLite's included.
    """
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return "the file system is read-only"
    except OSError as exc:
        return exc.strerror or str(exc)
    return f"the system refuses writes to {path}"
