"""/help — what Hangar is, how to start a game, the commands and links (only you see it).

The command list is read from the registered command tree, so it cannot go stale: every
command and subcommand with its own description, players' commands first, then /admin.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.edge.limits import MAX_EMBED_DESCRIPTION, fit_embed
from rules.core import PlayerError

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

SLASH_FAQ = "https://support.discord.com/hc/en-us/articles/1500000368501-Slash-Commands-FAQ"
ADMIN_GROUP = "admin"
# /admin is shown to, and checked for, exactly this permission (bot/edge/commands/admin.py).
ADMIN_NEEDS = "Manage Server"
# Players' commands in the order a newcomer needs them; any command not named here follows.
PLAYER_ORDER = ("game", "play", "mygames", "card", "away", "notify", "stats", "leaderboard")

INTRO = (
    "**Hangar** plays board and card games by post: take your turn whenever you like; the bot "
    "posts the board after every move and pings whoever must act next.\n\n"
    "**Start a game**: `/game new <game>` opens a lobby, friends press **Join**, and you press "
    "**Start**. Then press **My hand & moves** under the board (or use `/play`)."
)


def command_lines(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group | Any],
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(players', admins') `(/qualified name, description)` of every slash command in a tree."""
    players: list[tuple[int, str, str]] = []
    admins: list[tuple[str, str]] = []
    for top in commands:
        if isinstance(top, app_commands.Group):
            leaves = [c for c in top.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(top, app_commands.Command):
            leaves = [top]
        else:  # a context menu has no slash name
            continue
        rank = PLAYER_ORDER.index(top.name) if top.name in PLAYER_ORDER else len(PLAYER_ORDER)
        for leaf in leaves:
            line = (f"/{leaf.qualified_name}", leaf.description)
            if top.name == ADMIN_GROUP:
                admins.append(line)
            else:
                players.append((rank, *line))
    players.sort(key=lambda row: row[0])  # stable: the tree's order within one command
    return [(name, what) for _, name, what in players], admins


def help_text(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group | Any],
    board_link: str | None = None,
) -> str:
    """The whole /help page, from the registered commands (fits one embed description)."""
    players, admins = command_lines(commands)
    links = [f"• [Slash commands in Discord]({SLASH_FAQ})"]
    if board_link:
        links.insert(0, f"• [This channel's game board]({board_link})")
    parts = [
        INTRO,
        "**Commands**\n" + "\n".join(f"• `{name}` — {what}" for name, what in players),
    ]
    if admins:
        parts.append(
            f"**Admin commands** (`/admin` needs the {ADMIN_NEEDS} permission)\n"
            + "\n".join(f"• `{name}` — {what}" for name, what in admins)
        )
    parts.append("**Links**\n" + "\n".join(links))
    return "\n\n".join(parts)


def help_embed(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group | Any],
    board_link: str | None = None,
) -> discord.Embed:
    """The /help page as one embed (its description holds up to 4,096 characters)."""
    text = help_text(commands, board_link)
    return fit_embed(discord.Embed(title="Hangar — help", description=text[:MAX_EMBED_DESCRIPTION]))


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
    commands = interaction.client.tree.get_commands()
    await interaction.response.send_message(
        embed=help_embed(commands, await _board_link(interaction)), ephemeral=True
    )
