"""Delivering boards from the outbox: after each commit, at start-up and after Discord errors.

A committed change has an outbox row (written in its own transaction); this module posts or edits
the board, then clears the row and records the message ids in ONE write. A board that may have
reached Discord without being recorded (a crash, an error after sending) is looked for in the
channel's recent history before posting again, so every turn change pings its player once.
A new board shrinks the one before it to a line telling its turn (no picture, no buttons), so a
game's channel reads as its story (issue 28.7); the final board keeps its picture.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import re
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.edge import notify
from bot.edge.answer import ClickAnswer
from bot.edge.endchart import post_end_chart
from bot.edge.flow import edit_or_post
from bot.edge.limits import fit_embed
from bot.edge.locale import public_locale
from bot.edge.present import Panel, board_panel, footer
from bot.i18n import ENGLISH, say
from bot.lru import Lru
from bot.services.board_notes import Board
from bot.services.boards import QUIET_TURN, lines_in
from bot.services.games import ActResult, LoadedGame, PendingBoard
from bot.store.errors import StoreUnavailable
from bot.store.outbox import Announcement
from rules.core.errors import said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

# TEST-ONLY: with this set to 1 the process exits right after a move's commit, before any board
# is posted; set to "post" it exits after the board was posted but before that was recorded. The
# end-to-end tests use it to check that nothing is lost or announced twice. Never set it otherwise.
CRASH_AFTER_COMMIT = "HANGAR_TEST_CRASH_AFTER_COMMIT"
CRASH_EXIT_CODE = 70
# How long a player waits for the board before being told it will follow.
PUBLISH_WAIT = 5.0
# How long shutting down waits for deliveries under way.
CLOSE_WAIT = 2.0
# Pauses between delivery rounds while Discord keeps failing (then every minute).
RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
# Public re-posts (/game status) per channel: at most one per this many seconds.
REPOST_INTERVAL = 60.0
# How long recording a delivered board waits for the click that made it to show its panel.
RECORD_WAIT = 0.05
# Games and channels whose message ids and delivered version this process keeps: the stored
# record says the same once a delivery is recorded, and a host meets thousands of games over
# months (issue 29: memory flat however many channels play).
KEPT = 1024
# How far back to look for a board that was posted but not recorded.
SCAN_LIMIT = 25
DELIVERY_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)

MENTION = re.compile(r"<@!?(\d+)>")
# What a running game's board says once it was posted again below (/game status, resume).
REPOSTED = said("The board was posted again below.")


def crash_point(stage: str) -> None:
    """TEST-ONLY crash points after a commit ("1") and after a post ("post"); see above."""
    if os.environ.get(CRASH_AFTER_COMMIT) == stage:
        logging.shutdown()
        os._exit(CRASH_EXIT_CODE)


class Announcer:
    """Posts each committed change's board exactly once and keeps retrying when Discord fails."""

    def __init__(self, bot: HangarBot) -> None:
        self.bot = bot
        # A game's lock lives while someone holds or awaits it: then it is the same object.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Message ids this process recorded last: fresher than a record read before they were set.
        self._ids: Lru[int, tuple[int | None, int | None]] = Lru(KEPT)
        self._done: Lru[int, int] = Lru(KEPT)  # game pk → version of its last board delivered here
        self._suspect: set[int] = set()  # games whose board may be on Discord but not recorded
        self._tasks: set[asyncio.Task[BaseException | None]] = set()
        self._retry: asyncio.Task[None] | None = None
        self._reposted: Lru[int, float] = Lru(KEPT)  # channel id → loop time of its last repost

    # --- entry points ------------------------------------------------------------------------

    async def publish(self, result: ActResult) -> BaseException | None:
        """Deliver a committed change's board; the error when it did not arrive within a few s.

        A late or failed board stays in the outbox and is delivered in the background.
        """
        crash_point("1")
        if result.announcement is None:  # built elsewhere (e.g. a clock timeout): read the outbox
            pending = await self.bot.service.boards.pending_board(result.loaded.record.pk)
            if pending is None:
                return None
            board = pending
        else:
            board = PendingBoard(result.announcement, result.loaded, result.lines)
        shown = asyncio.Event()
        task = asyncio.get_running_loop().create_task(self._attempt(board, shown))
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return await self._until_shown(task, shown)

    async def _until_shown(
        self, task: asyncio.Task[BaseException | None], shown: asyncio.Event
    ) -> BaseException | None:
        """Wait until the board is on Discord or its attempt ended, at most PUBLISH_WAIT s.

        Recording the delivery (one write) and the follow-ups (retiring old buttons, DMs) go on
        in the background under the game's lock: the player's panel need not wait for them.
        """
        waiter = asyncio.ensure_future(shown.wait())
        try:
            done, _ = await asyncio.wait(
                {task, waiter}, timeout=PUBLISH_WAIT, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            waiter.cancel()
        if task in done:
            return task.result()
        return None if shown.is_set() else TimeoutError("the board is late")

    def _finished(self, task: asyncio.Task[BaseException | None]) -> None:
        """Forget a finished delivery; log a failure nobody is waiting for any more."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("Delivering a board failed", exc_info=task.exception())

    async def settle(self) -> None:
        """Wait for every delivery in progress, records and follow-ups included (tests, close)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def deliver_pending(self, *, suspect: bool) -> int:
        """Deliver every board still in the outbox; returns how many are still owed.

        `suspect` (at start-up): the previous process may have posted them without recording it.
        """
        owed = 0
        for pk in await self.bot.service.boards.pending():
            if suspect:
                self._suspect.add(pk)
            try:
                board = await self.bot.service.boards.pending_board(pk)
            except Exception:  # one damaged game must not block the others' boards
                log.exception("Game %s: its pending board cannot be loaded", pk)
                continue
            if board is None or not self._mine(board.loaded.record.guild_id):
                continue
            error = await self._attempt(board)
            # Missing permissions are not an outage: the row waits for the next change or start.
            if error is not None and not isinstance(error, discord.Forbidden):
                owed += 1
        return owed

    def schedule_retry(self) -> None:
        """Start the background retry loop unless it is already running."""
        if self._retry is None or self._retry.done():
            self._retry = asyncio.get_running_loop().create_task(self._retry_loop())

    def may_repost(self, channel_id: int) -> bool:
        """True (and counted) when the channel had no public re-post within REPOST_INTERVAL."""
        now = asyncio.get_running_loop().time()
        last = self._reposted.get(channel_id)
        if last is not None and now - last < REPOST_INTERVAL:
            return False
        self._reposted.put(channel_id, now)
        return True

    async def repost(
        self, loaded: LoadedGame, lines: Sequence[str], *, ping: tuple[int, ...]
    ) -> discord.Message:
        """Post the board again as a new live message (status, resume), retiring the old one."""
        pk = loaded.record.pk
        async with self._lock(pk):
            old = self._message_ids(loaded)
            panel, clocks = await self._panel(loaded, lines, ping)
            message = await self._send(loaded.record.channel_id, panel)
            new_live = message.id if loaded.outcome is None else None
            if loaded.outcome is None:  # a finished game's final board keeps its picture
                line = str(say(await self.language(loaded), REPOSTED))
                await self._tidy(loaded, old, message.id, line)
            await self.bot.service.boards.reposted(pk, message.id, new_live)
            self._ids.put(pk, (message.id, new_live))
        await self._after(loaded, message.id, ping, clocks)
        return message

    async def refresh(self, loaded: LoadedGame, lines: Sequence[str]) -> bool:
        """Edit the live turn message in place (e.g. new clock notes); False if there is none."""
        pk = loaded.record.pk
        async with self._lock(pk):
            _, live = self._message_ids(loaded)
            return await self._edit_live(loaded, lines, live)

    async def close(self) -> None:
        """Stop background work (boards still owed stay in the outbox for the next start).

        Deliveries under way get CLOSE_WAIT seconds to finish first: most are only recording a
        board already shown, and a record cut short means a channel scan at the next start.
        """
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=CLOSE_WAIT)
        for task in [*self._tasks, *([self._retry] if self._retry else [])]:
            task.cancel()

    # --- delivery ----------------------------------------------------------------------------

    async def _attempt(
        self, board: PendingBoard, shown: asyncio.Event | None = None
    ) -> BaseException | None:
        """Deliver one board (`shown` is set once Discord has it); on a Discord failure remember
        it and schedule a retry."""
        pk = board.announcement.game_pk
        try:
            await self._deliver(board, shown or asyncio.Event())
        except discord.NotFound as gone:  # the channel was deleted: nobody is left to tell
            log.warning("Game %s: channel gone (%s); dropping its board", pk, gone)
            await self.bot.service.boards.delivered(board.announcement, None, None)
            return gone
        except DELIVERY_ERRORS as exc:
            log.warning("Game %s: the board could not be delivered yet (%s)", pk, exc)
            self._suspect.add(pk)
            if not isinstance(exc, discord.Forbidden):
                self.schedule_retry()
            return exc
        return None

    async def _deliver(self, board: PendingBoard, shown: asyncio.Event) -> None:
        """Edit or post the board under the game's lock, then record it in one write."""
        pk = board.announcement.game_pk
        async with self._lock(pk):
            delivered = self._done.get(pk)
            if delivered is not None and delivered >= board.announcement.version:
                return  # a retry or a later change of this game already delivered it
            if pk in self._suspect:
                fresh = await self.bot.service.boards.pending_board(pk)
                if fresh is None:
                    self._suspect.discard(pk)
                    return
                board = fresh
            await self._edit_or_post(board, shown, recheck=pk in self._suspect)
            self._suspect.discard(pk)
            self._done.put(pk, board.announcement.version)

    async def _edit_or_post(
        self, board: PendingBoard, shown: asyncio.Event, *, recheck: bool
    ) -> None:
        """The board's delivery proper (lock held); `shown` is set as soon as Discord has it."""
        loaded, queued = board.loaded, board.announcement
        pk, channel_id = loaded.record.pk, loaded.record.channel_id
        old = self._message_ids(loaded)
        live = old[1]
        lines = board.lines
        move = edit_or_post(queued.new_board, live)
        if move == "edit" and await self._edit_live(loaded, lines, live):
            shown.set()
            await self._record(queued, None, None)
            return
        panel, clocks = await self._panel(loaded, lines, queued.ping)
        message = await self._already_posted(loaded, panel) if recheck else None
        if message is None:
            message = await self._send(channel_id, panel)
            crash_point("post")
        new_live = message.id if loaded.outcome is None else None
        self._ids.put(pk, (message.id, new_live))
        # Tidying the previous board, then recording the new one, does not hold up what follows
        # a new board (the end chart, DM pings), which is part of showing it. Recording last
        # makes a restart in between find the new board in the channel and tidy again (the
        # store still names the previous board), so no board keeps its picture by accident.
        recording = asyncio.ensure_future(self._tidy_then_record(loaded, queued, old, message.id))
        try:
            await self._after(loaded, message.id, queued.ping, clocks)
            shown.set()
        finally:
            await recording

    async def _tidy_then_record(
        self,
        loaded: LoadedGame,
        queued: Announcement,
        old: tuple[int | None, int | None],
        message_id: int,
    ) -> None:
        """Once the click that made a new board has its panel: tidy the board before it, then
        record the new one."""
        await ClickAnswer.quiet(RECORD_WAIT)
        await self._tidy(loaded, old, message_id, await self._summary(loaded, queued))
        new_live = message_id if loaded.outcome is None else None
        await self.bot.service.boards.delivered(queued, message_id, new_live)

    async def _tidy(
        self,
        loaded: LoadedGame,
        old: tuple[int | None, int | None],
        new: int,
        line: str,
    ) -> None:
        """Shrink the previous board (`old`: board and live message ids) to `line` (the turn it
        showed, told when that turn ended) with no picture and no buttons, in one edit.

        One edit per new board, never a sweep of the channel. A board that is gone (404) or
        that Discord refuses to edit stays as it was: the move stands either way.
        """
        board, live = old
        channel_id = loaded.record.channel_id
        if live and live not in (board, new):  # a live message apart from the board: buttons
            await self._retire(channel_id, live, new)
        if not board or board == new:
            return
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(board)
        try:
            await message.edit(
                content=line,
                embeds=[],
                attachments=[],
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except DELIVERY_ERRORS as exc:  # a board left as it was never costs the move its record
            log.info("Game %s: board %s stays as it was (%s)", loaded.record.pk, board, exc)

    async def _record(
        self, queued: Announcement, message_id: int | None, live_id: int | None
    ) -> None:
        """Record a delivered board, once the click that made it has its panel (a calm bot)."""
        await ClickAnswer.quiet(RECORD_WAIT)
        await self.bot.service.boards.delivered(queued, message_id, live_id)

    async def _panel(
        self, loaded: LoadedGame, lines: Sequence[str], ping: tuple[int, ...], *, live: bool = False
    ) -> tuple[Panel, Board | None]:
        """The board message in the server's language (picture, log lines, clock notes and the
        turn pings), and what the clocks said for it (the DM pings that follow the board use it
        too)."""
        language = await self.language(loaded)
        told = lines_in(lines, language)
        # The clocks are read while the picture is drawn (they do not depend on each other).
        panel, board = await asyncio.gather(
            board_panel(loaded, told, ping=ping, live=live, locale=language),
            notify.clock_board(self.bot, loaded, ping),
        )
        panel = notify.decorate_board(loaded, panel, ping, board, language)
        return dataclasses.replace(panel, embed=fit_embed(panel.embed)), board

    async def _send(self, channel_id: int, panel: Panel) -> discord.Message:
        """Post a new board message."""
        channel = self.bot.get_partial_messageable(channel_id)
        if panel.view is not None:
            return await channel.send(
                panel.content or None,
                embed=panel.embed,
                file=panel.file(),
                allowed_mentions=panel.mentions,
                view=panel.view,
            )
        return await channel.send(
            panel.content or None,
            embed=panel.embed,
            file=panel.file(),
            allowed_mentions=panel.mentions,
        )

    async def _edit_live(self, loaded: LoadedGame, lines: Sequence[str], live: int | None) -> bool:
        """Update the current turn's message in place; False if it is gone."""
        if not live:
            return False
        panel, _ = await self._panel(loaded, lines, (), live=True)
        channel = self.bot.get_partial_messageable(loaded.record.channel_id)
        try:
            await channel.get_partial_message(live).edit(
                embed=panel.embed, attachments=[panel.file()], view=panel.view
            )
        except discord.NotFound:
            log.info("Live message %s is gone; posting a new board", live)
            return False
        return True

    async def _after(
        self, loaded: LoadedGame, message_id: int, ping: tuple[int, ...], clocks: Board | None
    ) -> None:
        """After a posted board is recorded: the end chart of a finished game, and turn pings by
        DM for players who asked for them (`clocks`: what the clocks said for the board)."""
        record = dataclasses.replace(loaded.record, board_message_id=message_id)
        try:
            if loaded.outcome is not None:
                await post_end_chart(self.bot, loaded)
            if ping:
                shown = dataclasses.replace(loaded, record=record)
                await notify.after_board(self.bot, shown, ping, clocks)
        except DELIVERY_ERRORS:
            log.warning("Game %s: follow-up messages failed", loaded.record.pk, exc_info=True)

    async def _already_posted(self, loaded: LoadedGame, panel: Panel) -> discord.Message | None:
        """A board for exactly this version (with its pings) posted before a crash, if any."""
        marker = footer(loaded, await self.language(loaded))
        users = MENTION.findall(panel.content)
        me = self.bot.user.id if self.bot.user else None
        channel = self.bot.get_partial_messageable(loaded.record.channel_id)
        try:
            async for message in channel.history(limit=SCAN_LIMIT):
                if message.author.id != me or not message.embeds:
                    continue
                if message.embeds[0].footer.text != marker:
                    continue
                if all(f"<@{user}>" in message.content for user in users):
                    pk, version = loaded.record.pk, loaded.record.version
                    log.info("Game %s: board for move %s was already posted", pk, version)
                    return message
        except discord.Forbidden:
            log.info("Cannot read history in %s; posting the board", loaded.record.channel_id)
        return None

    async def _retire(self, channel_id: int, old: int | None, new: int) -> None:
        """Remove the buttons of an earlier turn's message (it may have been deleted)."""
        if not old or old == new:
            return
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.get_partial_message(old).edit(view=None)
        except discord.HTTPException:
            log.info("Could not retire message %s", old)

    async def _retry_loop(self) -> None:
        """Deliver the outbox again with growing pauses until nothing is owed."""
        for attempt in range(10_000):  # bounded: about a week at one round a minute
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            try:
                owed = await self.deliver_pending(suspect=False)
            except StoreUnavailable:  # the store has logged the episode once
                continue
            except Exception:
                log.exception("Delivering pending boards failed; will retry")
                continue
            if owed == 0:
                return

    def _mine(self, guild_id: int) -> bool:
        """True unless another process runs this guild's shard (it delivers that board)."""
        settings = getattr(self.bot, "settings", None)
        count = getattr(settings, "shard_count", None)
        ids = getattr(settings, "shard_ids", None)
        if not count or ids is None:
            return True
        return (guild_id >> 22) % count in ids

    async def language(self, loaded: LoadedGame) -> str:
        """The language of a game's public messages (its server's; no query once known)."""
        return await public_locale(self.bot, loaded.record.guild_id)

    async def _summary(self, loaded: LoadedGame, queued: Announcement) -> str:
        """The line the board before shrinks to: the outbox's English summary, or the turn told
        again in the server's language (once the new board is shown: off the click's path)."""
        language = await self.language(loaded)
        if language == ENGLISH or not queued.summary:
            return queued.summary or QUIET_TURN
        try:
            return await self.bot.service.boards.turn_summary(loaded.record.pk, language)
        except StoreUnavailable:  # the English line is better than none
            return queued.summary

    def _lock(self, pk: int) -> asyncio.Lock:
        """The lock that serialises deliveries of one game's boards."""
        lock = self._locks.get(pk)
        if lock is None:
            lock = self._locks[pk] = asyncio.Lock()
        return lock

    def _message_ids(self, loaded: LoadedGame) -> tuple[int | None, int | None]:
        """The game's board and live message ids: as this process last recorded them, else
        as stored."""
        kept = self._ids.get(loaded.record.pk)
        if kept is not None:
            return kept
        return loaded.record.board_message_id, loaded.record.live_message_id
