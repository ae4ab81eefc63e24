"""/admin … — resume, abandon, replace, undo, verify, export (members with Manage Server)."""

from __future__ import annotations

import io
import json
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.commands.ai import Level, admin_ai, admin_human
from bot.commands.stats import guild_of, history_of
from bot.errors import UserFacingError
from bot.flow import (
    announce,
    channel_id_of,
    publish,
    repost_board,
    tell_if_late,
)
from bot.limits import excerpt
from bot.services.errors import DamagedGameError, NotInGameError
from bot.services.games import LoadedGame
from bot.store.repository import SeatRecord

if TYPE_CHECKING:
    from bot.app import HangarBot

MENTION = re.compile(r"^<@!?(?P<id>\d{1,20})>$")


def seat_named(loaded: LoadedGame, who: str) -> SeatRecord:
    """The seat of the player `who` names: a mention, a user id or the seat's name."""
    text = who.strip()
    match = MENTION.match(text)
    wanted = match["id"] if match else text
    for seat in loaded.seats:
        if wanted == str(seat.user_id) or text.casefold() == seat.name.casefold():
            return seat
    raise NotInGameError(f"{excerpt(who)} is not a player in this game.")


def escape(name: str) -> str:
    """A stored display name, safe to show (no markdown, no pings)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


# Discord's default_member_permissions can only require ALL of its bits, never one OF several, so
# /admin asks for exactly one: Discord shows it to whoever has Manage Server (Administrators too)
# and the run-time check below allows exactly the same people.
ADMIN_PERMISSIONS = discord.Permissions(manage_guild=True)


class NotServerManagerError(UserFacingError, app_commands.CheckFailure):
    """/admin used by someone without Manage Server (a CheckFailure so discord.py reports it)."""

    def __init__(self) -> None:
        super().__init__("/admin needs the Manage Server permission on this server.")


class AdminGroup(app_commands.Group):
    """Server-admin tools for the game in this channel."""

    def __init__(self) -> None:
        super().__init__(
            name="admin",
            description="Admin tools for this channel's game",
            guild_only=True,
            default_permissions=ADMIN_PERMISSIONS,
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Re-check at run time: a server's Integrations overrides can show /admin to anyone."""
        if not interaction.permissions >= ADMIN_PERMISSIONS:
            raise NotServerManagerError
        return True

    @app_commands.command(name="resume", description="Re-post the board and ping whoever must act")
    async def resume(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Post a fresh board and ping (e.g. after the turn message was deleted)."""
        await repost_board(interaction, ping_active=True)

    @app_commands.command(name="abandon", description="End this channel's game now")
    async def abandon(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Abandon the game whatever its state."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        service, channel_id = interaction.client.service, channel_id_of(interaction)
        try:
            loaded = await service.abandon(channel_id, interaction.user.id, True)
            text = f"An admin ended the {loaded.game.title} game here."
        except DamagedGameError:
            damaged = await service.abandon_damaged(channel_id, interaction.user.id)
            text = f"An admin ended the damaged {damaged.what} game #{damaged.game_pk} here."
        await announce(interaction, text, note="Abandoned.")

    @app_commands.command(name="replace", description="Give a player's seat to someone else")
    @app_commands.describe(
        old="The player leaving: a mention, a user id or their seat name (they may have left)",
        new="The player taking the seat",
    )
    async def replace(
        self, interaction: discord.Interaction[HangarBot], old: str, new: discord.Member
    ) -> None:
        """Swap the user in a seat; the game state is untouched.

        `old` is text, not a member option: the member being replaced has often left the server,
        and Discord can no longer resolve them as a member.
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = interaction.client.service
        channel_id = channel_id_of(interaction)
        seat = seat_named(await service.load(channel_id), old)
        await service.replace(channel_id, seat.user_id, new.id, new.display_name)
        text = f"{new.mention} takes over {escape(seat.name)}'s seat."
        mentions = discord.AllowedMentions(users=[new])
        await announce(interaction, text, note="Seat replaced.", mentions=mentions)

    @app_commands.command(name="ai", description="Hand a player's seat to an AI")
    @app_commands.describe(player="The player leaving", level="easy, normal or hard")
    async def ai(
        self,
        interaction: discord.Interaction[HangarBot],
        player: discord.Member,
        level: Level = "normal",
    ) -> None:
        """An AI plays the seat from now on (`/admin human` gives it back)."""
        await admin_ai(interaction, player, level)

    @app_commands.command(name="human", description="Give an AI's seat to a player")
    @app_commands.describe(seat="The AI's seat number (1 = first)", player="The player taking it")
    async def human(
        self,
        interaction: discord.Interaction[HangarBot],
        seat: app_commands.Range[int, 1, 6],
        player: discord.Member,
    ) -> None:
        """A member plays the AI's seat from now on."""
        await admin_human(interaction, seat, player)

    @app_commands.command(
        name="undo", description="Take back the last move (if it revealed nothing)"
    )
    async def undo(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Revert the last action, then post the board."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        result = await bot.service.undo(channel_id_of(interaction))
        await tell_if_late(interaction, await publish(bot, result))
        await interaction.followup.send("The last move was undone.", ephemeral=True)

    @app_commands.command(name="verify", description="Replay the log and compare with the snapshot")
    @app_commands.describe(game_id="Any game of this server (default: this channel's)")
    async def verify(
        self, interaction: discord.Interaction[HangarBot], game_id: int | None = None
    ) -> None:
        """Report whether seed + action log reproduce the stored state."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await interaction.client.service.verify(
            channel_id_of(interaction), game_id, interaction.guild_id
        )
        await interaction.followup.send(str(report)[:2000], ephemeral=True)

    @app_commands.command(name="export", description="Download the game (options, seed, actions)")
    @app_commands.describe(
        game_id="Any game of this server (default: this channel's)",
        everything="Every finished game of this server, as JSON lines",
    )
    @app_commands.rename(everything="all")
    async def export(
        self,
        interaction: discord.Interaction[HangarBot],
        game_id: int | None = None,
        everything: bool = False,
    ) -> None:
        """A JSON attachment that replays the game (or JSON lines of every finished game)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if everything:
            await export_all(interaction)
            return
        service, channel_id = interaction.client.service, channel_id_of(interaction)
        note = "Game export:"
        try:
            data = await service.export(channel_id, game_id, interaction.guild_id)
        except DamagedGameError:
            data = await service.export_raw(channel_id, game_id, interaction.guild_id)
            note = "This game is damaged, so here are its rows exactly as stored:"
        blob = json.dumps(data, indent=2, sort_keys=True, default=str).encode()
        name = f"hangar-game-{data.get('game', {}).get('pk', 'export')}.json"
        await interaction.followup.send(
            note, file=discord.File(io.BytesIO(blob), filename=name), ephemeral=True
        )


async def export_all(interaction: discord.Interaction[HangarBot]) -> None:
    """Every finished game of this server, one JSON export per line."""
    guild_id, service = guild_of(interaction), interaction.client.service
    pks = await history_of(interaction).finished_pks(guild_id)
    lines = [json.dumps(await service.export(0, pk, guild_id), sort_keys=True) for pk in pks]
    blob = ("\n".join(lines) + "\n" if lines else "").encode()
    name = f"hangar-games-{guild_id}.jsonl"
    await interaction.followup.send(
        f"{len(lines)} finished games:",
        file=discord.File(io.BytesIO(blob), filename=name),
        ephemeral=True,
    )
