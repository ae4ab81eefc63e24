"""The play-by-post clock: per-seat deadlines, reminders, away, pauses and downtime (issue 11).

Its reaction (`on_commit`) keeps each seat's clock in step with whose turn it is, inside every
committed change; what falls due is fired by `bot/services/timeouts.py`. No discord imports.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from bot.services.errors import NotInGameError, NotStartedError, ServiceError
from bot.services.games import GameService
from bot.services.gametime import Clock
from bot.services.loading import LoadedGame, held_open_game
from bot.services.moves import Committed
from bot.services.preferences import Preferences
from bot.store import clocks as cs
from bot.store.clocks import (
    DEADLINE,
    DONE,
    HALF,
    SeatClock,
    TableRow,
    due_at,
)
from bot.store.cursor import Db
from bot.store.locks import Lock
from rules.core.errors import said

log = logging.getLogger(__name__)

ABSENT_AFTER = 3
# /admin extend or /admin clock in a lobby: what happened and what comes next.
NOT_STARTED_CLOCK = said(
    "The game has not started yet, so it has no clock to change — the creator starts it with "
    "/game start, and the turn clock starts with it."
)
MAX_AWAY_DAYS = 30
MAX_EXTEND_HOURS = 336


@dataclasses.dataclass(frozen=True)
class Comeback:
    """What `/game back` did: the seat's clock now, and what it cleared (nothing when the
    seat was neither absent nor behind on missed turns: `changed` is False)."""

    clock: SeatClock
    was_absent: bool
    missed: int  # timeouts cleared (each missed deadline counts one)

    @property
    def changed(self) -> bool:
        """True when the seat had an absent mark or missed turns to clear."""
        return self.was_absent or self.missed > 0


class ClockService:
    """Deadlines for every running game, kept in the database and fired by one scheduler."""

    def __init__(
        self,
        games: GameService,
        clock: Clock | None = None,
        on_change: Callable[[], None] | None = None,
        preferences: Preferences | None = None,
    ) -> None:
        self.games = games
        self.store = games.store
        self.clock = clock or Clock()
        self.on_change = on_change
        self.preferences = preferences or Preferences(games.store, self.clock)

    # --- keeping clocks in step with the game -------------------------------------------------

    async def on_commit(self, db: Db, change: Committed) -> None:
        """Reaction: start clocks of seats that became active, stop the others (in the commit)."""
        after = change.after
        pk, now = after.record.pk, self.clock.now()
        table = await self.preferences.table_in(db, after.record)
        clocks = await cs.fetch_clocks(db, pk)
        acted, user = await cs.last_action_user(db, pk)
        running = after.record.status == "running"
        active = set(after.active_seats) if running else set()
        changed = False
        for seat in range(len(after.seats)):
            stored = clocks.get(seat)
            c = stored or _idle(pk, seat)
            if user is not None and seat == acted:  # playing brings an absent player back
                c = dataclasses.replace(c, timeouts=0, absent=False)
                if c.active and seat in active and c.stage == DONE:
                    c = await self.restart(db, after, table, c, now)
            if seat in active and not c.active:
                c = await self.restart(db, after, table, c, now)
            elif seat not in active and c.active:
                c = stopped(c)
            if c != stored:  # most moves leave most seats' clocks as they were: no write
                await cs.put_clock(db, c)
                changed = True
        if changed:  # a deadline may be earlier now: the scheduler looks again
            await cs.set_game_deadline(db, pk)
            self._changed()

    async def restart(
        self, db: Db, loaded: LoadedGame, table: TableRow, c: SeatClock, now: float
    ) -> SeatClock:
        """A fresh period for a seat (paused straight away if its player is away)."""
        started = dataclasses.replace(
            c,
            active=True,
            turn_no=c.turn_no + 1,
            limit_s=table.limit_s,
            started_at=now,
            remaining=None,
        )
        if table.limit_s <= 0:
            return dataclasses.replace(started, stage=DONE, deadline_at=None, next_due=None)
        stage = HALF if table.reminders else DEADLINE
        deadline = now + table.limit_s
        running = dataclasses.replace(
            started,
            stage=stage,
            deadline_at=deadline,
            next_due=due_at(stage, deadline, table.limit_s),
        )
        return await self.held(db, loaded, table, running, now)

    async def held(
        self, db: Db, loaded: LoadedGame, table: TableRow, c: SeatClock, now: float
    ) -> SeatClock:
        """Pause or resume a clock according to an admin pause and its player's away period."""
        if not c.active or c.stage == DONE:
            return c
        user = loaded.user_of(c.seat)
        away = (await cs.fetch_prefs(db, user)).away_until if user else None
        if away is not None and away <= now:
            away = None
        if table.paused or away is not None:
            remaining = c.remaining
            if c.deadline_at is not None:
                remaining = max(c.deadline_at - now, 0.0)
            return dataclasses.replace(c, deadline_at=None, remaining=remaining, next_due=away)
        if c.deadline_at is None and c.remaining is not None:
            deadline = now + c.remaining
            return dataclasses.replace(
                c,
                deadline_at=deadline,
                remaining=None,
                next_due=due_at(c.stage, deadline, c.limit_s),
            )
        return c

    def _changed(self) -> None:
        """Wake the scheduler: a deadline may now be earlier than the one it sleeps towards."""
        if self.on_change is not None:
            self.on_change()

    async def set_away(self, user_id: int, until: float) -> int:
        """Pause this user's running turns until `until`; returns how many clocks paused."""
        now = self.clock.now()
        if until <= now:
            raise ServiceError(
                said("That time has already passed — give a future date or some hours.")
            )
        if until - now > MAX_AWAY_DAYS * 86400 + 60:
            raise ServiceError(said("You can be away for at most {days} days.", days=MAX_AWAY_DAYS))
        async with self.store.transaction() as db:
            prefs = await cs.fetch_prefs(db, user_id)
            await cs.put_prefs(db, dataclasses.replace(prefs, away_until=until))
            count = await self._rehold_user(db, user_id, now)
        self._changed()
        return count

    async def away_off(self, user_id: int) -> int:
        """End an away period; paused turns run again with the time they had left."""
        now = self.clock.now()
        async with self.store.transaction() as db:
            prefs = await cs.fetch_prefs(db, user_id)
            await cs.put_prefs(db, dataclasses.replace(prefs, away_until=None))
            count = await self._rehold_user(db, user_id, now)
        self._changed()
        return count

    async def _rehold_user(self, db: Db, user_id: int, now: float) -> int:
        """Re-apply pause rules to every active clock of this user."""
        count = 0
        for c in await cs.user_clocks(db, user_id):
            loaded = await self.games.decoder.load_in(db, c.game_pk)
            if loaded is None:
                continue
            new = await self.held(
                db, loaded, await self.preferences.table_in(db, loaded.record), c, now
            )
            if new != c:
                count += 1
                await cs.put_clock(db, new)
                await cs.set_game_deadline(db, c.game_pk)
        return count

    async def back(self, channel_id: int, user_id: int) -> Comeback:
        """`/game back`: the seat is no longer absent and its clock runs again.

        `/admin replace` calls it too, so the new player does not inherit the old one's
        timeouts; a seat with none to clear is left untouched (`Comeback.changed` is False).
        """
        now = self.clock.now()
        async with self.store.transaction(lock=Lock.GAMES) as db:
            loaded, seat = await self._seat_in(db, channel_id, user_id)
            stored = await cs.fetch_clock(db, loaded.record.pk, seat)
            before = stored or _idle(loaded.record.pk, seat)
            if not before.absent and before.timeouts == 0:
                return Comeback(before, was_absent=False, missed=0)
            table = await self.preferences.table_in(db, loaded.record)
            c = dataclasses.replace(before, timeouts=0, absent=False)
            if c.active and c.stage == DONE:
                c = await self.restart(db, loaded, table, c, now)
            await cs.put_clock(db, c)
            await cs.set_game_deadline(db, loaded.record.pk)
        self._changed()
        return Comeback(c, was_absent=before.absent, missed=before.timeouts)

    async def _seat_in(self, db: Db, channel_id: int, user_id: int) -> tuple[LoadedGame, int]:
        """The running game here and the user's seat in it."""
        loaded = await self._running(db, channel_id)
        seat = self.games.seat_of(loaded, user_id)
        if seat is None:
            raise NotInGameError()
        return loaded, seat

    async def _running(self, db: Db, channel_id: int) -> LoadedGame:
        """The running game in this channel."""
        stored = await held_open_game(db, channel_id)
        if stored.record.status != "running":
            raise NotStartedError(NOT_STARTED_CLOCK)
        return self.games.decoder.decode(stored)

    # --- admins ------------------------------------------------------------------------------

    async def extend(self, channel_id: int, hours: float) -> list[SeatClock]:
        """Give every seat whose turn it is `hours` more (game time) for this turn."""
        if not 0 < hours <= MAX_EXTEND_HOURS:
            raise ServiceError(said("Extend by 1 to {hours} hours.", hours=MAX_EXTEND_HOURS))
        extra, now = self.clock.hours(hours), self.clock.now()
        async with self.store.transaction(lock=Lock.GAMES) as db:
            loaded = await self._running(db, channel_id)
            table = await self.preferences.table_in(db, loaded.record)
            if table.limit_s <= 0:
                raise ServiceError(
                    said("This game has no turn limit, so there is nothing to extend.")
                )
            changed = []
            for c in (await cs.fetch_clocks(db, loaded.record.pk)).values():
                if not c.active:
                    continue
                new = _extended(c, extra, now)
                await cs.put_clock(db, new)
                changed.append(new)
            await cs.set_game_deadline(db, loaded.record.pk)
        self._changed()
        return changed

    async def pause(self, channel_id: int, paused: bool) -> TableRow:
        """Stop (or restart) the whole game's clock; remaining times are kept."""
        now = self.clock.now()
        async with self.store.transaction(lock=Lock.GAMES) as db:
            loaded = await self._running(db, channel_id)
            table = dataclasses.replace(
                await self.preferences.table_in(db, loaded.record), paused=paused
            )
            await cs.put_table(db, table)
            for c in (await cs.fetch_clocks(db, loaded.record.pk)).values():
                await cs.put_clock(db, await self.held(db, loaded, table, c, now))
            await cs.set_game_deadline(db, loaded.record.pk)
        self._changed()
        return table

    # --- the scheduler's side ----------------------------------------------------------------

    # --- downtime ----------------------------------------------------------------------------

    async def recover_downtime(self, grace: float) -> float:
        """After an outage longer than `grace`, extend every running clock by it; returns it."""
        now = self.clock.now()
        async with self.store.transaction() as db:
            beat = await cs.fetch_beat(db)
            outage = 0.0 if beat is None else max(now - beat, 0.0)
            if outage > grace:
                count = await cs.extend_running(db, outage)
                log.info("Bot was down %.0f s: %s running clocks extended", outage, count)
            else:
                outage = 0.0
            await cs.put_beat(db, now)
        return outage

    async def beat(self) -> None:
        """Record that the bot is up (the next start measures downtime from here).

        Not waited onto the disk: a beat lost to a power cut only makes the next start measure
        the outage from an earlier beat, which gives the players more time, never less."""
        async with self.store.transaction(durable=False, lock=Lock.NONE) as db:
            await cs.put_beat(db, self.clock.now())


def _idle(game_pk: int, seat: int) -> SeatClock:
    """A seat clock that has never run."""
    return SeatClock(game_pk, seat, False, 0, DONE, 0.0, None, None, None, None, 0, False)


def stopped(c: SeatClock) -> SeatClock:
    """The seat is no longer to act: nothing pending."""
    return dataclasses.replace(
        c, active=False, stage=DONE, deadline_at=None, remaining=None, next_due=None
    )


def _extended(c: SeatClock, extra: float, now: float) -> SeatClock:
    """This turn gets `extra` seconds more (a timed-out turn gets a new deadline)."""
    if c.remaining is not None and c.deadline_at is None:
        return dataclasses.replace(c, remaining=c.remaining + extra)
    if c.deadline_at is None or c.stage == DONE:
        deadline = now + extra
        return dataclasses.replace(
            c, stage=DEADLINE, deadline_at=deadline, next_due=deadline, limit_s=c.limit_s or extra
        )
    deadline = c.deadline_at + extra
    return dataclasses.replace(
        c, deadline_at=deadline, next_due=due_at(c.stage, deadline, c.limit_s)
    )
