"""/game learn (a practice table with a coach), /game hint, and the coach's buttons (issue 31)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.edge.commands.clock import THREAD_ARCHIVE_MINUTES, open_thread
from bot.edge.errors import UserFacingError, report, send_ephemeral
from bot.edge.flow import channel_id_of, load_same_game, start_game, tell_if_late
from bot.edge.locale import interaction_language, private_locale
from bot.edge.present import fill_seats
from bot.i18n import say, translate
from bot.services.loading import LoadedGame
from rules import GAMES
from rules.core.errors import said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

WELCOME = said(
    "🎓 **Practice table: {title}** — only {name} plays here, against {ais}. Nothing here counts "
    "for `/game history`, `/stats` or `/leaderboard`.\n"
    "• Press **My hand & moves** on the board: on your turn every move you can make is listed "
    "with what it does under the rules.\n"
    "• **Hint** shows the move the Hard AI would play and why; **Leave practice** ends the "
    "table whenever you like."
)


def register(group: app_commands.Group) -> None:
    """Add `/game learn` and `/game hint` to the /game group."""
    group.add_command(learn_command)
    group.add_command(hint_command)


@app_commands.command(
    name="learn", description="Practise a game against AIs; every move is explained (only you)"
)
@app_commands.describe(game="The game to learn")
@app_commands.choices(game=[app_commands.Choice(name=g.title, value=g.id) for g in GAMES.values()])
async def learn_command(interaction: discord.Interaction[HangarBot], game: str) -> None:
    """Open a practice table in a new thread and deal at once."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if interaction.guild_id is None:
        raise UserFacingError(
            said("Practice tables open in a server channel — try it in one there.")
        )
    bot, user = interaction.client, interaction.user
    engine = GAMES[game]
    thread = await open_practice_thread(
        interaction, f"Learning {engine.title} — {user.display_name}"
    )
    loaded = await bot.learn.open(interaction.guild_id, thread, game, user.id, user.display_name)
    ais = ", ".join(s.name for s in loaded.seats if s.ai_level)
    language = await interaction_language(interaction)
    text = translate(language, WELCOME, title=engine.title, name=user.display_name, ais=ais)
    await bot.get_partial_messageable(thread).send(
        text, allowed_mentions=discord.AllowedMentions.none()
    )
    late = await start_game(bot, thread, user.id, False)
    ready = translate(
        private_locale(interaction),
        "🎓 Your practice table is ready in <#{thread}> — open **My hand & moves** there.",
        thread=thread,
    )
    await interaction.followup.send(ready, ephemeral=True)
    await tell_if_late(interaction, late)


async def open_practice_thread(interaction: discord.Interaction[HangarBot], name: str) -> int:
    """A private thread holding only the learner and the bot; a public one where not allowed."""
    channel = interaction.channel
    parent = (
        channel.parent_id if isinstance(channel, discord.Thread) else channel_id_of(interaction)
    )
    http = interaction.client.http
    try:
        data = await http.start_thread_without_message(
            parent,
            name=name[:100],
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            type=discord.ChannelType.private_thread.value,
            invitable=False,  # a practice table is the learner's own
        )
        thread = int(data["id"])
        await http.add_user_to_thread(thread, interaction.user.id)
    except discord.Forbidden:
        # No "Create Private Threads" permission here: a public thread still works.
        return await open_thread(interaction, name)
    return thread


@app_commands.command(
    name="hint", description="The move the Hard AI would play for you now, and why"
)
async def hint_command(interaction: discord.Interaction[HangarBot]) -> None:
    """A private hint at this channel's game (where the table allows hints)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loaded = await interaction.client.service.load(channel_id_of(interaction))
    await interaction.followup.send(await _hint_text(interaction, loaded), ephemeral=True)


async def _hint_text(interaction: discord.Interaction[HangarBot], loaded: LoadedGame) -> str:
    """The hint for the clicker's seat, names filled in (a refusal raises)."""
    bot = interaction.client
    seat = bot.service.seat_of(loaded, interaction.user.id)
    hint = say(private_locale(interaction), await bot.hints.hint(loaded, seat))
    return fill_seats(str(hint), loaded)[:2000]


LEFT_PRACTICE = said("🚪 You left the practice table; nothing of it was recorded.")


async def handle_coach(interaction: discord.Interaction[HangarBot], pk: int, op: str) -> None:
    """The coach's buttons: Hint, Last move? and Leave practice — answered privately."""
    # Acknowledged at once: a hint takes a worker thread a moment (Discord allows 3 s).
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        loaded = await load_same_game(interaction, pk)
        if op == "hint":
            text = await _hint_text(interaction, loaded)
        elif op == "leave":
            await interaction.client.learn.leave(channel_id_of(interaction), interaction.user.id)
            text = LEFT_PRACTICE  # said: told in the clicker's language
            language = await interaction_language(interaction)
            left = translate(
                language,
                "🚪 {player} left the practice table. `/game learn` opens a new one.",
                player=interaction.user.display_name,
            )
            await interaction.client.get_partial_messageable(channel_id_of(interaction)).send(
                left, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            seat = interaction.client.service.seat_of(loaded, interaction.user.id)
            mine = private_locale(interaction)
            text = fill_seats(await interaction.client.learn.last_move(loaded, seat, mine), loaded)
        await send_ephemeral(interaction, text)
    except Exception as exc:  # every failure is reported to the clicker here
        await report(interaction, exc)
