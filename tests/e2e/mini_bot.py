"""A tiny discord.py bot used only to prove the fake Discord works."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import signal
from typing import Any, Literal

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from PIL import Image, ImageDraw

log = logging.getLogger("mini_bot")
ACTIONS = [f"move-{i}" for i in range(40)]


def png(text: str) -> bytes:
    """A small PNG with `text` on it."""
    image = Image.new("RGB", (160, 40), "white")
    ImageDraw.Draw(image).text((5, 12), text, fill="black")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mini:count:(?P<n>\d+)"):
    """A restart-proof button that counts its clicks by editing its message."""

    def __init__(self, n: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=f"Count {n}", style=discord.ButtonStyle.primary, custom_id=f"mini:count:{n}"
        )
        super().__init__(button)
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Counter:
        """Rebuild from the custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the message with the next count (callback type 7)."""
        nxt = self.n + 1
        content = f"count={nxt} pid={os.getpid()}"
        await interaction.response.edit_message(content=content, view=counter_view(nxt))


class Pick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mini:pick"):
    """A restart-proof string select answering ephemerally."""

    def __init__(self) -> None:
        options = [discord.SelectOption(label=x, value=x) for x in ("alpha", "beta", "gamma")]
        super().__init__(discord.ui.Select(custom_id="mini:pick", options=options, max_values=2))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Pick:
        """Rebuild from the custom_id."""
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the chosen values, only to the chooser."""
        values = (interaction.data or {}).get("values", [])
        await interaction.response.send_message(f"picked {','.join(values)}", ephemeral=True)


class Refresh(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mini:refresh"):
    """A button answered with a deferred update, then a channel-route edit."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Refresh", custom_id="mini:refresh"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Refresh:
        """Rebuild from the custom_id."""
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        """Defer (type 6), work a little, then edit the message through the channel route."""
        await interaction.response.defer()
        await asyncio.sleep(0.8)
        assert interaction.message is not None
        await interaction.message.edit(content="board refreshed")


def counter_view(n: int) -> discord.ui.View:
    """A persistent view holding one Counter button."""
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    return view


mini = app_commands.Group(name="mini", description="Mini bot commands")


@mini.command(description="Draw a picture (deferred, then a follow-up with a file)")
@app_commands.describe(colour="Colour", size="Size")
async def draw(
    interaction: discord.Interaction,
    colour: Literal["red", "blue"],
    size: app_commands.Range[int, 1, 5] = 1,
) -> None:
    """Defer, then follow up with a PNG and a Counter button."""
    await interaction.response.defer()
    await asyncio.sleep(0.2)
    file = discord.File(io.BytesIO(png(f"{colour} x{size}")), filename="board.png")
    await interaction.followup.send(f"drew {colour} x{size}", file=file, view=counter_view(0))


@mini.command(description="Ping a member in the channel")
@app_commands.describe(who="Who to ping")
async def ping(interaction: discord.Interaction, who: discord.Member) -> None:
    """Post a channel message pinging only `who` (the invoker is mentioned but not pinged)."""
    await interaction.response.send_message("pinged", ephemeral=True)
    text = f"{who.mention} your turn (asked by {interaction.user.mention})"
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=[who])
    assert isinstance(interaction.channel, discord.TextChannel | discord.Thread)
    await interaction.channel.send(text, allowed_mentions=mentions)


@mini.command(description="Answer too late")
async def slow(interaction: discord.Interaction) -> None:
    """Sleep past the 3-second deadline before answering."""
    await asyncio.sleep(3.5)
    try:
        await interaction.response.send_message("too late")
    except discord.NotFound as exc:
        log.info("late answer refused: %s", exc.code)


@mini.command(description="Post an oversized select through the raw API")
async def bigselect(interaction: discord.Interaction) -> None:
    """Bypass discord.py's own checks to prove the fake rejects 26 options."""
    options = [{"label": f"o{i}", "value": f"o{i}"} for i in range(26)]
    row = {"type": 1, "components": [{"type": 3, "custom_id": "big", "options": options}]}
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id)
    try:
        await interaction.client.http.request(route, json={"content": "big", "components": [row]})
        answer = "accepted"
    except discord.HTTPException as exc:
        answer = f"rejected {exc.status} {exc.code}"
    await interaction.response.send_message(answer, ephemeral=True)


@mini.command(description="Post a board, then replace its image")
async def board(interaction: discord.Interaction) -> None:
    """Channel message with a file, fetched and edited with a new file."""
    await interaction.response.send_message("posting", ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel | discord.Thread)
    view = discord.ui.View(timeout=None)
    view.add_item(Refresh())
    first = discord.File(io.BytesIO(png("v1")), filename="board.png")
    sent = await channel.send("board v1", file=first, view=view)
    fetched = await channel.fetch_message(sent.id)
    second = discord.File(io.BytesIO(png("v2")), filename="board2.png")
    await fetched.edit(content="board v2", attachments=[second])


@mini.command(description="Show a select menu")
async def pick(interaction: discord.Interaction) -> None:
    """Send a message with the Pick select."""
    view = discord.ui.View(timeout=None)
    view.add_item(Pick())
    await interaction.response.send_message("choose", view=view)


@mini.command(description="Play an action")
@app_commands.describe(action="The action")
async def play(interaction: discord.Interaction, action: str) -> None:
    """Echo the chosen action."""
    await interaction.response.send_message(f"played {action}")


@play.autocomplete("action")
async def play_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """At most 25 actions containing what was typed."""
    found = [a for a in ACTIONS if current in a][:25]
    return [app_commands.Choice(name=f"Action {a}", value=a) for a in found]


@app_commands.command(name="minireset", description="Admin only")
@app_commands.default_permissions(manage_guild=True)
async def minireset(interaction: discord.Interaction) -> None:
    """An admin-only command."""
    await interaction.response.send_message("reset", ephemeral=True)


class MiniBot(discord.Client):
    """Client with a command tree synced to DEV_GUILD_ID."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(mini)
        self.tree.add_command(minireset)

    async def setup_hook(self) -> None:
        """Point the gateway at the fake, register dynamic items, sync commands."""
        _, url, _ = await self.http.get_bot_gateway()
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.add_dynamic_items(Counter, Pick, Refresh)
        guild = discord.Object(int(os.environ["DEV_GUILD_ID"]))
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def run() -> None:
    """Run until SIGTERM."""
    bot = MiniBot()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


def main() -> None:
    """Entry point: DISCORD_API_BASE must be set before login."""
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"))
    Route.BASE = os.environ["DISCORD_API_BASE"]
    asyncio.run(run())


if __name__ == "__main__":
    main()
