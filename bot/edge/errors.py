"""One place that turns exceptions into what the user reads (DESIGN.md §4, errors)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.edge.limits import clip, excerpt
from bot.edge.locale import in_language, private_locale
from bot.edge.present import fill_seats
from bot.i18n import translate_parts
from bot.store.errors import StoreUnavailable
from rules.core import PlayerError
from rules.core.errors import said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

APOLOGY = said(
    "Sorry — something went wrong on our side. It has been logged and nothing was changed — try "
    "again in a minute."
)
SAVED_BOARD_FOLLOWS = said(
    "✅ Your move was saved. Discord is slow to show it right now — the board will follow "
    "(don't play it again)."
)
MAX_REFUSAL = 600
# The database cannot be used (read-only or full disk): said plainly, once per interaction.
MOVE_NOT_SAVED = said(
    "Your move could not be saved (the database cannot be written right now); nothing changed "
    "— try again in a minute."
)
NOT_SAVED = said(
    "That could not be saved (the database cannot be written right now); nothing changed — try "
    "again in a minute."
)
NOT_READ = said(
    "The games cannot be read right now (the database is unavailable); nothing changed — try "
    "again in a minute."
)
NOT_ADMIN = said("This needs the Manage Server permission — ask a server admin to do it.")
MISSING_PERMISSIONS = said(
    "I can't post here. Please give me Send Messages, Embed Links, Attach Files and Read Message "
    "History in this channel; the move itself was saved — use /game status afterwards."
)


class UserFacingError(PlayerError):
    """A refusal from the Discord layer itself (permissions, wrong channel); message is shown."""


# An exception chain is data from outside: walk at most this many links, never a cycle.
MAX_CHAIN_LINKS = 8
WRAPPERS = (app_commands.CommandInvokeError, app_commands.TransformerError)


def unwrap(error: BaseException) -> BaseException:
    """The original exception inside discord.py's wrappers (bounded: no cycle can hang it)."""
    seen = {id(error)}
    for _ in range(MAX_CHAIN_LINKS):
        if not isinstance(error, WRAPPERS):
            break
        inner = getattr(error, "original", None) or error.__cause__
        # A TransformerError raised without a cause wraps nothing: it is the error itself.
        if inner is None or id(inner) in seen:
            break
        seen.add(id(inner))
        error = inner
    return error


def unavailable(error: StoreUnavailable, *, move: bool = False) -> str:
    """What a player reads when the database refused (the store has logged why, once)."""
    if move:
        return MOVE_NOT_SAVED
    return NOT_SAVED if error.writing else NOT_READ


async def explain(
    interaction: discord.Interaction[HangarBot],
    error: BaseException,
    *,
    saved: bool = False,
    move: bool = False,
) -> str:
    """The message for this error in the user's language, seat placeholders made mentions.

    `saved`: the change was already committed, so an unexpected failure must not claim that
    nothing changed. `move`: the interaction was a move (its refusal says so).
    """
    locale = private_locale(interaction)
    if isinstance(error, PlayerError):
        # Each part is translated before the seats are filled in: names are never looked up.
        text = translate_parts(locale, error.parts) if error.parts else str(error)
        # A refusal may quote what the user typed: keep it readable, never a wall of text.
        return clip(await _fill_mentions(interaction, text), MAX_REFUSAL)
    return in_language(locale, english(error, saved=saved, move=move))


def english(error: BaseException, *, saved: bool = False, move: bool = False) -> str:
    """What a failure that is no refusal says (a `Said`, translated by the caller)."""
    if isinstance(error, StoreUnavailable):  # the store has logged the episode, once
        return SAVED_BOARD_FOLLOWS if saved else unavailable(error, move=move)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return NOT_ADMIN
    if isinstance(error, discord.Forbidden):
        return MISSING_PERMISSIONS
    if isinstance(error, app_commands.TransformerError):
        return said(
            "I could not read {text} as a {kind}.",
            text=excerpt(str(error.value)),
            kind=error.type.name,
        )
    if isinstance(error, app_commands.CommandNotFound):
        return said("That command is not known any more — Discord may still be updating the list.")
    log.error("Unexpected error", exc_info=(type(error), error, error.__traceback__))
    return SAVED_BOARD_FOLLOWS if saved else APOLOGY


async def _fill_mentions(interaction: discord.Interaction[HangarBot], text: str) -> str:
    """Replace {seatN} with the seat's mention, if there is a game in this channel."""
    if "{seat" not in text or interaction.channel_id is None:
        return text
    bot = interaction.client
    try:
        loaded = await bot.service.load(interaction.channel_id)
    except PlayerError:
        return text
    return fill_seats(text, loaded, mentions=True)


async def send_ephemeral(interaction: discord.Interaction[HangarBot], text: str) -> None:
    """Answer privately (in the user's language), whether or not it was already acknowledged."""
    text = in_language(private_locale(interaction), text)
    none = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=none)
        else:
            await interaction.response.send_message(
                clip(text), ephemeral=True, allowed_mentions=none
            )
    except discord.HTTPException:
        log.warning("Could not deliver an error message to the user", exc_info=True)


async def report(
    interaction: discord.Interaction[HangarBot],
    error: BaseException,
    *,
    saved: bool = False,
    move: bool = False,
) -> None:
    """Tell the user what went wrong (and log what we did not expect)."""
    text = await explain(interaction, unwrap(error), saved=saved, move=move)
    await send_ephemeral(interaction, text)


async def on_app_command_error(
    interaction: discord.Interaction[HangarBot], error: app_commands.AppCommandError
) -> None:
    """CommandTree.on_error: every slash-command failure ends here."""
    await report(interaction, error)
