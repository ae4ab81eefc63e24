"""Clock messages in Discord: reminders, timeouts, turn pings by DM, and clock notes on boards."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

import discord

from bot.edge.flow import edit_live, post_board, publish
from bot.edge.locale import public_locale, user_locale
from bot.edge.present import Panel, fill_seats, mention
from bot.i18n import ENGLISH, say, translate
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


def board_notes(loaded: LoadedGame, board: Board, locale: str = ENGLISH) -> list[str]:
    """Clock lines under a board (in its language): deadlines, away, pause, timeouts, absence."""
    if loaded.outcome is not None:
        return []
    lines = [translate(locale, "⏸ The clock is paused by an admin.")] if board.paused else []
    for note in board.seats:
        name = loaded.names[note.seat]
        if note.away_until is not None:
            until = stamp(note.away_until, "f")
            lines.append(
                translate(locale, "🌴 {player} is away until {time}", player=name, time=until)
            )
        if note.absent:
            lines.append(
                translate(
                    locale,
                    "💤 {player} is absent ({count} turns timed out) — /game back",
                    player=name,
                    count=note.timeouts,
                )
            )
        elif note.timeouts:
            lines.append(
                translate(
                    locale,
                    "⏰ {player}'s time ran out ({count} in a row)",
                    player=name,
                    count=note.timeouts,
                )
            )
        if note.deadline_at is not None and note.seat in loaded.active_seats:
            when = stamp(note.deadline_at)
            lines.append(
                translate(locale, "⏳ {player}'s deadline: {time}", player=name, time=when)
            )
    return lines


def digest_text(
    loaded: LoadedGame, lines: list[str] | tuple[str, ...], locale: str = ENGLISH
) -> str:
    """'Since your last turn' lines (public log only, in the reader's language), or ''."""
    if not lines:
        return ""
    told = (fill_seats(str(say(locale, line)), loaded)[:LINE_LIMIT] for line in lines)
    rows = "\n".join(f"• {line}" for line in told)
    return "\n" + translate(locale, "**Since your last turn:**") + "\n" + rows


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
    loaded: LoadedGame,
    panel: Panel,
    ping: tuple[int, ...],
    board: Board | None,
    locale: str = ENGLISH,
) -> Panel:
    """Add the clock notes to a board; turn pings go where each player asked.

    A ping in the channel is the mention alone: the board's embed under it already tells the
    recent moves (collapsed), so "since your last turn" is told once. A DM has no board under
    it, so `after_board` adds the digest there.
    """
    if board is None:
        return panel
    notes = board_notes(loaded, board, locale)
    if notes:
        text = (panel.embed.description or "") + "\n\n" + "\n".join(notes)
        panel.embed.description = text[:4000]
    if not ping or loaded.outcome is not None:
        return panel
    users = [u for u in (loaded.user_of(s) for s in ping) if u]
    here = [u for u in users if in_channel(board.prefs_of(u))]
    who = " ".join(mention(u) for u in here)
    content = translate(locale, "{who} — your turn.", who=who) if here else ""
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
        # A DM: the user's last known language (no interaction to ask; English before one).
        mine = user_locale(user, board.prefs_of(user).locale)
        digest = digest_text(loaded, lines, mine)
        text = translate(
            mine,
            "{who} — your turn in **{title}**: {link}",
            who=mention(user),
            title=loaded.game.title,
            link=board_link(loaded),
        )
        text += digest
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
    # The reminder speaks to one player: their last known language (English before one).
    prefs = await bot.preferences.prefs(user)
    mine = user_locale(user, prefs.locale)
    if notice.left >= 0.5:
        share = translate(mine, "half of your turn time is")
    else:
        share = translate(mine, "only 10 % of your turn time is")
    text = translate(
        mine,
        "{who} ⏳ Reminder: it is your turn in **{title}** — {share} left; time runs out "
        "{time}. Board: {link}",
        who=mention(user),
        title=loaded.game.title,
        share=share,
        time=stamp(notice.deadline_at),
        link=board_link(loaded),
    )
    text = (text + digest_text(loaded, notice.digest, mine))[:2000]
    if wants_dm(prefs) and await send_dm(bot, user, text):
        if in_channel(prefs):
            await _channel_ping(bot, loaded, user, text)
        return
    await _channel_ping(bot, loaded, user, text)


def played_summary(labels: tuple[str, ...], shown: int = 6, locale: str = ENGLISH) -> str:
    """The AI's moves in a line (labels in `locale`): the last few, and how many came before."""
    told = [str(say(locale, label)) for label in labels]
    if len(told) <= shown:
        return ", ".join(told)
    before = translate(locale, "{count} moves, then", count=len(told) - shown)
    return before + " " + ", ".join(told[-shown:])


async def _timeout(bot: HangarBot, notice: Notice) -> None:
    """'⏰ Time ran out for @x — …' in the channel, then the board as after any move."""
    loaded = notice.loaded
    language = await public_locale(bot, loaded.record.guild_id)
    who = mention(notice.user_id) or loaded.names[notice.seat]
    if notice.result is not None and notice.by_ai:
        moves = played_summary(notice.played, locale=language)
        what = translate(language, "the AI played their turn: {moves}", moves=moves)
    elif notice.result is not None:
        moves = ", ".join(str(say(language, label)) for label in notice.played)
        what = translate(language, "their turn was passed: {moves}", moves=moves)
    else:
        what = translate(
            language,
            "it is still their turn (reminders only). Admins: /admin extend or /admin replace.",
        )
    text = translate(language, "⏰ Time ran out for {who} — {what}", who=who, what=what)
    if notice.absent:
        name = loaded.names[notice.seat]
        text += "\n" + translate(
            language, "💤 {player} is now marked absent — back with /game back.", player=name
        )
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
