"""The play-by-post clock: per-seat deadlines, reminders, away, pauses and downtime (issue 11).

Its reaction (`on_commit`) keeps each seat's clock in step with whose turn it is, inside every
committed change; what falls due is fired by `bot/services/timeouts.py`. No discord imports.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from bot.services.errors import NotInGameError, NotStartedError
from bot.services.games import GameService
from bot.services.loading import LoadedGame, held_open_game
from bot.services.moves import Committed
from bot.services.replay import stored_event
from bot.store import clocks as cs
from bot.store import repository as repo
from bot.store.clocks import (
    DEADLINE,
    DONE,
    HALF,
    GuildSettings,
    SeatClock,
    TableRow,
    UserPrefs,
    due_at,
)
from bot.store.cursor import Db
from bot.store.locks import Lock, hold_game
from bot.store.repository import GameRecord
from rules.core import RulesError

log = logging.getLogger(__name__)

TURN_LIMITS: dict[str, float] = {"off": 0, "12h": 12, "24h": 24, "48h": 48, "72h": 72, "1w": 168}
TurnLimit = Literal["off", "12h", "24h", "48h", "72h", "1w"]
OnTimeout = Literal["remind", "ai"]
Where = Literal["channel", "dm", "both"]
ABSENT_AFTER = 3
MAX_AWAY_DAYS = 30
MAX_EXTEND_HOURS = 336
DIGEST_LINES = 5
BATCH = 200
ROUNDS = 10


class TableOptions(BaseModel):
    """Options every game has, owned by the bot (None: the server's default)."""

    turn_limit: TurnLimit | None = Field(None, description="Time per turn")
    on_timeout: OnTimeout | None = Field(
        None, description="At the deadline: remind only, or ai (skip where a pass is allowed)"
    )
    thread: bool | None = Field(None, description="Play in a new thread of this channel")


def table_text(table: TableRow) -> str:
    """One line describing a game's table options (shown in the lobby)."""
    limit = "no turn limit" if table.turn_limit == "off" else f"turn limit {table.turn_limit}"
    return f"⏱ Table: {limit}, on timeout: {table.on_timeout}."


class Clock:
    """Wall time plus a scale: HANGAR_TIME_SCALE=3600 makes one game hour last one second."""

    def __init__(self, scale: float = 1.0, source: Callable[[], float] = time.time) -> None:
        self.scale = scale
        self.source = source

    def now(self) -> float:
        """Seconds since the epoch (real time: Discord shows these as timestamps)."""
        return self.source()

    def __call__(self) -> float:
        return self.now()

    def hours(self, hours: float) -> float:
        """Real seconds that `hours` of game time last."""
        return hours * 3600 / self.scale


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


def _log_lines(raw: list[dict[str, Any]]) -> list[str]:
    """Stored events as public log lines (seat placeholders unfilled)."""
    return [stored_event(event)[0].line_for(None) for event in raw]


class ClockService:
    """Deadlines for every running game, kept in the database and fired by one scheduler."""

    def __init__(
        self,
        games: GameService,
        clock: Clock | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.games = games
        self.store = games.store
        self.clock = clock or Clock()
        self.on_change = on_change

    # --- keeping clocks in step with the game -------------------------------------------------

    async def on_commit(self, db: Db, change: Committed) -> None:
        """Reaction: start clocks of seats that became active, stop the others (in the commit)."""
        after = change.after
        pk, now = after.record.pk, self.clock.now()
        table = await self.table_in(db, after.record)
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

    async def table_in(self, db: Db, record: GameRecord) -> TableRow:
        """A game's table options; games opened without them take the server's defaults."""
        table = await cs.fetch_table(db, record.pk)
        if table is None:
            table = self._resolve(record.pk, await cs.fetch_guild(db, record.guild_id), {})
            await cs.put_table(db, table)
        return table

    def _resolve(self, pk: int, guild: GuildSettings, chosen: dict[str, Any]) -> TableRow:
        """Table options: what the creator chose, else the server's defaults."""
        limit = str(chosen.get("turn_limit") or guild.turn_limit)
        policy = str(chosen.get("on_timeout") or guild.on_timeout)
        thread = chosen.get("thread")
        return TableRow(
            game_pk=pk,
            turn_limit=limit,
            limit_s=self.clock.hours(TURN_LIMITS[limit]),
            on_timeout=policy,
            thread=guild.threads if thread is None else bool(thread),
            reminders=guild.reminders,
            paused=False,
        )

    def _changed(self) -> None:
        """Wake the scheduler: a deadline may now be earlier than the one it sleeps towards."""
        if self.on_change is not None:
            self.on_change()

    # --- table options and settings ----------------------------------------------------------

    async def wants_thread(self, guild_id: int, chosen: dict[str, Any]) -> bool:
        """Whether a new game should get its own thread."""
        if chosen.get("thread") is not None:
            return bool(chosen["thread"])
        async with self.store.reading() as db:
            return (await cs.fetch_guild(db, guild_id)).threads

    async def set_table(self, record: GameRecord, chosen: dict[str, Any]) -> TableRow:
        """Store a new game's table options (chosen ones over the server's defaults)."""
        TableOptions.model_validate(chosen)
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await hold_game(db, record.pk)
            table = self._resolve(record.pk, await cs.fetch_guild(db, record.guild_id), chosen)
            await cs.put_table(db, table)
        return table

    async def table(self, record: GameRecord) -> TableRow:
        """A game's table options."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await hold_game(db, record.pk)
            return await self.table_in(db, record)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's defaults."""
        async with self.store.reading() as db:
            return await cs.fetch_guild(db, guild_id)

    async def update_guild(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's defaults (None values are left alone)."""
        async with self.store.transaction() as db:
            current = await cs.fetch_guild(db, guild_id)
            updated = dataclasses.replace(
                current, **{k: v for k, v in changes.items() if v is not None}
            )
            if updated.turn_limit not in TURN_LIMITS or updated.on_timeout not in get_args(
                OnTimeout
            ):
                raise RulesError("Unknown turn limit or timeout policy.")
            await cs.put_guild(db, updated)
        return updated

    # --- players -----------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> UserPrefs:
        """A user's notification and away preferences."""
        async with self.store.reading(quick=True) as db:
            return await cs.fetch_prefs(db, user_id)

    async def set_notify(self, user_id: int, where: Where) -> UserPrefs:
        """Where this user is told about turns; asking again retries DMs."""
        async with self.store.transaction() as db:
            prefs = dataclasses.replace(
                await cs.fetch_prefs(db, user_id), notify=where, dm_closed=False
            )
            await cs.put_prefs(db, prefs)
        return prefs

    async def mark_dm_closed(self, user_id: int) -> None:
        """Discord refused a DM (50007): use the channel until the user sets /notify again."""
        async with self.store.transaction() as db:
            prefs = await cs.fetch_prefs(db, user_id)
            await cs.put_prefs(db, dataclasses.replace(prefs, dm_closed=True))

    async def set_away(self, user_id: int, until: float) -> int:
        """Pause this user's running turns until `until`; returns how many clocks paused."""
        now = self.clock.now()
        if until <= now:
            raise RulesError("That time has already passed — give a future date or some hours.")
        if until - now > MAX_AWAY_DAYS * 86400 + 60:
            raise RulesError(f"You can be away for at most {MAX_AWAY_DAYS} days.")
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
            stored = await repo.fetch_game(db, c.game_pk)
            if stored is None:
                continue
            loaded = self.games.decoder.decode(stored)
            new = await self.held(db, loaded, await self.table_in(db, loaded.record), c, now)
            if new != c:
                count += 1
                await cs.put_clock(db, new)
                await cs.set_game_deadline(db, c.game_pk)
        return count

    async def back(self, channel_id: int, user_id: int) -> SeatClock:
        """`/game back`: the seat is no longer absent and its clock runs again."""
        now = self.clock.now()
        async with self.store.transaction(lock=Lock.GAMES) as db:
            loaded, seat = await self._seat_in(db, channel_id, user_id)
            table = await self.table_in(db, loaded.record)
            c = await cs.fetch_clock(db, loaded.record.pk, seat) or _idle(loaded.record.pk, seat)
            c = dataclasses.replace(c, timeouts=0, absent=False)
            if c.active and c.stage == DONE:
                c = await self.restart(db, loaded, table, c, now)
            await cs.put_clock(db, c)
            await cs.set_game_deadline(db, loaded.record.pk)
        self._changed()
        return c

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
            raise NotStartedError("The game has not started yet — its clock starts with it.")
        return self.games.decoder.decode(stored)

    # --- admins ------------------------------------------------------------------------------

    async def extend(self, channel_id: int, hours: float) -> list[SeatClock]:
        """Give every seat whose turn it is `hours` more (game time) for this turn."""
        if not 0 < hours <= MAX_EXTEND_HOURS:
            raise RulesError(f"Extend by 1 to {MAX_EXTEND_HOURS} hours.")
        extra, now = self.clock.hours(hours), self.clock.now()
        async with self.store.transaction(lock=Lock.GAMES) as db:
            loaded = await self._running(db, channel_id)
            table = await self.table_in(db, loaded.record)
            if table.limit_s <= 0:
                raise RulesError("This game has no turn limit, so there is nothing to extend.")
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
            table = dataclasses.replace(await self.table_in(db, loaded.record), paused=paused)
            await cs.put_table(db, table)
            for c in (await cs.fetch_clocks(db, loaded.record.pk)).values():
                await cs.put_clock(db, await self.held(db, loaded, table, c, now))
            await cs.set_game_deadline(db, loaded.record.pk)
        self._changed()
        return table

    # --- what boards show --------------------------------------------------------------------

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
                digest = _log_lines(raw)
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
        return _log_lines(raw)

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
