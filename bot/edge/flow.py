"""What happens on each click or command: acknowledge, act through the service, then publish."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.edge.answer import ClickAnswer
from bot.edge.components import dynamic_view
from bot.edge.errors import (
    MISSING_PERMISSIONS,
    SAVED_BOARD_FOLLOWS,
    UserFacingError,
    explain,
    report,
    send_ephemeral,
    unwrap,
)
from bot.edge.limits import clip, fit_embed
from bot.edge.locale import interaction_language, private_locale, public_locale
from bot.edge.present import (
    LOG_LINES,
    Panel,
    board_panel,
    hand_panel,
    lobby_text,
    lobby_view,
    status_line,
    table_message,
)
from bot.heap import TRIM
from bot.i18n import say
from bot.render.pool import POOL, SHOWN
from bot.runtime import ai_turns
from bot.services.ai import add_ai_seat
from bot.services.games import STALE_MESSAGE, ActResult, LoadedGame
from bot.store.errors import StoreUnavailable
from rules.core import RulesError, StaleActionError, messages
from rules.core.errors import said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)


def channel_id_of(interaction: discord.Interaction[HangarBot]) -> int:
    """The channel (or thread) id; interactions always come from one here."""
    if interaction.channel_id is None:
        raise UserFacingError(said("Games live in server channels — use this in a channel."))
    return interaction.channel_id


BoardMove = Literal["edit", "post"]
LOBBY_CLOSED = said("The lobby was closed.")
REPOSTED_RECENTLY = said(
    "The board was re-posted here less than a minute ago — this copy is just for you."
)
BOARD_REPOSTED = said("Board re-posted.")


def edit_or_post(new_board: bool, live_message_id: int | None) -> BoardMove:
    """Edit the live turn message in place, or post a new board message.

    `new_board` comes from the outbox row (a turn change, a milestone or the end); without a
    live message there is nothing to edit.
    """
    return "edit" if not new_board and live_message_id else "post"


async def load_same_game(interaction: discord.Interaction[HangarBot], pk: int) -> LoadedGame:
    """The channel's game, refusing components left over from an earlier game here."""
    loaded = await interaction.client.service.load(channel_id_of(interaction))
    if loaded.record.pk != pk:
        raise StaleActionError(STALE_MESSAGE)
    return loaded


async def publish(bot: HangarBot, result: ActResult) -> BaseException | None:
    """After a commit: deliver the queued board (None) or the error, then let AI seats answer."""
    late = await publish_only(bot, result)
    if any(seat.ai_level for seat in result.loaded.seats):
        ai_turns.schedule(bot, result.loaded.record.channel_id)
    return late


async def publish_only(bot: HangarBot, result: ActResult) -> BaseException | None:
    """Deliver the queued board (None) or the error; a late board follows from the outbox."""
    bot.previews.remember(result.loaded)  # the next click's pictures can be drawn ahead
    return await bot.announcer.publish(result)


async def recent_lines(
    bot: HangarBot, loaded: LoadedGame, language: str | None = None
) -> list[str]:
    """The latest public log lines of a game, in `language` (None: the server's)."""
    if language is None:
        language = await public_locale(bot, loaded.record.guild_id)
    channel_id = loaded.record.channel_id
    return await bot.service.boards.story(channel_id, None, limit=LOG_LINES, language=language)


async def post_board(bot: HangarBot, loaded: LoadedGame, *, ping: tuple[int, ...]) -> None:
    """Post the board again as the new live message (no turn change: nothing is owed)."""
    await bot.announcer.repost(loaded, await recent_lines(bot, loaded), ping=ping)


async def edit_live(bot: HangarBot, loaded: LoadedGame) -> bool:
    """Refresh the live turn message in place (clock notes changed); False if it is gone."""
    return await bot.announcer.refresh(loaded, await recent_lines(bot, loaded))


async def tell_if_late(
    interaction: discord.Interaction[HangarBot], error: BaseException | None
) -> None:
    """Say truthfully that the committed move was saved when its board did not arrive yet."""
    if error is None:
        return
    text = MISSING_PERMISSIONS if isinstance(error, discord.Forbidden) else SAVED_BOARD_FOLLOWS
    await send_ephemeral(interaction, text)  # said: told in the user's language


async def own_panel(interaction: discord.Interaction[HangarBot], loaded: LoadedGame) -> Panel:
    """The user's private panel (picture drawn), or why they have none."""
    seat = interaction.client.service.seat_of(loaded, interaction.user.id)
    if seat is None:
        raise UserFacingError(messages.NOT_IN_GAME)
    if loaded.state is None:
        raise UserFacingError(messages.NOT_STARTED)
    return await hand_panel(loaded, seat, private_locale(interaction))


async def send_hand(
    interaction: discord.Interaction[HangarBot],
    loaded: LoadedGame,
    *,
    edit: bool,
    panel: Panel | None = None,
) -> None:
    """Show (or refresh, when `edit`) the user's private panel ephemerally."""
    if panel is None:
        panel = await own_panel(interaction, loaded)
    view = panel.view or dynamic_view()
    embed = fit_embed(panel.embed)
    message: discord.InteractionMessage | discord.WebhookMessage
    if edit:
        shown = interaction.message
        # An unchanged private picture is kept (by id), not uploaded again (issue 14).
        keep = shown is not None and SHOWN.same(shown.id, panel.image) and shown.attachments
        files = list(shown.attachments) if keep and shown is not None else [panel.file()]
        if shown is not None and not interaction.response.is_done():
            # the click is still unanswered (bot/edge/answer.py): the refreshed panel is its answer
            await interaction.response.edit_message(embed=embed, attachments=files, view=view)
            SHOWN.remember(shown.id, panel.image)
            return
        message = await interaction.edit_original_response(
            embed=embed, attachments=files, view=view
        )
    else:
        message = await interaction.followup.send(
            embed=embed, file=panel.file(), view=view, ephemeral=True, wait=True
        )
    SHOWN.remember(message.id, panel.image)


async def handle_action(
    interaction: discord.Interaction[HangarBot], pk: int, version: int, key: str
) -> None:
    """A click on an action button or select: one service call, then the board; a click on a
    private panel is answered by the refreshed panel itself (bot/edge/answer.py)."""
    private = bool(interaction.message and interaction.message.flags.ephemeral)
    bot = interaction.client
    # A calm bot draws the board ahead; a busy one (other clicks in flight, the workers drawing)
    # saves the loop that work. A panel click is answered by its panel unless many clicks are
    # ahead of it (bot/edge/answer.py).
    calm = ClickAnswer.calm() and POOL.idle()
    answer = ClickAnswer(interaction, wait=private and ClickAnswer.may_wait())
    if calm and interaction.channel_id is not None:
        click = (interaction.channel_id, pk, version)
        panel = private_locale(interaction) if private else None  # the clicker's, drawn next
        bot.previews.start(bot.service, click, interaction.user.id, key, panel)
    ClickAnswer.started()
    try:
        if not answer.waiting:
            await answer.defer()  # a deferred update: nothing visible until we publish
        await _act_and_show(interaction, answer, pk, version, key, private)
    finally:
        ClickAnswer.finished()
        await answer.defer()  # every click is acknowledged, whatever happened
        TRIM.arm()  # a click's payloads and pictures: the heap is given back once quiet


async def _act_and_show(
    interaction: discord.Interaction[HangarBot],
    answer: ClickAnswer,
    pk: int,
    version: int,
    key: str,
    private: bool,
) -> None:
    """Commit the move, publish the board, then refresh the clicker's panel; or say why not."""
    bot = interaction.client
    saved = False
    try:
        result = await bot.service.act(
            channel_id_of(interaction), interaction.user.id, key, version, game_pk=pk
        )
        saved = True
        # The clicker's panel is drawn while the board is (both cores); it is sent after the
        # board, so whoever sees the panel change also finds the board up to date.
        panel = asyncio.ensure_future(own_panel(interaction, result.loaded)) if private else None
        try:
            late = await publish(bot, result)
            if panel is not None:
                drawn = await panel
                async with answer.exclusive():
                    await send_hand(interaction, result.loaded, edit=True, panel=drawn)
        finally:
            if panel is not None:
                panel.cancel()
        await tell_if_late(interaction, late)
    except Exception as exc:  # every failure is reported to the user here
        if isinstance(exc, StaleActionError):
            text = await _stale_text(interaction, exc)
        else:
            text = await explain(interaction, unwrap(exc), saved=saved, move=True)
        async with answer.exclusive():  # the text first: the click may be deferred meanwhile
            await send_ephemeral(interaction, text)


async def _stale_text(interaction: discord.Interaction[HangarBot], exc: StaleActionError) -> str:
    """Why a stale click is refused, and what the game is waiting for now."""
    try:
        bot = interaction.client
        loaded = await bot.service.load(channel_id_of(interaction))
        seat = bot.service.seat_of(loaded, interaction.user.id)
        now = status_line(loaded, seat, private_locale(interaction))
    except (RulesError, StoreUnavailable):
        now = ""
    why = say(private_locale(interaction), exc.args[0] if exc.args else str(exc))
    return f"{why}\n{now}".strip()


async def handle_hand(interaction: discord.Interaction[HangarBot], pk: int) -> None:
    """The "My hand" button."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        await send_hand(interaction, await load_same_game(interaction, pk), edit=False)
    except Exception as exc:  # every failure is reported to the user here
        await report(interaction, exc)


async def handle_table(interaction: discord.Interaction[HangarBot], pk: int) -> None:
    """The "Whole table" button: the full table picture, ephemerally, for anyone who asks."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        loaded = await load_same_game(interaction, pk)
        if loaded.state is None:
            raise UserFacingError(messages.NOT_STARTED)
        shown = await table_message(loaded, private_locale(interaction))
        await interaction.followup.send(**shown, ephemeral=True)
    except Exception as exc:  # every failure is reported to the user here
        await report(interaction, exc)


async def handle_lobby(interaction: discord.Interaction[HangarBot], pk: int, op: str) -> None:
    """Join / Leave / Start buttons on a lobby message."""
    await interaction.response.defer()
    try:
        bot = interaction.client
        await load_same_game(interaction, pk)
        channel_id = channel_id_of(interaction)
        user = interaction.user
        if op == "start":
            late = await start_game(bot, channel_id, user.id, is_admin(interaction))
            await interaction.edit_original_response(view=None)
            await tell_if_late(interaction, late)
            return
        if op == "ai":
            loaded = await add_ai_seat(
                bot.service, channel_id, user.id, is_admin(interaction), "normal"
            )
        elif op == "join":
            loaded = await bot.service.lobby.join(channel_id, user.id, user.display_name)
        else:
            loaded = await bot.service.lobby.leave(channel_id, user.id)
        language = await interaction_language(interaction)
        view = lobby_view(loaded, language) if loaded.record.status == "lobby" else None
        text = lobby_text(loaded, language) if view else str(say(language, LOBBY_CLOSED))
        await interaction.edit_original_response(content=text, view=view)
    except Exception as exc:  # every failure is reported to the user here
        await report(interaction, exc)


async def announce(
    interaction: discord.Interaction[HangarBot],
    text: str,
    *,
    note: str,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions | None = None,
) -> None:
    """Post a public outcome as a channel message and confirm privately to the user.

    Commands defer ephemerally, so a refusal is never shown to the whole channel.
    """
    channel = interaction.client.get_partial_messageable(channel_id_of(interaction))
    allowed = mentions or discord.AllowedMentions.none()
    if view is not None:
        await channel.send(clip(text), allowed_mentions=allowed, view=view)
    else:
        await channel.send(clip(text), allowed_mentions=allowed)
    await interaction.followup.send(clip(note), ephemeral=True)


async def repost_board(interaction: discord.Interaction[HangarBot], *, ping_active: bool) -> None:
    """Post the channel's board again as a new (live) message; a lobby shows its seats.

    Only players and admins re-post publicly, at most once a minute per channel (turn boards go
    first); anyone else, or a player within that minute, gets the board privately.
    """
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    mine = private_locale(interaction)
    loaded = await bot.service.load_latest(channel_id_of(interaction))
    if loaded.state is None:
        await interaction.followup.send(clip(lobby_text(loaded, mine)), ephemeral=True)
        return
    seated = bot.service.seat_of(loaded, interaction.user.id) is not None
    if not ping_active and not (seated or is_admin(interaction)):
        await send_private_board(interaction, loaded, note="")
        return
    if not ping_active and not bot.announcer.may_repost(loaded.record.channel_id):
        note = str(say(mine, REPOSTED_RECENTLY))
        await send_private_board(interaction, loaded, note=note)
        return
    lines = await recent_lines(bot, loaded, await interaction_language(interaction))
    await bot.announcer.repost(loaded, lines, ping=loaded.active_seats if ping_active else ())
    await interaction.followup.send(str(say(mine, BOARD_REPOSTED)), ephemeral=True)


async def send_private_board(
    interaction: discord.Interaction[HangarBot], loaded: LoadedGame, *, note: str
) -> None:
    """The public board, shown only to this user in their language (no buttons: they act from
    the real board)."""
    mine = private_locale(interaction)
    lines = await recent_lines(interaction.client, loaded, mine)
    panel = await board_panel(loaded, lines, ping=(), locale=mine)
    embed = fit_embed(panel.embed)
    await interaction.followup.send(clip(note), embed=embed, file=panel.file(), ephemeral=True)


async def start_game(
    bot: HangarBot, channel_id: int, user_id: int, admin: bool
) -> BaseException | None:
    """Start the lobby's game and post the first board, pinging whoever acts first."""
    return await publish(bot, await bot.service.lobby.start(channel_id, user_id, admin))


def is_admin(interaction: discord.Interaction[HangarBot]) -> bool:
    """Manage Server or Manage Channels, checked at run time."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_channels)
