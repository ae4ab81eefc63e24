"""/help — what Hangar is, how to start a game, the commands and links (only you see it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.edge.present import player_range
from rules import GAMES
from rules.core import PlayerError

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

SLASH_FAQ = "https://support.discord.com/hc/en-us/articles/1500000368501-Slash-Commands-FAQ"

COMMANDS = (
    ("/game new <game>", "open a lobby here (one game per channel or thread)"),
    ("/game join · /game leave · /game start", "take a seat, leave, start (creator)"),
    ("/play action:…", "make a move (the list shows your moves now)"),
    ("/game hand", "your private cards and moves (the **My hand & moves** button)"),
    ("/game status", "show the board again"),
    ("/game rules [game] [topic]", "how to play"),
    ("/card name:…", "any card's full text"),
    ("/game log", "recent moves"),
    ("/mygames", "your games on this server and whose turn it is"),
    ("/game abandon", "close a lobby (creator) or a game (admin)"),
    ("/admin …", "resume, replace, undo, verify, export, abandon (Manage Channels)"),
)


def help_text(board_link: str | None = None) -> str:
    """The whole /help page (under Discord's 2,000 characters)."""
    games = "\n".join(
        f"• **{g.title}** ({player_range(g)}) — `/game new {g.id}`" for g in GAMES.values()
    )
    commands = "\n".join(f"• `{name}` — {what}" for name, what in COMMANDS)
    links = [f"• [Slash commands in Discord]({SLASH_FAQ})"]
    if board_link:
        links.insert(0, f"• [This channel's game board]({board_link})")
    return (
        "**Hangar** plays board and card games by post: take your turn whenever you like; the "
        "bot posts the board after every move and pings whoever must act next.\n\n"
        f"**Games**\n{games}\n\n"
        "**Start a game**: `/game new <game>` opens a lobby, friends press **Join**, and you "
        "press **Start**. Then press **My hand & moves** under the board (or use `/play`).\n\n"
        f"**Commands**\n{commands}\n\n"
        "**Links**\n" + "\n".join(links)
    )


async def _board_link(interaction: discord.Interaction[HangarBot]) -> str | None:
    """A link to this channel's board message, when there is a game here."""
    if interaction.channel_id is None or interaction.guild_id is None:
        return None
    try:
        loaded = await interaction.client.service.load(interaction.channel_id)
    except PlayerError:
        return None
    message = loaded.record.board_message_id
    if not message:
        return None
    return f"https://discord.com/channels/{interaction.guild_id}/{interaction.channel_id}/{message}"


@app_commands.command(name="help", description="What Hangar is, how to start a game, the commands")
async def help_command(interaction: discord.Interaction[HangarBot]) -> None:
    """Answer privately with the help page."""
    await interaction.response.send_message(
        help_text(await _board_link(interaction))[:2000], ephemeral=True
    )
