"""Reminders and deadlines as they fall due: each claimed once, a late turn played by the pipeline.

The scheduler (bot/runtime) asks `fire_due` what is due and delivers the notices. A reminder is
recorded in one transaction with a conditional claim. At a deadline the game's timeout policy
(an AI, or a pass) decides on a loaded snapshot outside any transaction; the moves then go
through the move pipeline together with the claim on the deadline, so a timeout is played
exactly once, whatever restarts, second processes or a player moving meanwhile do.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.services.board_notes import DIGEST_LINES, log_lines
from bot.services.clock import ABSENT_AFTER, ClockService, stopped
from bot.services.loading import ActResult, Decoder, LoadedGame
from bot.services.moves import ByBot, Moves
from bot.store import clocks as cs
from bot.store.clocks import DONE, HALF, TENTH, SeatClock, TableRow, due_at
from bot.store.cursor import Db
from bot.store.errors import StoreUnavailable
from bot.store.locks import Lock
from rules.core import Game, StaleActionError
from rules.core.ai import game_ai, plan_ai_turn

log = logging.getLogger(__name__)

BATCH = 200
ROUNDS = 10
DECIDE_TRIES = 3  # a late seat's turn decided again when the game moved meanwhile


# A timeout policy: the action keys to play for a late seat, or None to only remind.
TimeoutPolicy = Callable[[Game, Any, int], list[str] | None]
# Keys that end or pass a turn; "cancel" backs out of a half-made choice first.
PASS_KEYS = ("end", "pass", "skip", "decline")
BACK_KEYS = ("cancel",)


def plan_skip(game: Game, state: Any, seat: int, steps: int = 4) -> list[str] | None:
    """Keys that pass this seat's turn (planned on the pure rules), or None if none is legal.

    Takeoff!: "end" (or "decline" a last turn); Flight and First in Flight have no pass at the
    start of a turn, so they fall back to reminders.
    """
    keys: list[str] = []
    for _ in range(steps):
        legal = {a.key for a in game.legal_actions(state, seat)}
        key = next((k for k in PASS_KEYS if k in legal), None)
        if key is None:
            key = next((k for k in BACK_KEYS if k in legal), None)
        if key is None:
            return None
        state = game.apply(state, seat, key).state
        keys.append(key)
        if key in PASS_KEYS:
            return keys
    return None


def _remind_only(game: Game, state: Any, seat: int) -> list[str] | None:
    """The remind policy plays nothing."""
    return None


def has_ai(game: Game) -> bool:
    """True when the game ships AI players (rules/<game>/ai.py)."""
    try:
        game_ai(game.id)
    except ModuleNotFoundError:
        return False
    return True


def plan_ai(game: Game, state: Any, seat: int) -> list[str] | None:
    """The late seat's whole turn as a `normal` AI plays it; a pass where the game has no AI."""
    if has_ai(game):
        return plan_ai_turn(game, state, seat, "normal")
    return plan_skip(game, state, seat)


POLICIES: dict[str, TimeoutPolicy] = {"remind": _remind_only, "ai": plan_ai}


@dataclass(frozen=True)
class Notice:
    """Something the scheduler must tell Discord about, already recorded in the database."""

    kind: Literal["remind", "timeout"]
    loaded: LoadedGame
    seat: int
    user_id: int | None
    deadline_at: float | None
    left: float = 0.0
    digest: tuple[str, ...] = ()
    result: ActResult | None = None
    played: tuple[str, ...] = ()
    by_ai: bool = False  # an AI played the turn (policy "ai"), not a plain pass
    absent: bool = False
    timeouts: int = 0


class _Superseded(Exception):
    """The deadline was claimed or moved on by someone else while the policy decided."""


@dataclass(frozen=True)
class _Late:
    """A seat past its deadline, as read when it fell due."""

    clock: SeatClock
    loaded: LoadedGame
    table: TableRow
    policy: TimeoutPolicy


class Timeouts:
    """Fire what is due: reminders, and late turns played through the move pipeline."""

    def __init__(self, clocks: ClockService, moves: Moves, decoder: Decoder) -> None:
        self.clocks = clocks
        self.moves = moves
        self.decoder = decoder
        self.store = clocks.store
        self.clock = clocks.clock

    async def next_due(self) -> float | None:
        """When the scheduler must wake next (None: nothing scheduled)."""
        async with self.store.reading(quick=True) as db:  # MIN over an index
            return await cs.earliest_due(db)

    async def fire_due(self, now: float | None = None) -> list[Notice]:
        """Claim and record everything due by `now`; the notices say what to post."""
        now = self.clock.now() if now is None else now
        notices: list[Notice] = []
        for _ in range(ROUNDS):  # a fired item may make the same seat's next stage due
            async with self.store.reading(quick=True) as db:  # an indexed range, rarely a row
                due = await cs.due_clocks(db, now, BATCH)
            if not due:
                break
            for c in due:
                try:
                    notice = await self._fire(c, now)
                except StoreUnavailable:
                    raise  # the disk, not this clock: it fires once the database takes writes
                except Exception:
                    log.exception("Clock of game %s seat %s failed; stopped", c.game_pk, c.seat)
                    await self._give_up(c)
                    continue
                if notice is not None:
                    notices.append(notice)
        return notices

    async def _give_up(self, c: SeatClock) -> None:
        """Stop a clock whose item keeps failing, so the scheduler does not spin on it."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await db.hold_game(c.game_pk)
            await cs.claim(db, c, dataclasses.replace(c, stage=DONE, next_due=None))

    async def _fire(self, c: SeatClock, now: float) -> Notice | None:
        """One due item: a reminder recorded, or a late turn read, then played."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await db.hold_game(c.game_pk)
            fresh = await cs.fetch_clock(db, c.game_pk, c.seat)
            if fresh is None or fresh.next_due is None or fresh.next_due > now:
                return None  # another process (or a move) got there first
            loaded = await self.decoder.load_in(db, fresh.game_pk)
            running = loaded is not None and loaded.record.status == "running"
            if loaded is None or not running or fresh.seat not in loaded.active_seats:
                await cs.put_clock(db, stopped(fresh))
                return None
            table = await self.clocks.preferences.table_in(db, loaded.record)
            if fresh.paused:
                await cs.put_clock(db, await self.clocks.held(db, loaded, table, fresh, now))
                return None
            late = fresh.deadline_at is not None and fresh.deadline_at <= now
            if fresh.stage in (HALF, TENTH) and not late:
                return await self._remind(db, loaded, fresh, now)
            if fresh.stage == DONE:
                await cs.put_clock(db, dataclasses.replace(fresh, next_due=None))
                return None
            policy = POLICIES.get(table.on_timeout, _remind_only)
            if policy is _remind_only:
                return await self._unplayed(db, _Late(fresh, loaded, table, policy), now)
        # Nobody thinks inside a transaction: the policy decides on the snapshot read above.
        return await self._late_turn(_Late(fresh, loaded, table, policy), now)

    async def _remind(self, db: Db, loaded: LoadedGame, c: SeatClock, now: float) -> Notice | None:
        """The 50 % or 10 % reminder (only the later one if both are already due)."""
        assert c.deadline_at is not None
        stage = c.stage
        tenth = due_at(TENTH, c.deadline_at, c.limit_s)
        if stage == HALF and tenth is not None and tenth <= now:
            stage = TENTH
        following = stage + 1
        new = dataclasses.replace(
            c, stage=following, next_due=due_at(following, c.deadline_at, c.limit_s)
        )
        if not await cs.claim(db, c, new):
            return None
        raw = await cs.events_since_turn(db, c.game_pk, c.seat, DIGEST_LINES)
        lines = tuple(log_lines(raw))
        left = cs.STAGE_LEFT[stage]
        user = loaded.user_of(c.seat)
        return Notice("remind", loaded, c.seat, user, c.deadline_at, left=left, digest=lines)

    async def _late_turn(self, late: _Late, now: float) -> Notice | None:
        """Decide the late seat's turn, then commit it with the claim on its deadline."""
        c, loaded = late.clock, late.loaded
        claimed = _claimed(c)

        async def claim(db: Db, before: LoadedGame) -> None:
            if not await cs.claim(db, c, claimed):
                raise _Superseded()

        for _ in range(DECIDE_TRIES):
            keys = await asyncio.to_thread(late.policy, loaded.game, loaded.state, c.seat)
            if not keys:
                return await self._unplayed_now(late, now)
            try:
                result = await self.moves.play(
                    loaded.record.channel_id,
                    ByBot(c.seat),
                    keys,
                    version=loaded.record.version,
                    game_pk=loaded.record.pk,
                    guard=claim,
                )
            except _Superseded:
                return None
            except StaleActionError:
                # The game moved while the policy decided: decide again on what it is now.
                async with self.store.reading() as db:
                    fresh = await self.decoder.load_in(db, loaded.record.pk)
                if fresh is None or c.seat not in fresh.active_seats:
                    return None
                loaded = fresh
                continue
            return self._notice(late, claimed, result)
        return None

    async def _unplayed_now(self, late: _Late, now: float) -> Notice | None:
        """A deadline whose policy plays nothing, in a transaction of its own."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await db.hold_game(late.clock.game_pk)
            loaded = await self.decoder.load_in(db, late.clock.game_pk)
            if loaded is None:
                return None
            return await self._unplayed(db, dataclasses.replace(late, loaded=loaded), now)

    async def _unplayed(self, db: Db, late: _Late, now: float) -> Notice | None:
        """Claim a deadline nothing is played for: reminders start over unless now absent."""
        c = late.clock
        claimed = _claimed(c)
        if not await cs.claim(db, c, claimed):
            return None
        if not claimed.absent:
            # Reminders only: the turn stays, and a new period (with its reminders) starts.
            restarted = await self.clocks.restart(db, late.loaded, late.table, claimed, now)
            await cs.put_clock(db, restarted)
            await cs.set_game_deadline(db, late.loaded.record.pk)
        return self._notice(late, claimed, None)

    def _notice(self, late: _Late, claimed: SeatClock, result: ActResult | None) -> Notice:
        """What the scheduler tells the channel about a deadline."""
        c, loaded = late.clock, late.loaded
        return Notice(
            "timeout",
            result.loaded if result is not None else loaded,
            c.seat,
            loaded.user_of(c.seat),
            c.deadline_at,
            result=result,
            played=result.labels if result is not None else (),
            by_ai=late.policy is plan_ai and has_ai(loaded.game),
            absent=claimed.absent,
            timeouts=claimed.timeouts,
        )


def _claimed(c: SeatClock) -> SeatClock:
    """The clock once its deadline is claimed: done, one more timeout, absent after three."""
    timeouts = c.timeouts + 1
    return dataclasses.replace(
        c,
        stage=DONE,
        next_due=None,
        deadline_at=None,
        timeouts=timeouts,
        absent=timeouts >= ABSENT_AFTER,
    )
