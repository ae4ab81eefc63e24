"""/game … (lobby, status, rules, log, hand) and /mygames."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.edge.commands import learn
from bot.edge.commands.ai import ai_group
from bot.edge.commands.clock import away_note, open_thread
from bot.edge.commands.options import new_game_command
from bot.edge.errors import UserFacingError
from bot.edge.flow import (
    announce,
    channel_id_of,
    is_admin,
    repost_board,
    send_hand,
    start_game,
    tell_if_late,
)
from bot.edge.locale import in_language, interaction_language, private_locale
from bot.edge.mygames import lobby_state, user_listing, your_turn_inside
from bot.edge.present import fill_seats, lobby_text, lobby_view, own_prompt, status_line
from bot.i18n import ENGLISH, say, translate
from bot.services.ai import add_ai_seat
from bot.services.games import LoadedGame
from bot.services.preferences import TableOptions, table_text
from bot.store.repository import TableFlags
from rules import GAMES, Game, get_game
from rules.core import PlayerError, messages
from rules.core.errors import said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

RULES_LIMIT = 1900


class GameGroup(app_commands.Group):
    """Everything about the game in this channel."""

    def __init__(self) -> None:
        super().__init__(name="game", description="Play a game in this channel", guild_only=True)
        new = app_commands.Group(name="new", description="Open a game lobby here", parent=self)
        for game in GAMES.values():
            new.add_command(new_game_command(game, open_lobby))
        ai_group(self)  # registers `/game ai …` under this group
        learn.register(self)  # `/game learn` and `/game hint`

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Join the lobby."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        loaded = await interaction.client.service.lobby.join(
            channel_id_of(interaction), user.id, user.display_name
        )
        language, mine = await interaction_language(interaction), private_locale(interaction)
        joined = translate(language, "{player} joined.", player=user.display_name)
        text = joined + "\n" + lobby_text(loaded, language)
        note = translate(mine, "You joined the lobby.")
        await announce(interaction, text, view=lobby_view(loaded, language), note=note)

    @app_commands.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Leave the lobby (the creator leaving closes it)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loaded = await interaction.client.service.lobby.leave(
            channel_id_of(interaction), interaction.user.id
        )
        language, mine = await interaction_language(interaction), private_locale(interaction)
        if loaded.record.status == "lobby":
            name = interaction.user.display_name
            text = translate(language, "{player} left.", player=name) + "\n"
            text += lobby_text(loaded, language)
            note = translate(mine, "You left the lobby.")
            await announce(interaction, text, view=lobby_view(loaded, language), note=note)
        else:
            closed = translate(language, "The lobby was closed.")
            await announce(interaction, closed, note=translate(mine, "You closed the lobby."))

    @app_commands.command(name="start", description="Start the game (creator or admin)")
    async def start(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Start the lobby's game."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        late = await start_game(
            bot, channel_id_of(interaction), interaction.user.id, is_admin(interaction)
        )
        started = translate(private_locale(interaction), "▶️ The game has started.")
        await interaction.followup.send(started, ephemeral=True)
        await tell_if_late(interaction, late)

    @app_commands.command(name="status", description="Re-post the board and the current prompt")
    async def status(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Post the board again as a new message (no ping: anyone may ask)."""
        await repost_board(interaction, ping_active=False)

    @app_commands.command(name="hand", description="Your private view and moves (only you see it)")
    async def hand(self, interaction: discord.Interaction[HangarBot]) -> None:
        """The private panel."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loaded = await interaction.client.service.load(channel_id_of(interaction))
        await send_hand(interaction, loaded, edit=False)

    @app_commands.command(name="log", description="Recent events of this channel's game")
    async def log(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Recent log lines this user may read."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        loaded = await bot.service.load_latest(channel_id_of(interaction))
        seat = bot.service.seat_of(loaded, interaction.user.id)
        mine = private_locale(interaction)
        channel = loaded.record.channel_id
        lines = await bot.service.boards.story(channel, seat, limit=15, language=mine)
        text = "\n".join(f"• {fill_seats(line, loaded)}" for line in lines)
        text = text or translate(mine, "Nothing yet.")
        await interaction.followup.send(text[:2000], ephemeral=True)

    @app_commands.command(name="rules", description="How to play")
    @app_commands.describe(game="Which game (default: the one in this channel)", topic="A topic")
    @app_commands.choices(
        game=[app_commands.Choice(name=g.title, value=g.id) for g in GAMES.values()]
    )
    async def rules(
        self,
        interaction: discord.Interaction[HangarBot],
        game: str | None = None,
        topic: str | None = None,
    ) -> None:
        """Rules text for a game and topic; with no game here and none named, ask which game."""
        engine = await rules_for(interaction, game)
        mine = private_locale(interaction)

        def tell(text: str) -> str:
            return str(say(mine, text))

        if engine is None:
            text = messages.which_game(list(GAMES.values()), tell)
        else:
            text = messages.rules_page(engine, topic, tell)
        await interaction.response.send_message(text[:RULES_LIMIT], ephemeral=True)

    @rules.autocomplete("topic")
    async def rules_topic(
        self, interaction: discord.Interaction[HangarBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Topics of the chosen (or this channel's) game."""
        chosen = getattr(interaction.namespace, "game", None)
        try:
            engine = await rules_for(interaction, chosen)
        except PlayerError:
            return []
        if engine is None:
            return []
        topics = [t for t in engine.rules_topics() if current.lower() in t.lower()]
        return [app_commands.Choice(name=t, value=t) for t in topics[:25]]

    @app_commands.command(name="abandon", description="End this game (creator before start; admin)")
    async def abandon(self, interaction: discord.Interaction[HangarBot]) -> None:
        """Abandon the channel's game."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loaded = await interaction.client.service.admin.abandon(
            channel_id_of(interaction), interaction.user.id, is_admin(interaction)
        )
        language = await interaction_language(interaction)
        text = translate(language, "The {title} game here was abandoned.", title=loaded.game.title)
        await announce(interaction, text, note=translate(private_locale(interaction), "Abandoned."))


async def rules_for(
    interaction: discord.Interaction[HangarBot], game_id: str | None
) -> Game | None:
    """The named game, else this channel's game, else None (the caller asks which game)."""
    if game_id:
        return get_game(game_id)
    if interaction.channel_id is not None:
        try:
            return (await interaction.client.service.load(interaction.channel_id)).game
        except PlayerError:
            pass
    return None


async def open_lobby(
    interaction: discord.Interaction[HangarBot], game: Game, options: dict[str, Any]
) -> None:
    """`/game new <game>`: validate options, open the lobby, show Join/Leave/Start."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if interaction.guild_id is None:
        raise UserFacingError(said("Games can only be played in a server channel."))
    user, bot = interaction.user, interaction.client
    table = {k: options.pop(k) for k in list(options) if k in TableOptions.model_fields}
    ai_seats, ai_level = options.pop("ai_seats", 0), options.pop("ai_level", "normal")
    channel_id = channel_id_of(interaction)
    if await bot.preferences.wants_thread(interaction.guild_id, table):
        channel_id = await open_thread(interaction, f"{game.title} — {user.display_name}")
    loaded = await bot.service.lobby.open(
        interaction.guild_id, channel_id, game.id, options, user.id, user.display_name
    )
    settings = await bot.preferences.set_table(loaded.record, table)
    hints = bool(table.get("hints"))
    if hints:  # the Hint button for every seat (issue 31); off unless chosen
        await bot.learn.flags.put(loaded.record.pk, TableFlags(hints=True))
    for _ in range(ai_seats):
        loaded = await add_ai_seat(bot.service, channel_id, user.id, False, ai_level)
    language, mine = await interaction_language(interaction), private_locale(interaction)
    text = f"{lobby_text(loaded, language)}\n{table_text(settings, hints, language)}"
    if channel_id != channel_id_of(interaction):
        thread = bot.get_partial_messageable(channel_id)
        await thread.send(text, view=lobby_view(loaded, language))
        opened = translate(mine, "Lobby opened in <#{channel}>.", channel=channel_id)
        await interaction.followup.send(opened, ephemeral=True)
        return
    note = translate(mine, "Lobby opened.")
    await announce(interaction, text, view=lobby_view(loaded, language), note=note)


@app_commands.command(name="mygames", description="Your games on this server and whose turn it is")
@app_commands.guild_only()
async def mygames_command(interaction: discord.Interaction[HangarBot]) -> None:
    """List this user's lobby/running games here with links."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    # Built from columns (bot.mygames): no snapshot is decoded, however many games the user has.
    mine = private_locale(interaction)
    guild = interaction.guild_id or 0
    games, damaged = await user_listing(bot.service, guild, interaction.user.id, mine)
    if not games and not damaged:
        text = translate(mine, "You are not in any game on this server.")
        await interaction.followup.send(text, ephemeral=True)
        return
    away = await away_note(interaction)
    lines = [away] if away else []
    lines += [
        translate(
            mine,
            "• ⚠️ {what} in <#{channel}>: game #{number} is damaged ({reason}) — an admin there "
            "can `/admin export` and `/admin abandon` it.",
            what=bad.what,
            channel=bad.channel_id,
            number=bad.game_pk,
            reason=in_language(mine, bad.reason),
        )
        for bad in damaged
    ]
    lines += [
        game_line(
            item.title,
            item.row.guild_id,
            item.row.channel_id,
            item.row.board_message_id,
            item.state,
            mine,
        )
        for item in games
    ]
    await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)


def mygames_line(loaded: LoadedGame, seat: int | None, locale: str = ENGLISH) -> str:
    """One game for /mygames, worded for the reader, with a markdown link to its board."""
    record = loaded.record
    if loaded.state is None:
        state = lobby_state(locale, len(loaded.seats))
    elif loaded.outcome is None and seat is not None and seat in loaded.active_seats:
        # mid-sentence: "Takeoff! in #plane: **your turn** — Play cards…"
        state = your_turn_inside(locale, own_prompt(loaded, seat, locale)).split("\n")[0]
    else:
        state = status_line(loaded, seat, locale).split("\n")[0]
    return game_line(
        loaded.game.title,
        record.guild_id,
        record.channel_id,
        record.board_message_id,
        state,
        locale,
    )


def game_line(
    title: str,
    guild_id: int,
    channel_id: int,
    board_message_id: int | None,
    state: str,
    locale: str = ENGLISH,
) -> str:
    """One /mygames line: the game, where, its state for the reader, a link to its board."""
    where = f"https://discord.com/channels/{guild_id}/{channel_id}"
    if board_message_id:
        where += f"/{board_message_id}"
    go = (
        translate(locale, "go to the board")
        if board_message_id
        else translate(locale, "go to the channel")
    )
    return translate(
        locale,
        "• {game} in <#{channel}>: {state} — [{go}]({url})",
        game=title,
        channel=channel_id,
        state=state,
        go=go,
        url=where,
    )
