"""/card name:<autocomplete> — any card of any game: its full text and picture, only for you."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.render.card import card_png
from rules import GAMES
from rules.catalogue import CardEntry, find, search
from rules.core import PlayerError

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

CARD_FILE = "card.png"
COLOUR = discord.Colour.from_str("#2f7fd8")


async def _channel_game(interaction: discord.Interaction[HangarBot]) -> str | None:
    """The id of this channel's game, so its cards are suggested first."""
    if interaction.channel_id is None:
        return None
    try:
        return (await interaction.client.service.load(interaction.channel_id)).game.id
    except PlayerError:
        return None


async def card_autocomplete(
    interaction: discord.Interaction[HangarBot], current: str
) -> list[app_commands.Choice[str]]:
    """Cards whose name contains what was typed, this channel's game first."""
    game = await _channel_game(interaction)
    return [
        app_commands.Choice(name=f"{e.name} — {_title(e)}"[:100], value=e.key)
        for e in search(current, game)
    ]


def _title(entry: CardEntry) -> str:
    """The card's game, as players know it."""
    game = GAMES.get(entry.game)
    return game.title if game is not None else entry.game


def card_embed(entry: CardEntry, *, picture: bool) -> discord.Embed:
    """The card's name, kind and full text (and its picture)."""
    embed = discord.Embed(
        title=entry.name[:256],
        description=f"*{entry.kind}*\n{entry.text}"[:4000],
        colour=COLOUR,
    )
    embed.set_footer(text=f"{_title(entry)} · only you can see this")
    if picture:
        embed.set_image(url=f"attachment://{CARD_FILE}")
    return embed


@app_commands.command(name="card", description="Look up any card: its full text (only you see it)")
@app_commands.describe(name="Start typing a card's name")
@app_commands.autocomplete(name=card_autocomplete)
async def card_command(interaction: discord.Interaction[HangarBot], name: str) -> None:
    """Show one card ephemerally; an unknown name says so and how to find cards."""
    entry = find(name)
    if entry is None:
        await interaction.response.send_message(
            f"There is no card called “{name[:100]}” in Hangar's games — start typing a name "
            "and pick one from the list.",
            ephemeral=True,
        )
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    image = await asyncio.to_thread(card_png, entry)
    alt = f"{entry.name} — {entry.kind}: {entry.text}"[:1024]
    file = discord.File(io.BytesIO(image), filename=CARD_FILE, description=alt)
    await interaction.followup.send(
        embed=card_embed(entry, picture=True), file=file, ephemeral=True
    )
