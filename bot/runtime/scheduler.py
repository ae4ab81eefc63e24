"""One task for every clock: sleep until the earliest due row, fire it, sleep again.

RoboDanny's timer pattern: the database holds the deadlines; the task holds only the time of the
next one, and is woken (re-armed) whenever a commit may have made a deadline earlier. Memory does
not grow with the number of games: no task or timer per game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.services.clock import ClockService
from bot.services.timeouts import Notice, Timeouts
from bot.store.errors import StoreUnavailable

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

# A commit wakes the scheduler while its click is still being shown; the round waits this long
# (real seconds) so that its reads do not queue behind, or ahead of, that click's (issue 14).
# Deadlines are minutes apart: firing 50 ms later changes nothing anyone can see.
SETTLE = 0.05

# Posts one notice to Discord (a reminder, a timeout's board).
Deliver = Callable[[Notice], Awaitable[None]]


class Scheduler:
    """The single clock task of a bot process."""

    def __init__(
        self,
        bot: HangarBot,
        clocks: ClockService,
        timeouts: Timeouts,
        heartbeat: float,
        deliver: Deliver,
    ) -> None:
        self.bot = bot
        self.deliver = deliver  # the edge's poster of notices (bot/edge/notify.py)
        self.clocks = clocks
        self.timeouts = timeouts
        self.heartbeat = heartbeat
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._beaten: float | None = None  # loop time of the last beat written

    def rearm(self) -> None:
        """A deadline changed: recompute how long to sleep."""
        self._wake.set()

    async def recover(self) -> None:
        """Before anything else runs: extend running clocks by the time the bot was down."""
        # Two missed beats count as an outage; a normal restart is shorter than that.
        outage = await self.clocks.recover_downtime(grace=2 * self.heartbeat)
        if outage:
            log.info("Extended running turn clocks by %.1f s of downtime", outage)

    def start(self) -> None:
        """Start the task (once)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="hangar-scheduler")

    async def stop(self) -> None:
        """Cancel the task (on shutdown)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        """Fire what is due, beat, sleep until the next due row (or the next beat)."""
        await self.bot.wait_until_ready()
        while True:
            self._wake.clear()
            try:
                delay = await self.tick()
            except StoreUnavailable:  # the store has logged the episode once; retry later
                delay = self.heartbeat
            except Exception:
                log.exception("Scheduler round failed; retrying after a heartbeat")
                delay = self.heartbeat
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
                await asyncio.sleep(SETTLE)  # woken by a commit: let its click finish first

    async def _beat(self) -> None:
        """Record that the bot is up, once per heartbeat (a round woken by every move would
        otherwise write, and wait for the disk, on every move)."""
        now = asyncio.get_running_loop().time()
        if self._beaten is not None and now - self._beaten < self.heartbeat:
            return
        await self.clocks.beat()
        self._beaten = now

    async def tick(self) -> float:
        """One round; returns how long to sleep."""
        for notice in await self.timeouts.fire_due():
            try:
                await self.deliver(notice)
            except Exception:
                log.exception("Could not post a clock notice for game %s", notice.loaded.record.pk)
        await self._beat()
        due = await self.timeouts.next_due()
        if due is None:
            return self.heartbeat
        return min(max(due - self.clocks.clock.now(), 0.0), self.heartbeat)
