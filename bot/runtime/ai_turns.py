"""The bot plays AI seats: right after a move is published, and again after a restart.

One driver task per channel at most. It plays AI moves one committed transaction at a time
until a human (or nobody) is to act, then publishes one board for the whole run, so a string of
AI moves becomes one message and only a human whose turn it is gets pinged.

AI_MOVE_DELAY counts from the move that handed the turn over: every `schedule()` (after each
published move, and at start-up) pushes the channel's due time, and the driver sleeps until the
due time it finds has passed, not a fixed delay from whenever it started. A run stops before its
next move when a human move pushed the due time meanwhile (simultaneous turns) and goes on once
it has passed. The moves of one run follow each other at once: they become one board anyway.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.services import ai as ai_service
from bot.services.games import ActResult
from bot.store.errors import StoreUnavailable
from rules.core import PlayerError, StaleActionError

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

MAX_RUN = 60  # AI moves before a board is published anyway (an all-AI table stays visible)
STORE_RETRY = 10.0  # seconds between tries while the database cannot be used

_drivers: dict[int, asyncio.Task[None]] = {}
_due: dict[int, float] = {}  # channel → loop time before which its AI seats do not move


def schedule(bot: HangarBot, channel_id: int) -> None:
    """AI seats of the channel move AI_MOVE_DELAY from now: start its driver, or push the due
    time of the one already waiting (it re-checks when done)."""
    loop = asyncio.get_running_loop()
    _due[channel_id] = loop.time() + bot.settings.ai_move_delay
    task = _drivers.get(channel_id)
    if task is not None and not task.done():
        return
    _drivers[channel_id] = asyncio.create_task(_drive(bot, channel_id))


def _held(channel_id: int) -> bool:
    """True while a move published less than AI_MOVE_DELAY ago holds the channel's AI back."""
    return _due.get(channel_id, 0.0) > asyncio.get_running_loop().time()


async def _until_due(channel_id: int) -> None:
    """Sleep until the channel's due time, however often `schedule()` pushes it meanwhile."""
    loop = asyncio.get_running_loop()
    while (wait := _due.get(channel_id, 0.0) - loop.time()) > 0:
        await asyncio.sleep(wait)


async def _drive(bot: HangarBot, channel_id: int) -> None:
    """Play AI moves and publish until no AI is to move."""
    try:
        while True:
            await _until_due(channel_id)
            try:
                results = await _play_run(bot, channel_id, seat=None, level=None)
            except StoreUnavailable:  # logged once by the store; no human move would retry it
                await asyncio.sleep(STORE_RETRY)
                continue
            if results and results[-1].finished:
                break
            if not results and not _held(channel_id):
                break  # no AI to move, and no move since: done (a run cut short goes on)
    except Exception:  # a failed AI run must not kill the bot; the next move retries
        log.exception("AI turns in channel %s failed", channel_id)
    finally:
        _drivers.pop(channel_id, None)
        if not _held(channel_id):
            _due.pop(channel_id, None)


async def _play_run(
    bot: HangarBot, channel_id: int, *, seat: int | None, level: str | None
) -> list[ActResult]:
    """Play consecutive AI moves (or `seat`'s turn as `level`); publish them as one board."""
    results: list[ActResult] = []
    while len(results) < MAX_RUN:
        result = await _one_move(bot, channel_id, seat, level)
        if result is None:
            break
        results.append(result)
        if result.finished:
            break
    if results:
        combined = ai_service.combined(results)
        bot.previews.remember(combined.loaded)
        await bot.announcer.publish(combined)
    return results


async def _one_move(
    bot: HangarBot, channel_id: int, seat: int | None, level: str | None
) -> ActResult | None:
    """One AI move committed, or None when no AI (or not `seat`) is to move, or when the
    driver must wait first (a move was published less than AI_MOVE_DELAY ago)."""
    for _attempt in range(3):
        if seat is None and _held(channel_id):
            return None
        try:
            loaded = await bot.service.load(channel_id)
        except PlayerError:
            return None  # the game ended or was abandoned meanwhile
        if seat is None:
            acting = ai_service.ai_to_move(loaded)
            lvl = ai_service.level_of(loaded, acting) if acting is not None else None
        else:
            active = loaded.record.status == "running" and seat in loaded.active_seats
            acting, lvl = (seat, level) if active else (None, None)
        if acting is None or lvl is None:
            return None
        key = await ai_service.choose(loaded, acting, lvl)
        try:
            return await ai_service.act_as_ai(
                bot.service, channel_id, acting, key, loaded.record.version
            )
        except StaleActionError:
            continue  # someone moved while the AI was thinking: look again
    return None


async def play_one_turn_for(
    bot: HangarBot, channel_id: int, seat: int, level: str = "normal"
) -> bool:
    """Play `seat`'s turn now as an AI of `level` (for timeouts); True if it moved."""
    ai_service.check_level(level)
    moved = bool(await _play_run(bot, channel_id, seat=seat, level=level))
    schedule(bot, channel_id)  # AI seats may be next
    return moved


async def resume_all(bot: HangarBot) -> None:
    """After a start-up: give every running game with an AI seat its driver (moves once)."""
    for channel_id in await ai_service.pending_ai_channels(bot.service):
        schedule(bot, channel_id)


async def idle(channel_id: int) -> None:
    """Wait until the channel's driver (if any) has finished (tests and shutdown)."""
    task = _drivers.get(channel_id)
    if task is not None:
        await asyncio.gather(task, return_exceptions=True)
