"""Which lock a write transaction takes: one game, every game, or none.

SQLite serialises all writers anyway (one process, BEGIN IMMEDIATE), so these matter on
PostgreSQL, where several processes share the database. A move locks only its own game: moves of
different games never wait for each other. Work that spans games (a player's away period over
all their clocks, rebuilding ratings, migrations) takes the database-wide lock, which waits for
the games' transactions to end and holds new ones back until it is done.
"""

from __future__ import annotations

import enum

# Inside a `Lock.GAMES` transaction: `await db.hold_game(pk)` holds that game;
# `await db.hold(RATINGS)` holds everybody's ratings (a finished game updates several players').
RATINGS = "ratings"


class Lock(enum.Enum):
    """The advisory lock a write transaction starts with."""

    ALL = "all"  # exclusive: every other writer waits (cross-game work; the default)
    GAMES = "games"  # shared: runs beside other games; the caller then holds its game
    NONE = "none"  # nothing: single statements that read nothing they then write back
