"""/help is built from the registered command tree (issue 28): it cannot go stale."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.edge.app import register_commands
from bot.edge.commands.admin import ADMIN_PERMISSIONS
from bot.edge.commands.help import ADMIN_NEEDS, command_lines, help_embed, help_text
from bot.edge.limits import MAX_EMBED_DESCRIPTION, MAX_EMBED_TOTAL
from bot.i18n import translate


def registered_commands() -> list[Any]:
    """The top-level commands exactly as the bot's setup_hook registers them."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    register_commands(tree)
    return tree.get_commands()


def every_slash_command(commands: list[Any]) -> list[app_commands.Command[Any, ..., Any]]:
    """Every invocable slash command and subcommand of the tree."""
    found: list[app_commands.Command[Any, ..., Any]] = []
    for top in commands:
        if isinstance(top, app_commands.Group):
            found += [c for c in top.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(top, app_commands.Command):
            found.append(top)
    return found


def test_help_lists_every_registered_command_and_subcommand() -> None:
    """Each command of the tree appears with its own description; none is invented."""
    commands = registered_commands()
    text = help_text(commands)
    registered = every_slash_command(commands)
    assert len(registered) > 20
    for command in registered:
        assert f"`/{command.qualified_name}` — {command.description}" in text, command
    listed = [line for line in text.split("\n") if line.startswith("• `/")]
    assert len(listed) == len(registered), "help lists only registered commands"


def test_help_names_the_commands_issue_28_found_missing() -> None:
    """The commands the old hand-written page omitted."""
    text = help_text(registered_commands())
    for name in (
        "/game history",
        "/stats",
        "/leaderboard",
        "/game replay",
        "/away",
        "/notify",
        "/game back",
        "/game ai",
    ):
        assert f"`{name}" in text, name


def test_help_groups_players_then_admins_with_the_right_permission() -> None:
    """Players' commands first, then /admin with the permission it really checks."""
    players, admins = command_lines(registered_commands())
    assert players and admins
    assert all(not name.startswith("/admin") for name, _ in players)
    assert all(name.startswith("/admin ") for name, _ in admins)
    text = help_text(registered_commands())
    assert text.index("**Commands**") < text.index("**Admin commands**")
    assert discord.Permissions(manage_guild=True) == ADMIN_PERMISSIONS
    assert ADMIN_NEEDS == "Manage Server" and "Manage Channels" not in text


def test_help_fits_one_embed() -> None:
    """Within Discord's embed limits, board link included, nothing clipped."""
    link = "https://discord.com/channels/1/2/3"
    embed = help_embed(registered_commands(), link)
    assert embed.description == help_text(registered_commands(), link)
    assert len(embed.description or "") <= MAX_EMBED_DESCRIPTION
    assert len(embed) <= MAX_EMBED_TOTAL


def test_help_speaks_the_readers_language() -> None:
    """German, French and Spanish readers get the page in their language, with the command
    names their Discord shows them, every description translated, within one embed."""
    commands = registered_commands()
    german = help_text(commands, locale="de")
    assert "**Befehle**" in german and "**Admin-Befehle**" in german
    assert "`/spiel beitreten` — Einen Platz in der Lobby dieses Kanals nehmen" in german
    assert "„Server verwalten“" in german and "Manage Server" not in german
    assert "Take a seat" not in german
    for command in every_slash_command(commands):
        assert translate("de", command.description) in german
    assert "`/partie rejoindre`" in help_text(commands, locale="fr")
    assert "`/partida unirse`" in help_text(commands, locale="es")
    for locale in ("de", "fr", "es", "pseudo"):
        embed = help_embed(commands, "https://discord.com/channels/1/2/3", locale)
        assert embed.description == help_text(
            commands, "https://discord.com/channels/1/2/3", locale
        )
        assert len(embed) <= MAX_EMBED_TOTAL
