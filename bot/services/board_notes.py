"""Board notes: what a board shows about its seats' clocks, and a pinged player's digest."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.services.gametime import Clock
from bot.services.loading import LoadedGame
from bot.services.replay import stored_event
from bot.store import Store
from bot.store import clocks as cs
from bot.store.clocks import DONE, UserPrefs

DIGEST_LINES = 5


@dataclass(frozen=True)
class SeatNote:
    """What a board shows about one seat's clock."""

    seat: int
    deadline_at: float | None
    away_until: float | None
    paused: bool
    absent: bool
    timeouts: int


@dataclass
class Board:
    """Clock notes for one game (per seat, and whether an admin paused it), with what its turn
    pings need: the seated users' preferences and, when asked, a seat's digest."""

    paused: bool = False
    seats: list[SeatNote] = field(default_factory=list)
    prefs: dict[int, UserPrefs] = field(default_factory=dict)  # by user id
    digest_seat: int | None = None
    digest: list[str] = field(default_factory=list)  # public log lines since it last acted

    def prefs_of(self, user_id: int) -> UserPrefs:
        """A seated user's preferences as read with the board."""
        return self.prefs.get(user_id, UserPrefs(user_id))

    def digest_of(self, seat: int) -> list[str] | None:
        """The seat's digest if it was read with the board, else None."""
        return self.digest if seat == self.digest_seat else None


def log_lines(raw: list[dict[str, Any]]) -> list[str]:
    """Stored events as public log lines (seat placeholders unfilled)."""
    return [stored_event(event)[0].line_for(None) for event in raw]


class BoardNotes:
    """Reads the clocks, away periods and preferences a board and its pings show."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def board(self, loaded: LoadedGame, digest_seat: int | None = None) -> Board:
        """Deadlines, away periods, pauses and absences of a game's seats, the seated users'
        preferences and `digest_seat`'s digest: one read on the path of every board."""
        now = self.clock.now()
        async with self.store.reading(quick=True) as db:
            table = await cs.fetch_table(db, loaded.record.pk)
            clocks = await cs.fetch_clocks(db, loaded.record.pk)
            users = {u for u in (loaded.user_of(s) for s in range(len(loaded.seats))) if u}
            prefs = {user: await cs.fetch_prefs(db, user) for user in sorted(users)}
            digest = []
            if digest_seat is not None:
                raw = await cs.events_since_turn(db, loaded.record.pk, digest_seat, DIGEST_LINES)
                digest = log_lines(raw)
        notes = []
        for seat in range(len(loaded.seats)):
            c = clocks.get(seat)
            if c is None:
                continue
            user = loaded.user_of(seat)
            away = prefs[user].away_until if user else None
            away = away if away is not None and away > now else None
            deadline = c.deadline_at if c.active and c.stage != DONE else None
            notes.append(SeatNote(seat, deadline, away, c.paused, c.absent, c.timeouts))
        return Board(bool(table and table.paused), notes, prefs, digest_seat, digest)

    async def digest(self, game_pk: int, seat: int, limit: int = DIGEST_LINES) -> list[str]:
        """Public log lines since this seat last acted (seat placeholders unfilled)."""
        async with self.store.reading(quick=True) as db:  # a few rows by key, on a move's path
            raw = await cs.events_since_turn(db, game_pk, seat, limit)
        return log_lines(raw)
