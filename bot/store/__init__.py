"""Persistence: the SQLite store, its migrations and the repository of SQL statements."""

from bot.store.connection import Store, connect, open_store
from bot.store.migrations import LATEST, migrate, schema_version
from bot.store.repository import ActionRecord, GameRecord, SeatRecord, Status, StoredGame

__all__ = [
    "LATEST",
    "ActionRecord",
    "GameRecord",
    "SeatRecord",
    "Status",
    "Store",
    "StoredGame",
    "connect",
    "migrate",
    "open_store",
    "schema_version",
]
