"""A click on a private panel answered by the refreshed panel itself.

Every interaction needs one answer within 3 seconds. The usual way is two calls: a deferred update
at once, then an edit of the panel once the move is committed and drawn. A move takes a few tens
of milliseconds, so the refreshed panel can be the answer (an "update message" callback): one
call fewer, and the clicker's view changes in the same instant as the acknowledgement. A timer
defers the click anyway if the panel is not ready by ACK_GRACE (issue 14), or by the shorter
BUSY_GRACE for a click that arrived while others were being handled.

Under load the saved call counts most: 50 clicks at once in 50 channels were served about 10 %
faster answered by their panels than deferred first, the last panel 0.4 s after the clicks (300
at once: every click acknowledged within 1.1 s). Only a click with WAIT_LIMIT others ahead of it
is deferred at once: its panel would come near the grace anyway, and the timer then costs a call
on a loop that has none to spare.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, ClassVar

import aiohttp
import discord

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

# Seconds a click may wait for its panel before it is deferred. Discord allows 3 from the click;
# the rest is margin for the gateway's delay and a slow first call.
ACK_GRACE = 1.0
# The same for a click that arrives while others are being handled: a busy loop runs its timers
# late, and a player should see the click taken within a second (issue 29). On one core, with one
# grace of 1.0 s, the slowest of a 50-click burst was acknowledged after 0.80-1.02 s; with 0.5 s
# after 0.57-0.63 s, at the same throughput (the late clicks' deferrals are the only extra calls).
BUSY_GRACE = 0.5
# Clicks in flight beyond which a new one is deferred at once: at 5-10 ms of a busy loop each,
# the last of them would have its panel only just inside ACK_GRACE.
WAIT_LIMIT = 64


class ClickAnswer:
    """The one acknowledgement of a click: a deferred update, or the answer made under
    `exclusive()`, whichever comes first; never both."""

    in_flight = 0  # clicks being handled in this process: a busy bot defers at once
    _waiting: ClassVar[set[ClickAnswer]] = set()  # clicks still waiting for their panel
    _quiet: ClassVar[list[asyncio.Future[None]]] = []  # waiting for the clicks to be handled

    def __init__(self, interaction: discord.Interaction[HangarBot], *, wait: bool) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._deferring: asyncio.Task[None] | None = None
        if wait:
            grace = ACK_GRACE if self.calm() else BUSY_GRACE
            self._timer = asyncio.get_running_loop().call_later(grace, self._grace_over)
            self._waiting.add(self)

    @classmethod
    def calm(cls) -> bool:
        """True when no other click is being handled here (the panel can be the answer)."""
        return cls.in_flight == 0

    @classmethod
    def may_wait(cls) -> bool:
        """True when few enough clicks are ahead for a new one to wait for its panel."""
        return cls.in_flight < WAIT_LIMIT

    @classmethod
    async def defer_waiting(cls) -> None:
        """Defer every click still waiting for its panel (shutting down: a committed move's
        click must not fail because the process stopped before its panel was sent)."""
        waiting = list(cls._waiting)
        await asyncio.gather(*(answer._defer_quietly() for answer in waiting))

    @classmethod
    def started(cls) -> None:
        """A click is being handled."""
        cls.in_flight += 1

    @classmethod
    def finished(cls) -> None:
        """A click has been handled; the last one wakes whoever waits for `quiet`."""
        cls.in_flight -= 1
        if cls.in_flight == 0:
            quiet, cls._quiet = cls._quiet, []
            for waiter in quiet:
                if not waiter.done():
                    waiter.set_result(None)

    @classmethod
    async def quiet(cls, timeout: float) -> None:
        """Wait, at most `timeout` seconds, until the one click being handled here is done: work
        that can wait (recording a delivered board) then does not hold up its panel on the
        loop. Returns at once when no click or several are in flight (a busy bot waits for
        nothing)."""
        if cls.in_flight != 1:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        cls._quiet.append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            pass
        finally:
            if waiter in cls._quiet:
                cls._quiet.remove(waiter)

    @property
    def waiting(self) -> bool:
        """True while the click is unanswered and may still be answered by its panel."""
        return self._timer is not None

    async def defer(self) -> None:
        """Acknowledge now with a deferred update, unless the click is already answered."""
        self._stop_timer()
        async with self._lock:
            if not self.interaction.response.is_done():
                await self.interaction.response.defer()

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """Hold the first answer: inside, `interaction.response.is_done()` tells whether the
        click was deferred meanwhile (then edit or follow up) or is still to be answered."""
        async with self._lock:
            self._stop_timer()
            yield

    def _grace_over(self) -> None:
        """The panel is late: defer the click so that it does not fail."""
        self._timer = None
        self._deferring = asyncio.get_running_loop().create_task(self._defer_quietly())

    async def _defer_quietly(self) -> None:
        """`defer()` from the timer: a failure is logged (the click's own path reports it)."""
        try:
            await self.defer()
        except (discord.HTTPException, aiohttp.ClientError):
            log.warning("Could not acknowledge a waiting click", exc_info=True)

    def _stop_timer(self) -> None:
        """No deferral by timer any more."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiting.discard(self)
