"""/help — what Hangar is, how to start a game, the commands and links (only you see it).

The command list is read from the registered command tree, so it cannot go stale: every
command and subcommand with its own description, players' commands first, then /admin. It is
private, so it speaks the reader's language: their Discord locale (issue 30).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.edge.limits import MAX_EMBED_DESCRIPTION, fit_embed
from bot.edge.locale import private_locale
from bot.i18n import ENGLISH, ptranslate, translate
from rules.core import PlayerError

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

SLASH_FAQ = "https://support.discord.com/hc/en-us/articles/1500000368501-Slash-Commands-FAQ"
ADMIN_GROUP = "admin"
# /admin is shown to, and checked for, exactly this permission (bot/edge/commands/admin.py).
ADMIN_NEEDS = translate(ENGLISH, "Manage Server")
# Players' commands in the order a newcomer needs them; any command not named here follows.
PLAYER_ORDER = ("game", "play", "mygames", "card", "away", "notify", "stats", "leaderboard")


def intro(locale: str) -> str:
    """What Hangar is and how a game starts, in `locale`'s language."""
    which = translate(locale, "<game>")  # stands for takeoff, flight, …
    return (
        translate(
            locale,
            "**Hangar** plays board and card games by post: take your turn whenever you like; the "
            "bot posts the board after every move and pings whoever must act next.",
        )
        + "\n\n"
        + translate(
            locale,
            "**Start a game**: `{new}` opens a lobby, friends press **Join**, and you press "
            "**Start**. Then press **My hand & moves** under the board (or use `{play}`).",
            new=command_name("game new", locale) + " " + which,
            play=command_name("play", locale),
        )
    )


def command_name(qualified: str, locale: str) -> str:
    """`/game new` as a user of `locale` sees it in Discord's command list."""
    return "/" + " ".join(ptranslate(locale, "command", part) for part in qualified.split())


def command_lines(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group | Any],
    locale: str = ENGLISH,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(players', admins') `(/qualified name, description)` of every slash command in a tree,
    as Discord shows them to a user of `locale`."""
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
            line = (
                command_name(leaf.qualified_name, locale),
                translate(locale, leaf.description),
            )
            if top.name == ADMIN_GROUP:
                admins.append(line)
            else:
                players.append((rank, *line))
    players.sort(key=lambda row: row[0])  # stable: the tree's order within one command
    return [(name, what) for _, name, what in players], admins


def help_text(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group | Any],
    board_link: str | None = None,
    locale: str = ENGLISH,
) -> str:
    """The whole /help page, from the registered commands (fits one embed description)."""
    players, admins = command_lines(commands, locale)
    commands_title, links_title = translate(locale, "Commands"), translate(locale, "Links")
    faq = translate(locale, "Slash commands in Discord")
    links = [f"• [{faq}]({SLASH_FAQ})"]
    if board_link:
        board = translate(locale, "This channel's game board")
        links.insert(0, f"• [{board}]({board_link})")
    parts = [
        intro(locale),
        f"**{commands_title}**\n" + "\n".join(f"• `{name}` — {what}" for name, what in players),
    ]
    if admins:
        # Discord's own name of the permission, as the reader's Discord client shows it.
        permission = translate(locale, ADMIN_NEEDS)
        heading = translate(
            locale,
            "**Admin commands** (`{admin}` needs the {permission} permission)",
            admin=command_name(ADMIN_GROUP, locale),
            permission=permission,
        )
        parts.append(heading + "\n" + "\n".join(f"• `{name}` — {what}" for name, what in admins))
    parts.append(f"**{links_title}**\n" + "\n".join(links))
    return "\n\n".join(parts)


def help_embed(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group | Any],
    board_link: str | None = None,
    locale: str = ENGLISH,
) -> discord.Embed:
    """The /help page as one embed (its description holds up to 4,096 characters)."""
    text = help_text(commands, board_link, locale)
    title = translate(locale, "Hangar — help")
    return fit_embed(discord.Embed(title=title, description=text[:MAX_EMBED_DESCRIPTION]))


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
    embed = help_embed(commands, await _board_link(interaction), private_locale(interaction))
    await interaction.response.send_message(embed=embed, ephemeral=True)
