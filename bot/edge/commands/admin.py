"""/admin … — resume, abandon, replace, undo, verify, export (members with Manage Server)."""

from __future__ import annotations

import io
import json
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.edge.commands.ai import (
    Level,
    admin_ai,
    admin_human,
    fresh_board,
    hand_to_ai,
    hand_to_member,
)
from bot.edge.commands.stats import guild_of, history_of
from bot.edge.errors import UserFacingError
from bot.edge.flow import (
    announce,
    channel_id_of,
    publish,
    repost_board,
    tell_if_late,
)
from bot.edge.limits import excerpt
from bot.edge.locale import interaction_language, private_locale, private_text
from bot.i18n import ntranslate, translate
from bot.services.ai import AI_ICON
from bot.services.errors import DamagedGameError, NotInGameError
from bot.services.games import LoadedGame
from bot.store.repository import SeatRecord
from rules.core.errors import said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

# A Discord id anywhere in the text: a mention (<@id>, <@!id>), a pasted id, "@name (id)".
SNOWFLAKE = re.compile(r"\d{15,21}")
SEAT_NUMBER = re.compile(r"^(?:seat\s*)?#?(?P<n>\d{1,2})$", re.IGNORECASE)
AI_WORDS = frozenset({"ai", "bot", "computer"})


def plain(name: str) -> str:
    """A name as typed: case and the AI's robot icon do not matter."""
    return name.replace(AI_ICON, "").strip().casefold()


def names_an_ai(text: str) -> bool:
    """True when `new` asks for an AI player rather than a member."""
    return plain(text) in AI_WORDS


def seat_named(loaded: LoadedGame, who: str) -> SeatRecord:
    """The seat `who` names: a mention or user id, the seat's name ("🤖 Hard AI"), its number,
    or "ai" when one AI plays here."""
    text = who.strip()
    found = SNOWFLAKE.search(text)
    for seat in loaded.seats:
        if found and seat.user_id is not None and found.group() == str(seat.user_id):
            return seat
        if plain(text) == plain(seat.name):
            return seat
    number = SEAT_NUMBER.match(text)
    if number:
        seat_of_number = next((s for s in loaded.seats if s.seat == int(number["n"]) - 1), None)
        if seat_of_number is not None:
            return seat_of_number
    ais = [seat for seat in loaded.seats if seat.ai_level]
    if names_an_ai(text) and len(ais) == 1:
        return ais[0]
    raise NotInGameError(said("{who} is not a player in this game.", who=excerpt(who)))


async def member_named(interaction: discord.Interaction[HangarBot], who: str) -> discord.Member:
    """The server member `who` names (a mention or a user id); bots cannot take a seat."""
    found = SNOWFLAKE.search(who)
    guild = interaction.guild
    if found is None or guild is None:
        raise UserFacingError(
            said(
                "{who} does not name a member: give a mention (@name) or a user id, "
                "or `ai` for an AI player.",
                who=excerpt(who),
            )
        )
    user_id = int(found.group())
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.NotFound:
            raise UserFacingError(said("That user is not a member of this server.")) from None
    if member.bot:
        raise UserFacingError(said("A bot cannot take a seat: give `ai` for an AI player."))
    return member


def escape(name: str) -> str:
    """A stored display name, safe to show (no markdown, no pings)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


# Discord's default_member_permissions can only require ALL of its bits, never one OF several, so
# /admin asks for exactly one: Discord shows it to whoever has Manage Server (Administrators too)
# and the run-time check below allows exactly the same people.
ADMIN_PERMISSIONS = discord.Permissions(manage_guild=True)


async def new_player_autocomplete(
    interaction: discord.Interaction[HangarBot], current: str
) -> list[app_commands.Choice[str]]:
    """`new`: an AI player, or what was typed (a mention or an id: members are not listed)."""
    choices = [app_commands.Choice(name=f"{AI_ICON} An AI player (level: see level)", value="ai")]
    typed = current.strip()
    if typed and not names_an_ai(typed):
        choices.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
    return choices


class NotServerManagerError(UserFacingError, app_commands.CheckFailure):
    """/admin used by someone without Manage Server (a CheckFailure so discord.py reports it)."""

    def __init__(self) -> None:
        super().__init__(said("/admin needs the Manage Server permission on this server."))


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
        language = await interaction_language(interaction)
        try:
            loaded = await service.admin.abandon(channel_id, interaction.user.id, True)
            text = translate(
                language, "An admin ended the {title} game here.", title=loaded.game.title
            )
        except DamagedGameError:
            damaged = await service.admin.abandon_damaged(channel_id, interaction.user.id)
            text = translate(
                language,
                "An admin ended the damaged {title} game #{number} here.",
                title=damaged.what,
                number=damaged.game_pk,
            )
        note = translate(private_locale(interaction), "Abandoned.")
        await announce(interaction, text, note=note)

    @app_commands.command(
        name="replace", description="Give a seat to another member, or to an AI, and back"
    )
    @app_commands.describe(
        old="The seat: a mention, a user id, the seat's name or number (they may have left)",
        new="Who takes it: a mention or a user id, or ai for an AI player",
        level="The AI's level when new is ai: easy, normal (default) or hard",
    )
    @app_commands.autocomplete(new=new_player_autocomplete)
    async def replace(
        self,
        interaction: discord.Interaction[HangarBot],
        old: str,
        new: str,
        level: Level = "normal",
    ) -> None:
        """Hand a seat to someone else; the game state is untouched.

        Both are text: the member being replaced has often left the server (Discord can no
        longer resolve them), and `new` may be `ai`.
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = interaction.client.service
        seat = seat_named(await service.load(channel_id_of(interaction)), old)
        if names_an_ai(new):
            if seat.user_id is None:
                raise UserFacingError(
                    said("{name} is already an AI player.", name=escape(seat.name))
                )
            await hand_to_ai(interaction, seat.user_id, escape(seat.name), level)
            return
        member = await member_named(interaction, new)
        if seat.user_id is None:
            await hand_to_member(interaction, seat.seat + 1, member)
            return
        loaded = await service.admin.replace(
            channel_id_of(interaction), seat.user_id, member.id, member.display_name
        )
        language = await interaction_language(interaction)
        text = translate(
            language,
            "{member} takes over {player}'s seat.",
            member=member.mention,
            player=escape(seat.name),
        )
        mentions = discord.AllowedMentions(users=[member])
        note = translate(private_locale(interaction), "Seat replaced.")
        await announce(interaction, text, note=note, mentions=mentions)
        # The new player is not auto-played for what the old one missed, and a fresh board
        # names them (pinged when the turn is theirs) — as every seat hand-off does.
        await fresh_board(interaction.client, loaded, seat.seat, user_id=member.id)

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
        result = await bot.service.moves.undo(channel_id_of(interaction))
        await tell_if_late(interaction, await publish(bot, result))
        undone = translate(private_locale(interaction), "The last move was undone.")
        await interaction.followup.send(undone, ephemeral=True)

    @app_commands.command(name="verify", description="Replay the log and compare with the snapshot")
    @app_commands.describe(game_id="Any game of this server (default: this channel's)")
    async def verify(
        self, interaction: discord.Interaction[HangarBot], game_id: int | None = None
    ) -> None:
        """Report whether seed + action log reproduce the stored state."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await interaction.client.service.admin.verify(
            channel_id_of(interaction), game_id, interaction.guild_id
        )
        mark = "✅ " if report.ok else "❌ "
        text = mark + private_text(interaction, report.detail)
        await interaction.followup.send(text[:2000], ephemeral=True)

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
        mine = private_locale(interaction)
        note = translate(mine, "Game export:")
        try:
            data = await service.admin.export(
                channel_id, game_id, interaction.guild_id, asked_by=interaction.user.id
            )
        except DamagedGameError:
            data = await service.admin.export_raw(channel_id, game_id, interaction.guild_id)
            note = translate(mine, "This game is damaged, so here are its rows exactly as stored:")
        blob = json.dumps(data, indent=2, sort_keys=True, default=str).encode()
        name = f"hangar-game-{data.get('game', {}).get('pk', 'export')}.json"
        await interaction.followup.send(
            note, file=discord.File(io.BytesIO(blob), filename=name), ephemeral=True
        )


async def export_all(interaction: discord.Interaction[HangarBot]) -> None:
    """Every finished game of this server, one JSON export per line."""
    guild_id, service = guild_of(interaction), interaction.client.service
    pks = await history_of(interaction).finished_pks(guild_id)
    lines = [json.dumps(await service.admin.export(0, pk, guild_id), sort_keys=True) for pk in pks]
    blob = ("\n".join(lines) + "\n" if lines else "").encode()
    name = f"hangar-games-{guild_id}.jsonl"
    await interaction.followup.send(
        ntranslate(
            private_locale(interaction),
            "{count} finished game:",
            "{count} finished games:",
            len(lines),
        ),
        file=discord.File(io.BytesIO(blob), filename=name),
        ephemeral=True,
    )
