"""/card name:<autocomplete> — any card of any game: its full text and picture, only for you."""

from __future__ import annotations

import asyncio
import functools
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.edge.locale import private_locale
from bot.i18n import ENGLISH, translate
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


def card_embed(entry: CardEntry, *, picture: bool, locale: str = ENGLISH) -> discord.Embed:
    """The card's name, kind and full text (and its picture), in the reader's language (the
    data file's words are message ids of the game's catalogue)."""
    name, kind, text = (translate(locale, w) for w in (entry.name, entry.kind, entry.text))
    embed = discord.Embed(title=name[:256], description=f"*{kind}*\n{text}"[:4000], colour=COLOUR)
    only_you = translate(locale, "{footer} · only you can see this", footer=_title(entry))
    embed.set_footer(text=only_you)
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
        unknown = translate(
            private_locale(interaction),
            "There is no card called “{name}” in Hangar's games — start typing a name and pick "
            "one from the list.",
            name=name[:100],
        )
        await interaction.response.send_message(unknown, ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    mine = private_locale(interaction)
    if mine == ENGLISH:  # the picture's default: the same cached drawing as before
        image = await asyncio.to_thread(card_png, entry)
    else:
        image = await asyncio.to_thread(functools.partial(card_png, entry, language=mine))
    name, kind, text = (translate(mine, w) for w in (entry.name, entry.kind, entry.text))
    alt = f"{name} — {kind}: {text}"[:1024]
    file = discord.File(io.BytesIO(image), filename=CARD_FILE, description=alt)
    embed = card_embed(entry, picture=True, locale=mine)
    await interaction.followup.send(embed=embed, file=file, ephemeral=True)
