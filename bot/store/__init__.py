"""Persistence: SQLite or PostgreSQL stores, their migrations and the repository of SQL."""

from bot.store.connection import SqliteStore, connect, open_store
from bot.store.cursor import Db, Store
from bot.store.errors import IntegrityError
from bot.store.migrations import LATEST, migrate, schema_version
from bot.store.postgres import PgStore
from bot.store.repository import ActionRecord, GameRecord, SeatRecord, Status, StoredGame

__all__ = [
    "LATEST",
    "ActionRecord",
    "Db",
    "GameRecord",
    "IntegrityError",
    "PgStore",
    "SeatRecord",
    "SqliteStore",
    "Status",
    "Store",
    "StoredGame",
    "connect",
    "migrate",
    "open_store",
    "schema_version",
]
