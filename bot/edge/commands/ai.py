"""/game ai add|remove and /admin ai|human: AI seats from slash commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.edge.flow import announce, channel_id_of, is_admin, post_board
from bot.edge.locale import interaction_language, private_locale
from bot.edge.present import lobby_text, lobby_view
from bot.i18n import translate
from bot.runtime import ai_turns
from bot.services.ai import add_ai_seat, remove_ai_seat, seat_ai, seat_human
from bot.services.loading import LoadedGame

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

Level = Literal["easy", "normal", "hard"]


def ai_group(parent: app_commands.Group) -> app_commands.Group:
    """`/game ai …`."""
    group = app_commands.Group(name="ai", description="AI players at this table", parent=parent)

    @group.command(name="add", description="Seat an AI player in this lobby (creator or admin)")
    @app_commands.describe(level="easy (random moves), normal or hard")
    async def add(interaction: discord.Interaction[HangarBot], level: Level = "normal") -> None:
        """Take the next lobby seat for an AI."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loaded = await add_ai_seat(
            interaction.client.service,
            channel_id_of(interaction),
            interaction.user.id,
            is_admin(interaction),
            level,
        )
        name = loaded.names[-1]
        language, mine = await interaction_language(interaction), private_locale(interaction)
        text = translate(language, "{player} joined.", player=name) + "\n"
        text += lobby_text(loaded, language)
        note = translate(mine, "{player} added.", player=name)
        await announce(interaction, text, view=lobby_view(loaded, language), note=note)

    @group.command(name="remove", description="Take an AI out of this lobby (creator or admin)")
    @app_commands.describe(seat="The AI's seat number (1 = first); the last AI when left out")
    async def remove(
        interaction: discord.Interaction[HangarBot],
        seat: app_commands.Range[int, 1, 5] | None = None,
    ) -> None:
        """Free an AI's lobby seat."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loaded, name = await remove_ai_seat(
            interaction.client.service,
            channel_id_of(interaction),
            interaction.user.id,
            is_admin(interaction),
            None if seat is None else seat - 1,
        )
        language, mine = await interaction_language(interaction), private_locale(interaction)
        text = translate(language, "{player} left the lobby.", player=name) + "\n"
        text += lobby_text(loaded, language)
        note = translate(mine, "{player} removed.", player=name)
        await announce(interaction, text, view=lobby_view(loaded, language), note=note)

    return group


async def admin_ai(
    interaction: discord.Interaction[HangarBot], player: discord.Member, level: Level
) -> None:
    """`/admin ai`: an AI takes over a player's seat."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    await hand_to_ai(interaction, player.id, player.display_name, level)


async def hand_to_ai(
    interaction: discord.Interaction[HangarBot], user_id: int, who: str, level: Level
) -> None:
    """An AI of `level` takes over the seat of `user_id` (`who`: their name); deferred already."""
    bot = interaction.client
    channel_id = channel_id_of(interaction)
    loaded, seat = await seat_ai(bot.service, channel_id, user_id, level)
    name = loaded.names[seat]
    language, mine = await interaction_language(interaction), private_locale(interaction)
    text = translate(
        language,
        "{ai} takes over {player}'s seat (seat {seat}).",
        ai=name,
        player=who,
        seat=seat + 1,
    )
    await announce(interaction, text, note=translate(mine, "Seat handed to {ai}.", ai=name))
    await fresh_board(bot, loaded, seat, user_id=None)
    ai_turns.schedule(bot, channel_id)


async def admin_human(
    interaction: discord.Interaction[HangarBot], seat: int, player: discord.Member
) -> None:
    """`/admin human`: a member takes over an AI's seat."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    await hand_to_member(interaction, seat, player)


async def hand_to_member(
    interaction: discord.Interaction[HangarBot], seat: int, player: discord.Member
) -> None:
    """A member takes over the AI's `seat` (1 = first); deferred already."""
    loaded = await seat_human(
        interaction.client.service,
        channel_id_of(interaction),
        seat - 1,
        player.id,
        player.display_name,
    )
    language, mine = await interaction_language(interaction), private_locale(interaction)
    text = translate(
        language,
        "{player} takes over seat {seat} from the AI ({title}).",
        player=player.mention,
        seat=seat,
        title=loaded.game.title,
    )
    mentions = discord.AllowedMentions(users=[player])
    note = translate(mine, "Seat handed to a player.")
    await announce(interaction, text, note=note, mentions=mentions)
    await fresh_board(interaction.client, loaded, seat - 1, user_id=player.id)


async def fresh_board(
    bot: HangarBot, loaded: LoadedGame, seat: int, *, user_id: int | None
) -> None:
    """After a seat changes hands mid-game, as /admin replace does: the seat's clock forgets the
    former holder's missed turns, and a fresh board names the new holder (the old one still
    shows the former holder and their deadline), pinging a member whose turn it is."""
    if loaded.state is None or loaded.outcome is not None:
        return  # a lobby has no board; a finished game's board stays as it ended
    if user_id is not None:
        await bot.clocks.back(loaded.record.channel_id, user_id)
    ping = (seat,) if user_id is not None and seat in loaded.active_seats else ()
    await post_board(bot, loaded, ping=ping)
