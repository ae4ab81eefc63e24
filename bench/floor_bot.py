"""The floor: a minimal discord.py bot making the same Discord calls as a Hangar move.

Started by `bench/e2e_moves.py` as `python -m bench.floor_bot` against the fake Discord. It keeps
nothing but two PNG files read once at start (the bytes Hangar itself uploaded), so whatever
Hangar spends above it is Hangar's own work: rules, database, drawing, encoding.

custom_id `floor:{pattern}:{n}`: `post` answers a click like a move that passes the turn (post
a new board message with the board PNG, turn the old board into a line without its picture
and buttons — one edit, as Hangar's bot/edge/announce.py does — and answer the click with the
panel and the hand PNG, as a calm Hangar does); `edit` like a move within the same turn (edit the
board message in place, answer with the panel).
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import signal
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

log = logging.getLogger("floor_bot")
BOARD = Path(os.environ.get("FLOOR_BOARD_PNG", "board.png"))
HAND = Path(os.environ.get("FLOOR_HAND_PNG", "hand.png"))
COLOUR = discord.Colour.from_str("#2f7fd8")


class Images:
    """The two PNGs, read once."""

    board = b""
    hand = b""


def board_embed(n: int) -> discord.Embed:
    """An embed of the same shape as Hangar's board embed."""
    embed = discord.Embed(title="Floor", description=f"• move {n}\n\n**x** to play", colour=COLOUR)
    embed.set_image(url="attachment://board.png")
    embed.set_footer(text=f"Floor · game #1 · move {n}")
    return embed


def hand_embed(n: int) -> discord.Embed:
    """An embed of the same shape as Hangar's private panel."""
    embed = discord.Embed(title="Your view", description=f"Your move {n}", colour=COLOUR)
    embed.set_image(url="attachment://hand.png")
    return embed


def move_view(n: int) -> discord.ui.View:
    """A button per pattern, so the bench can replay Hangar's own sequence of posts and edits."""
    view = discord.ui.View(timeout=None)
    view.add_item(Move("post", n))
    view.add_item(Move("edit", n))
    return view


class Move(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"floor:(?P<p>post|edit):(?P<n>\d+)"
):
    """A move button: the calls of a Hangar move, with no game behind them."""

    def __init__(self, pattern: str, n: int) -> None:
        custom_id = f"floor:{pattern}:{n}"
        super().__init__(discord.ui.Button(label=f"{pattern} {n}", custom_id=custom_id))
        self.pattern, self.n = pattern, n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Move:
        """Rebuild from the custom_id."""
        return cls(match["p"], int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Update the board (post or edit), answer the click with the refreshed panel (one
        callback, as a calm Hangar answers a panel click: bot/edge/answer.py), then turn the old
        board into a line (Hangar does that once the panel is shown)."""
        channel = interaction.client.get_partial_messageable(interaction.channel_id or 0)
        board_id = BOARD_IDS.get(channel.id, 0)
        nxt = self.n + 1
        board_file = discord.File(io.BytesIO(Images.board), filename="board.png")
        old = 0
        if self.pattern == "post" or not board_id:
            sent = await channel.send(embed=board_embed(nxt), file=board_file, view=move_view(nxt))
            BOARD_IDS[channel.id], old = sent.id, board_id
        else:
            await channel.get_partial_message(board_id).edit(
                embed=board_embed(nxt), attachments=[board_file], view=move_view(nxt)
            )
        hand_file = discord.File(io.BytesIO(Images.hand), filename="hand.png")
        await interaction.response.edit_message(
            embed=hand_embed(nxt), attachments=[hand_file], view=move_view(nxt)
        )
        if old:  # the old board becomes a line: its picture and buttons go (as Hangar's)
            await channel.get_partial_message(old).edit(
                content=f"• move {self.n}",
                embeds=[],
                attachments=[],
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )


BOARD_IDS: dict[int, int] = {}  # channel id → the latest board message (like Hangar's column)
floor = app_commands.Group(name="floor", description="Floor bot commands")


@floor.command(description="Open a panel with a move button")
async def panel(interaction: discord.Interaction) -> None:
    """An ephemeral panel with the hand PNG and one move button."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    hand_file = discord.File(io.BytesIO(Images.hand), filename="hand.png")
    await interaction.followup.send(
        embed=hand_embed(0), file=hand_file, view=move_view(0), ephemeral=True
    )


@floor.command(description="Reply privately with a text of the given size")
async def reply(interaction: discord.Interaction, size: int = 1000) -> None:
    """A deferred ephemeral reply of `size` characters (the floor for /mygames)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send(("x" * max(1, size))[:2000], ephemeral=True)


class FloorBot(discord.Client):
    """Client with the floor commands synced to DEV_GUILD_ID."""

    def __init__(self) -> None:
        # The intents Hangar identifies with: with the default ones the floor alone would parse
        # every message and edit it makes (a third of a millisecond each).
        super().__init__(intents=discord.Intents(guilds=True))
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(floor)

    async def setup_hook(self) -> None:
        """Read the images, point the gateway at the fake, register the button, sync."""
        Images.board, Images.hand = BOARD.read_bytes(), HAND.read_bytes()
        _, url, _ = await self.http.get_bot_gateway()
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.add_dynamic_items(Move)
        guild = discord.Object(int(os.environ["DEV_GUILD_ID"]))
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def run() -> None:
    """Run until SIGTERM."""
    bot = FloorBot()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


def serve() -> None:
    """Entry point; named so that `python -m bench` (which runs every `main`) skips this module."""
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING"))
    Route.BASE = os.environ["DISCORD_API_BASE"]
    asyncio.run(run())


if __name__ == "__main__":
    serve()
