"""What happens on each click or command: acknowledge, act through the service, then publish."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

import discord

from bot import notify
from bot.endchart import post_end_chart
from bot.errors import UserFacingError, report, send_ephemeral
from bot.present import (
    LOG_LINES,
    board_panel,
    hand_panel,
    lobby_text,
    lobby_view,
    table_message,
)
from bot.render.pool import SHOWN
from bot.services.games import STALE_MESSAGE, ActResult, LoadedGame
from rules.core import RulesError, StaleActionError

if TYPE_CHECKING:
    from bot.app import HangarBot

log = logging.getLogger(__name__)


def bot_of(interaction: discord.Interaction) -> HangarBot:
    """The HangarBot that received this interaction."""
    return interaction.client  # type: ignore[return-value]


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel (or thread) id; interactions always come from one here."""
    if interaction.channel_id is None:
        raise UserFacingError("Games live in server channels — use this in a channel.")
    return interaction.channel_id


async def load_same_game(interaction: discord.Interaction, pk: int) -> LoadedGame:
    """The channel's game, refusing components left over from an earlier game here."""
    loaded = await bot_of(interaction).service.load(channel_id_of(interaction))
    if loaded.record.pk != pk:
        raise StaleActionError(STALE_MESSAGE)
    return loaded


async def recent_lines(bot: HangarBot, loaded: LoadedGame) -> list[str]:
    """The latest public log lines of a game."""
    return await bot.service.story(loaded.record.channel_id, None, limit=LOG_LINES)


async def post_board(bot: HangarBot, loaded: LoadedGame, *, ping: tuple[int, ...]) -> None:
    """Post a new board message (it becomes the live one) and retire the old one's buttons."""
    channel = bot.get_partial_messageable(loaded.record.channel_id)
    panel = await board_panel(loaded, await recent_lines(bot, loaded), ping=ping)
    panel = await notify.decorate_board(bot, loaded, panel, ping)  # clock notes, DM-only pings
    kwargs = {"view": panel.view} if panel.view is not None else {}
    message = await channel.send(
        panel.content or None,
        embed=panel.embed,
        file=panel.file(),
        allowed_mentions=panel.mentions,
        **kwargs,
    )
    old = loaded.record.live_message_id
    record = dataclasses.replace(loaded.record, board_message_id=message.id)
    await bot.service.set_board_message(loaded.record.pk, message.id)
    await bot.service.set_live_message(
        loaded.record.pk, message.id if loaded.outcome is None else None
    )
    if old and old != message.id:
        await _retire(channel, old)
    if loaded.outcome is not None:
        await post_end_chart(bot, loaded)
    await notify.after_board(bot, dataclasses.replace(loaded, record=record), ping)


async def _retire(channel: discord.PartialMessageable, message_id: int) -> None:
    """Remove the buttons of an earlier turn's message (it may have been deleted)."""
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException:
        log.info("Could not retire message %s", message_id)


async def edit_live(bot: HangarBot, loaded: LoadedGame) -> bool:
    """Update the current turn's message in place; False if it is gone."""
    message_id = loaded.record.live_message_id
    if not message_id:
        return False
    channel = bot.get_partial_messageable(loaded.record.channel_id)
    panel = await board_panel(loaded, await recent_lines(bot, loaded), ping=(), live=True)
    panel = await notify.decorate_board(bot, loaded, panel, ())
    try:
        await channel.get_partial_message(message_id).edit(
            embed=panel.embed, attachments=[panel.file()], view=panel.view
        )
    except discord.HTTPException:
        log.info("Live message %s is gone; posting a new board", message_id)
        return False
    return True


async def publish(bot: HangarBot, result: ActResult) -> None:
    """After a committed action: show it, then let AI seats answer (bot/ai_turns.py)."""
    from bot import ai_turns

    await publish_only(bot, result)
    if any(seat.ai_level for seat in result.loaded.seats):
        ai_turns.schedule(bot, result.loaded.record.channel_id)


async def publish_only(bot: HangarBot, result: ActResult) -> None:
    """Edit the live message, or post a new board with pings."""
    loaded = result.loaded
    if result.finished:
        await post_board(bot, loaded, ping=tuple(range(len(loaded.names))))
        return
    same_turn = set(loaded.active_seats) == set(result.previous_active)
    milestone = any(e.kind in loaded.game.milestone_kinds for e in result.events)
    if same_turn and not milestone and await edit_live(bot, loaded):
        return
    await post_board(bot, loaded, ping=() if same_turn else loaded.active_seats)


async def send_hand(interaction: discord.Interaction, loaded: LoadedGame, *, edit: bool) -> None:
    """Show (or refresh, when `edit`) the user's private panel ephemerally."""
    seat = bot_of(interaction).service.seat_of(loaded, interaction.user.id)
    if seat is None:
        raise UserFacingError("You are not in this game.")
    if loaded.state is None:
        raise UserFacingError("The game has not started yet.")
    panel = await hand_panel(loaded, seat)
    if edit:
        shown = interaction.message
        # An unchanged private picture is kept (by id), not uploaded again (issue 14).
        keep = shown is not None and SHOWN.same(shown.id, panel.image) and shown.attachments
        files = list(shown.attachments) if keep and shown is not None else [panel.file()]
        message = await interaction.edit_original_response(
            embed=panel.embed, attachments=files, view=panel.view
        )
    else:
        message = await interaction.followup.send(
            embed=panel.embed, file=panel.file(), view=panel.view, ephemeral=True, wait=True
        )
    SHOWN.remember(message.id, panel.image)


async def handle_action(interaction: discord.Interaction, pk: int, version: int, key: str) -> None:
    """A click on an action button or select."""
    private = bool(interaction.message and interaction.message.flags.ephemeral)
    await interaction.response.defer()  # a deferred update: nothing visible until we publish
    try:
        bot = bot_of(interaction)
        await load_same_game(interaction, pk)
        result = await bot.service.act(
            channel_id_of(interaction), interaction.user.id, key, version
        )
        await publish(bot, result)
        if private:
            await send_hand(interaction, result.loaded, edit=True)
    except StaleActionError as exc:
        await _explain_stale(interaction, exc)
    except Exception as exc:  # every failure is reported to the user here
        await report(interaction, exc)


async def _explain_stale(interaction: discord.Interaction, exc: StaleActionError) -> None:
    """Refuse a stale click and say what the game is waiting for now."""
    from bot.present import status_line

    try:
        bot = bot_of(interaction)
        loaded = await bot.service.load(channel_id_of(interaction))
        now = status_line(loaded, bot.service.seat_of(loaded, interaction.user.id))
    except RulesError:
        now = ""
    await send_ephemeral(interaction, f"{exc}\n{now}".strip())


async def handle_hand(interaction: discord.Interaction, pk: int) -> None:
    """The "My hand" button."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        await send_hand(interaction, await load_same_game(interaction, pk), edit=False)
    except Exception as exc:  # every failure is reported to the user here
        await report(interaction, exc)


async def handle_table(interaction: discord.Interaction, pk: int) -> None:
    """The "Whole table" button: the full table picture, ephemerally, for anyone who asks."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        loaded = await load_same_game(interaction, pk)
        if loaded.state is None:
            raise UserFacingError("The game has not started yet.")
        await interaction.followup.send(**await table_message(loaded), ephemeral=True)
    except Exception as exc:  # every failure is reported to the user here
        await report(interaction, exc)


async def handle_lobby(interaction: discord.Interaction, pk: int, op: str) -> None:
    """Join / Leave / Start buttons on a lobby message."""
    await interaction.response.defer()
    try:
        bot = bot_of(interaction)
        await load_same_game(interaction, pk)
        channel_id = channel_id_of(interaction)
        user = interaction.user
        if op == "start":
            await start_game(bot, channel_id, user.id, is_admin(interaction))
            await interaction.edit_original_response(view=None)
            return
        if op == "ai":
            from bot.services.ai import add_ai_seat

            loaded = await add_ai_seat(
                bot.service, channel_id, user.id, is_admin(interaction), "normal"
            )
        elif op == "join":
            loaded = await bot.service.join(channel_id, user.id, user.display_name)
        else:
            loaded = await bot.service.leave(channel_id, user.id)
        view = lobby_view(loaded) if loaded.record.status == "lobby" else None
        text = lobby_text(loaded) if view else "The lobby was closed."
        await interaction.edit_original_response(content=text, view=view)
    except Exception as exc:  # every failure is reported to the user here
        await report(interaction, exc)


async def announce(
    interaction: discord.Interaction,
    text: str,
    *,
    note: str,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions | None = None,
) -> None:
    """Post a public outcome as a channel message and confirm privately to the user.

    Commands defer ephemerally, so a refusal is never shown to the whole channel.
    """
    channel = bot_of(interaction).get_partial_messageable(channel_id_of(interaction))
    kwargs = {"view": view} if view is not None else {}
    allowed = mentions or discord.AllowedMentions.none()
    await channel.send(text, allowed_mentions=allowed, **kwargs)
    await interaction.followup.send(note, ephemeral=True)


async def repost_board(interaction: discord.Interaction, *, ping_active: bool) -> None:
    """Post the channel's board again as a new (live) message; a lobby shows its seats."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = bot_of(interaction)
    loaded = await bot.service.load_latest(channel_id_of(interaction))
    if loaded.state is None:
        await interaction.followup.send(lobby_text(loaded), ephemeral=True)
        return
    await post_board(bot, loaded, ping=loaded.active_seats if ping_active else ())
    await interaction.followup.send("Board re-posted.", ephemeral=True)


async def start_game(bot: HangarBot, channel_id: int, user_id: int, admin: bool) -> None:
    """Start the lobby's game and post the first board, pinging whoever acts first."""
    from bot import ai_turns

    result = await bot.service.start(channel_id, user_id, admin)
    await post_board(bot, result.loaded, ping=result.loaded.active_seats)
    if any(seat.ai_level for seat in result.loaded.seats):
        ai_turns.schedule(bot, channel_id)


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server or Manage Channels, checked at run time."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_channels)
