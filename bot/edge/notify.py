"""Clock messages in Discord: reminders, timeouts, turn pings by DM, and clock notes on boards."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

import discord

from bot.edge.flow import edit_live, post_board, publish
from bot.edge.present import Panel, fill_seats, mention
from bot.services.board_notes import Board, BoardNotes
from bot.services.games import LoadedGame
from bot.services.timeouts import Notice
from bot.store.clocks import UserPrefs

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
LINE_LIMIT = 150


def notes_of(bot: HangarBot) -> BoardNotes | None:
    """The bot's board notes (None in stripped-down test bots without clocks)."""
    return getattr(bot, "board_notes", None)


def board_link(loaded: LoadedGame) -> str:
    """A jump link to the game's latest board (or its channel)."""
    record = loaded.record
    link = f"https://discord.com/channels/{record.guild_id}/{record.channel_id}"
    return f"{link}/{record.board_message_id}" if record.board_message_id else link


def stamp(ts: float, style: str = "R") -> str:
    """Discord's own timestamp markup: every reader sees it in their time zone."""
    return f"<t:{int(ts)}:{style}>"


def board_notes(loaded: LoadedGame, board: Board) -> list[str]:
    """Clock lines under a board: deadlines, away, pause, timeouts and absence."""
    if loaded.outcome is not None:
        return []
    lines = ["⏸ The clock is paused by an admin."] if board.paused else []
    for note in board.seats:
        name = loaded.names[note.seat]
        if note.away_until is not None:
            lines.append(f"🌴 {name} is away until {stamp(note.away_until, 'f')}")
        if note.absent:
            lines.append(f"💤 {name} is absent ({note.timeouts} turns timed out) — /game back")
        elif note.timeouts:
            lines.append(f"⏰ {name}'s time ran out ({note.timeouts} in a row)")
        if note.deadline_at is not None and note.seat in loaded.active_seats:
            lines.append(f"⏳ {name}'s deadline: {stamp(note.deadline_at)}")
    return lines


def digest_text(loaded: LoadedGame, lines: list[str] | tuple[str, ...]) -> str:
    """'Since your last turn' lines (public log only), or ''."""
    if not lines:
        return ""
    rows = "\n".join(f"• {fill_seats(line, loaded)[:LINE_LIMIT]}" for line in lines)
    return f"\n**Since your last turn:**\n{rows}"


async def clock_board(bot: HangarBot, loaded: LoadedGame, ping: tuple[int, ...]) -> Board | None:
    """What a board about to be shown needs from the clocks, in one read: its notes, and for
    its turn pings the players' preferences and the one pinged seat's digest (None without a
    clock or before the start)."""
    notes = notes_of(bot)
    if notes is None or loaded.state is None:
        return None
    pinged = ping[0] if len(ping) == 1 and loaded.outcome is None else None
    return await notes.board(loaded, digest_seat=pinged)


def decorate_board(
    loaded: LoadedGame, panel: Panel, ping: tuple[int, ...], board: Board | None
) -> Panel:
    """Add the clock notes to a board; turn pings go where each player asked.

    A ping in the channel is the mention alone: the board's embed under it already tells the
    recent moves (collapsed), so "since your last turn" is told once. A DM has no board under
    it, so `after_board` adds the digest there.
    """
    if board is None:
        return panel
    notes = board_notes(loaded, board)
    if notes:
        text = (panel.embed.description or "") + "\n\n" + "\n".join(notes)
        panel.embed.description = text[:4000]
    if not ping or loaded.outcome is not None:
        return panel
    users = [u for u in (loaded.user_of(s) for s in ping) if u]
    here = [u for u in users if in_channel(board.prefs_of(u))]
    content = f"{' '.join(mention(u) for u in here)} — your turn." if here else ""
    allowed = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=u) for u in here]
    )
    return dataclasses.replace(panel, content=content[:2000], mentions=allowed)


async def after_board(
    bot: HangarBot, loaded: LoadedGame, ping: tuple[int, ...], board: Board | None
) -> None:
    """DM the turn to players who asked for DMs (channel fallback when their DMs are closed);
    `board` is what the clocks said as the board was made (`clock_board`)."""
    notes = notes_of(bot)
    if notes is None or board is None or not ping or loaded.outcome is not None:
        return
    for seat in ping:
        user = loaded.user_of(seat)
        if not user or not wants_dm(board.prefs_of(user)):
            continue
        lines = board.digest_of(seat)
        if lines is None:
            lines = await notes.digest(loaded.record.pk, seat)
        digest = digest_text(loaded, lines)
        text = (
            f"{mention(user)} — your turn in **{loaded.game.title}**: {board_link(loaded)}{digest}"
        )
        if not await send_dm(bot, user, text[:2000]):
            await _channel_ping(bot, loaded, user, text[:2000])


async def deliver(bot: HangarBot, notice: Notice) -> None:
    """Post a reminder or a timeout that the clock service has already recorded."""
    if notice.kind == "remind":
        await _remind(bot, notice)
    else:
        await _timeout(bot, notice)


async def _remind(bot: HangarBot, notice: Notice) -> None:
    """'⏳ Reminder' to the late player only: channel or DM as they asked."""
    notes, loaded, user = notes_of(bot), notice.loaded, notice.user_id
    if notes is None or not user or notice.deadline_at is None:
        return
    share = "half of your turn time is" if notice.left >= 0.5 else "only 10 % of your turn time is"
    text = (
        f"{mention(user)} ⏳ Reminder: it is your turn in **{loaded.game.title}** — {share} "
        f"left; time runs out {stamp(notice.deadline_at)}. Board: {board_link(loaded)}"
        f"{digest_text(loaded, notice.digest)}"
    )[:2000]
    prefs = await bot.preferences.prefs(user)
    if wants_dm(prefs) and await send_dm(bot, user, text):
        if in_channel(prefs):
            await _channel_ping(bot, loaded, user, text)
        return
    await _channel_ping(bot, loaded, user, text)


def played_summary(labels: tuple[str, ...], shown: int = 6) -> str:
    """The AI's moves in a line: the last few, and how many came before."""
    if len(labels) <= shown:
        return ", ".join(labels)
    return f"{len(labels) - shown} moves, then " + ", ".join(labels[-shown:])


async def _timeout(bot: HangarBot, notice: Notice) -> None:
    """'⏰ Time ran out for @x — …' in the channel, then the board as after any move."""
    loaded = notice.loaded
    who = mention(notice.user_id) or loaded.names[notice.seat]
    if notice.result is not None and notice.by_ai:
        what = "the AI played their turn: " + played_summary(notice.played)
    elif notice.result is not None:
        what = "their turn was passed: " + ", ".join(notice.played)
    else:
        what = "it is still their turn (reminders only). Admins: /admin extend or /admin replace."
    text = f"⏰ Time ran out for {who} — {what}"
    if notice.absent:
        text += f"\n💤 {loaded.names[notice.seat]} is now marked absent — back with /game back."
    channel = bot.get_partial_messageable(loaded.record.channel_id)
    await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
    if notice.result is not None:
        await publish(bot, notice.result)
    elif not await edit_live(bot, loaded):
        await post_board(bot, loaded, ping=())


async def send_dm(bot: HangarBot, user_id: int, text: str) -> bool:
    """DM a user; False when Discord refuses (50007 marks their DMs closed for next time)."""
    try:
        channel = await bot.create_dm(discord.Object(id=user_id))
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        if exc.code == DMS_CLOSED:
            log.info("User %s does not accept DMs; using the channel from now on", user_id)
            await bot.preferences.mark_dm_closed(user_id)
        else:
            log.warning("DM to %s failed (%s)", user_id, exc.code)
        return False
    return True


async def _channel_ping(bot: HangarBot, loaded: LoadedGame, user_id: int, text: str) -> None:
    """Post in the game's channel, pinging only this user."""
    channel = bot.get_partial_messageable(loaded.record.channel_id)
    allowed = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=user_id)]
    )
    await channel.send(text, allowed_mentions=allowed)


def wants_dm(prefs: UserPrefs) -> bool:
    """The user asked for DMs and they have not failed."""
    return prefs.notify in ("dm", "both") and not prefs.dm_closed


def in_channel(prefs: UserPrefs) -> bool:
    """The user is pinged in the channel (their choice, or because DMs are closed)."""
    return prefs.notify in ("channel", "both") or prefs.dm_closed
