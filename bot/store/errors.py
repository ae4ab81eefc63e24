"""The one exception type callers catch when a constraint refuses a write, on every backend."""

from __future__ import annotations

import sqlite3

# SQLite raises this itself; the PostgreSQL adapter re-raises its constraint errors as a subclass,
# so `except IntegrityError` (e.g. "another process opened a game here first") works on both.
IntegrityError = sqlite3.IntegrityError


class PostgresIntegrityError(IntegrityError):
    """A PostgreSQL unique, foreign-key, check or append-only violation."""


class StoreUnavailable(Exception):
    """The database cannot be used right now (read-only or full disk, I/O error); nothing was
    changed. `writing`: a write was refused (reads may still work)."""

    def __init__(self, reason: str, *, writing: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.writing = writing
