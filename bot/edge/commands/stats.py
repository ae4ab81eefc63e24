"""/game history, /game replay, /stats, /leaderboard and the admin delete/ratings tools.

custom_ids: `hg:hist:{user}:{game}:{page}:{p|n}` pages a history listing (user 0 = everyone,
game '-' = all games); `hg:del:{game pk}` confirms an admin delete. Both survive restarts.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.edge.components import dynamic_view
from bot.edge.errors import UserFacingError, report
from bot.edge.flow import channel_id_of, is_admin
from bot.edge.locale import interaction_language, private_locale
from bot.i18n import ENGLISH, ntranslate, translate
from bot.render import alt_text, charts
from bot.render import replay as replay_render
from bot.render.alt import clip, replay_alt, still_alt
from bot.services.history import (
    PROVISIONAL_GAMES,
    HistoryItem,
    HistoryPage,
    HistoryService,
    PlayerStats,
    is_person,
)
from bot.services.timeline import GameLog, load_log, turn_views
from bot.store.history import RatingRow, ResultRow
from rules import GAMES
from rules.core.errors import said
from rules.core.messages import plural

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

COLOUR = discord.Colour.from_str("#2f7fd8")
GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.id) for g in GAMES.values()]
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
SKILL_FILE = "skill-estimate.png"


def history_of(interaction: discord.Interaction[HangarBot]) -> HistoryService:
    """The bot's history service (made on first use, over the game service's store)."""
    bot = interaction.client
    service: HistoryService | None = getattr(bot, "_history_service", None)
    if service is None:
        service = HistoryService(bot.service.store, bot.service.games)
        bot._history_service = service  # type: ignore[attr-defined]
    return service


def guild_of(interaction: discord.Interaction[HangarBot]) -> int:
    """The server id; these commands are server-only."""
    if interaction.guild_id is None:
        raise UserFacingError(
            said("History and ratings belong to a server — use this in a server.")
        )
    return interaction.guild_id


def duration(seconds: float) -> str:
    """'3 d 4 h', '2 h 5 min' or '12 min'."""
    minutes = int(seconds // 60)
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return f"{days} d {hours} h"
    return f"{hours} h {mins} min" if hours else f"{mins} min"


def bold_count(n: int, word: str) -> str:
    """'**1** game', '**2** games', '**0** games' (English)."""
    return f"**{n}** {plural(n, word).split(' ', 1)[1]}"


def games(locale: str, n: int) -> str:
    """'1 game', '2 games' in `locale`'s language."""
    return ntranslate(locale, "{count} game", "{count} games", n)


def wins(locale: str, n: int) -> str:
    """'1 win', '2 wins' in `locale`'s language."""
    return ntranslate(locale, "{count} win", "{count} wins", n)


def skill(rating: RatingRow, locale: str = ENGLISH, *, inside: bool = False) -> str:
    """'Skill estimate 21 (provisional until 5 games)': the rating in a player's words
    (`inside`: lower-case, in the middle of a line)."""
    value = f"{rating.mu:.0f}"
    text = (
        translate(locale, "skill estimate {value}", value=value)
        if inside
        else translate(locale, "Skill estimate {value}", value=value)
    )
    if rating.games < PROVISIONAL_GAMES:
        text = translate(
            locale,
            "{skill} (provisional until {games})",
            skill=text,
            games=games(locale, PROVISIONAL_GAMES),
        )
    return text


def seat_names(entries: tuple[ResultRow, ...], locale: str = ENGLISH) -> dict[int, str]:
    """Each seat entry's name, with whoever held the seat before: 'dave (replaced bob)'."""
    former: dict[int, list[str]] = {}
    for e in entries:
        if e.former and e.seat is not None:
            former.setdefault(e.seat, []).append(e.name)
    return {
        e.entry: translate(
            locale, "{name} (replaced {former})", name=e.name, former=", ".join(former[e.seat])
        )
        if e.seat is not None and e.seat in former
        else e.name
        for e in entries
        if not e.former
    }


def history_line(item: HistoryItem, locale: str = ENGLISH) -> str:
    """One finished game: title, date, length, players by place with scores, board link."""
    game = item.game
    names = seat_names(item.entries, locale)
    players = " · ".join(
        f"{'🏆 ' if e.won else ''}{e.place}. {names[e.entry]} {e.score}"
        for e in sorted(item.entries, key=lambda e: (e.place, e.entry))
        if not e.former
    )
    link = ""
    if game.board_message_id:
        url = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.board_message_id}"
        link = " · " + translate(locale, "[final board]({url})", url=url)
    moves = ntranslate(locale, "{count} move", "{count} moves", game.moves)
    return (
        f"**#{game.pk} {item.title}** · <t:{int(game.finished_at)}:d> · "
        f"{moves}, {duration(item.seconds)}{link}\n{players}"
    )


def history_embed(page: HistoryPage, who: str, locale: str = ENGLISH) -> discord.Embed:
    """A page of history as an embed, in `locale`'s language."""
    text = "\n\n".join(history_line(item, locale) for item in page.items) or translate(
        locale, "No finished games yet."
    )
    title = translate(locale, "Finished games — {who}", who=who)
    embed = discord.Embed(title=title, description=text[:4000], colour=COLOUR)
    footer = translate(
        locale,
        "Page {page} of {pages} · {games}",
        page=page.page + 1,
        pages=page.pages,
        games=games(locale, page.total),
    )
    embed.set_footer(text=footer)
    return embed


class HistoryPager(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hg:hist:(?P<user>\d+):(?P<game>[a-z-]+):(?P<page>\d+):(?P<dir>[pn])",
):
    """Previous / Next on a history listing."""

    def __init__(
        self,
        user: int,
        game: str,
        page: int,
        direction: str,
        *,
        disabled: bool,
        locale: str = ENGLISH,
    ) -> None:
        label = translate(locale, "◀ Newer") if direction == "p" else translate(locale, "Older ▶")
        custom_id = f"hg:hist:{user}:{game}:{page}:{direction}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=custom_id, label=label, disabled=disabled
        )
        super().__init__(button)
        self.user, self.game, self.page = user, game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryPager:
        """Rebuild from a click, even after a restart."""
        page, direction = int(match["page"]), match["dir"]
        return cls(int(match["user"]), match["game"], page, direction, disabled=False)

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Show the page this button leads to."""
        try:
            user = self.user or None
            game = None if self.game == "-" else self.game
            page = await history_of(interaction).history(
                guild_of(interaction), user_id=user, game_id=game, page=self.page
            )
            mine = private_locale(interaction)
            embed = history_embed(page, _who(interaction, user, mine), mine)
            view = pager(page, user, game, mine)
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as exc:  # every failure is reported to the user here
            await report(interaction, exc)


def _who(interaction: discord.Interaction[HangarBot], user_id: int | None, locale: str) -> str:
    """Whose history a listing shows."""
    if user_id is None:
        return translate(locale, "this server")
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    return member.display_name if member else f"<@{user_id}>"


def pager(
    page: HistoryPage, user: int | None, game: str | None, locale: str = ENGLISH
) -> discord.ui.View | None:
    """Newer/Older buttons (none when everything fits on one page)."""
    if page.pages <= 1:
        return None
    view = dynamic_view()
    uid, gid = user or 0, game or "-"
    first = page.page == 0
    newer = HistoryPager(uid, gid, max(0, page.page - 1), "p", disabled=first, locale=locale)
    view.add_item(newer)
    last = page.page >= page.pages - 1
    view.add_item(HistoryPager(uid, gid, page.page + 1, "n", disabled=last, locale=locale))
    return view


@app_commands.command(name="history", description="Finished games on this server, newest first")
@app_commands.describe(user="Only games of this player", game="Only this game")
@app_commands.choices(game=GAME_CHOICES)
async def history_command(
    interaction: discord.Interaction[HangarBot],
    user: discord.Member | None = None,
    game: str | None = None,
) -> None:
    """A page of history with Newer/Older buttons."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    user_id = user.id if user else None
    page = await history_of(interaction).history(
        guild_of(interaction), user_id=user_id, game_id=game
    )
    mine = private_locale(interaction)
    who = user.display_name if user else translate(mine, "this server")
    embed = history_embed(page, who, mine)
    view = pager(page, user_id, game, mine)
    if view is None:
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.followup.send(embed=embed, view=view, ephemeral=True)


def stats_embed(
    stats: PlayerStats, name: str, service: HistoryService, locale: str = ENGLISH
) -> discord.Embed:
    """Totals, then one field per game with its rating, in `locale`'s language."""
    embed = discord.Embed(title=translate(locale, "Stats — {name}", name=name), colour=COLOUR)
    if not stats.games:
        embed.description = translate(locale, "No finished games on this server yet.")
        return embed
    move = stats.avg_move_seconds
    embed.description = translate(
        locale,
        "{games} · {wins} ({rate}) · average place {place} · average score {score}",
        games=ntranslate(locale, "**{count}** game", "**{count}** games", stats.games),
        wins=ntranslate(locale, "**{count}** win", "**{count}** wins", stats.wins),
        rate=f"{stats.win_rate:.0%}",
        place=format(stats.avg_place, ".2f"),
        score=format(stats.avg_score, ".1f"),
    ) + (
        " · " + translate(locale, "average time to move {time}", time=duration(move))
        if move is not None
        else ""
    )
    for row in stats.per_game[:10]:
        rating = stats.ratings.get(row.game_id)
        rated = f"\n{skill(rating, locale)}" if rating else ""
        value = translate(
            locale,
            "{games}, {wins}, average place {place}, score {score}",
            games=games(locale, row.games),
            wins=wins(locale, row.wins),
            place=format(row.place_sum / row.games, ".2f"),
            score=format(row.score_sum / row.games, ".1f"),
        )
        embed.add_field(name=service.title(row.game_id), value=value + rated, inline=False)
    embed.set_footer(text=translate(locale, "This server's finished games only"))
    return embed


def rating_lines(stats: PlayerStats, service: HistoryService) -> list[tuple[str, list[float]]]:
    """The skill estimate (μ, the figure `skill` shows) after each rated game, per game title."""
    lines: dict[str, list[float]] = {}
    for game_id, _, mu, _sigma in stats.series:
        lines.setdefault(service.title(game_id), []).append(mu)
    return list(lines.items())


@app_commands.command(
    name="stats", description="A player's games, wins and skill estimate on this server"
)
@app_commands.describe(user="Whose stats (default: yours)", game="Only this game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def stats_command(
    interaction: discord.Interaction[HangarBot],
    user: discord.Member | None = None,
    game: str | None = None,
) -> None:
    """An embed of figures with a chart of the skill estimate after each game."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = history_of(interaction)
    who = user or interaction.user
    mine = private_locale(interaction)
    stats = await service.stats(guild_of(interaction), who.id, game)
    embed = stats_embed(stats, who.display_name, service, mine)
    lines = rating_lines(stats, service)
    if not lines:
        await interaction.followup.send(embed=embed, ephemeral=True)
        return
    image = await asyncio.to_thread(charts.skill_png, lines, language=mine)
    embed.set_image(url=f"attachment://{SKILL_FILE}")
    values = "; ".join(
        translate(
            mine,
            "{title} {value} after {games}",
            title=title,
            value=format(values[-1], ".0f"),
            games=games(mine, len(values)),
        )
        for title, values in lines
    )
    alt = clip(
        translate(
            mine,
            "Chart of {name}'s skill estimate after each game: {values}",
            name=who.display_name,
            values=values,
        )
    )
    file = discord.File(io.BytesIO(image), filename=SKILL_FILE, description=alt)
    await interaction.followup.send(embed=embed, file=file, ephemeral=True)


def leaderboard_text(
    people: list[RatingRow], others: list[RatingRow], locale: str = ENGLISH
) -> str:
    """People ranked with medals; automata (Gustave) and AI players apart, below."""

    def line(r: RatingRow) -> str:
        played = f"{games(locale, r.games)}, {wins(locale, r.wins)}"
        return f"**{r.name}** — {skill(r, locale, inside=True)} · {played}"

    lines = [f"{MEDALS.get(n, f'{n}.')} {line(r)}" for n, r in enumerate(people, start=1)]
    if not lines:
        lines = [translate(locale, "Nobody is rated yet: finish a game with two or more players.")]
    if others:
        heading = translate(locale, "**Automata and AI players**")
        lines += ["", heading, *(f"· {line(r)}" for r in others)]
    return "\n".join(lines)


@app_commands.command(
    name="leaderboard", description="This server's best players of a game, by skill estimate"
)
@app_commands.describe(game="Which game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def leaderboard_command(interaction: discord.Interaction[HangarBot], game: str) -> None:
    """People ranked by a cautious skill estimate; AI levels and Gustave listed apart."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = history_of(interaction)
    rows = await service.leaderboard(guild_of(interaction), game)
    people = [r for r in rows if is_person(r.player)]
    others = [r for r in rows if not is_person(r.player)]
    mine = private_locale(interaction)
    text = leaderboard_text(people, others, mine)
    title = translate(mine, "Leaderboard — {game}", game=service.title(game))
    embed = discord.Embed(title=title, description=text[:4000], colour=COLOUR)
    footer = translate(
        mine,
        "Ranked cautiously: a skill estimate is provisional until {games}; "
        "abandoned games do not count",
        games=games(mine, PROVISIONAL_GAMES),
    )
    embed.set_footer(text=footer)
    await interaction.followup.send(embed=embed, ephemeral=True)


def game_title(locale: str, title: str, number: int) -> str:
    """'Flight game #12' in `locale`'s language."""
    return translate(locale, "{game} game #{number}", game=title, number=number)


def _replay_file(
    log: GameLog, turn: int | None, locale: str = ENGLISH
) -> tuple[bytes, str, int, str]:
    """(file bytes, file name, number of turns, alt text) in `locale` — runs in a worker thread."""
    views = turn_views(log)
    loaded = log.loaded
    title = game_title(locale, loaded.game.title, loaded.record.pk)
    if turn is not None:
        if not 0 <= turn < len(views):
            raise UserFacingError(
                said(
                    "Game #{number} has turns 0–{last}.",
                    number=loaded.record.pk,
                    last=len(views) - 1,
                )
            )
        data = replay_render.still(loaded.game.id, views[turn], loaded.names, language=locale)
        heading = translate(
            locale, "{title} at turn {turn} of {last}.", title=title, turn=turn, last=len(views) - 1
        )
        picture = alt_text(loaded.game.id, views[turn], loaded.names, language=locale)
        described = still_alt(heading, picture)
        return data, f"game-{loaded.record.pk}-turn-{turn}.png", len(views), described
    data = replay_render.animation(loaded.game.id, views, loaded.names, language=locale)
    word = getattr(loaded.game, "score_word", "point")
    abandoned = loaded.record.status == "abandoned"
    described = replay_alt(
        title,
        loaded.names,
        len(views),
        loaded.outcome,
        score_word=word,
        abandoned=abandoned,
        language=locale,
    )
    return data, f"replay-{loaded.record.pk}.webp", len(views), described


@app_commands.command(name="replay", description="An animated replay of a game (public view)")
@app_commands.describe(game_id="Game number (default: this channel's game)", turn="One turn only")
async def replay_command(
    interaction: discord.Interaction[HangarBot],
    game_id: app_commands.Range[int, 1] | None = None,
    turn: app_commands.Range[int, 0] | None = None,
) -> None:
    """Post the animation (or one turn's board) in the channel."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    loaded = await bot.service.load_latest(
        channel_id_of(interaction), game_id, guild_of(interaction)
    )
    log = await load_log(bot.service.store, loaded)
    # The replay is posted for the channel: in the server's language.
    language = await interaction_language(interaction)
    data, name, turns, described = await asyncio.to_thread(_replay_file, log, turn, language)
    title = game_title(language, loaded.game.title, loaded.record.pk)
    text = (
        translate(
            language,
            "🎬 Replay of {title} — {turns}.",
            title=title,
            turns=ntranslate(language, "{count} turn", "{count} turns", turns),
        )
        if turn is None
        else translate(
            language, "🎬 {title} at turn {turn} of {last}.", title=title, turn=turn, last=turns - 1
        )
    )
    channel = bot.get_partial_messageable(channel_id_of(interaction))
    file = discord.File(io.BytesIO(data), filename=name, description=described)
    await channel.send(text, file=file, allowed_mentions=discord.AllowedMentions.none())
    posted = translate(private_locale(interaction), "Replay posted.")
    await interaction.followup.send(posted, ephemeral=True)


class DeleteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hg:del:(?P<pk>\d+)"):
    """The confirmation of /admin delete."""

    def __init__(self, pk: int, locale: str = ENGLISH) -> None:
        label = translate(locale, "Delete game #{number}", number=pk)
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"hg:del:{pk}", label=label, style=discord.ButtonStyle.danger
        )
        super().__init__(button)
        self.pk = pk

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DeleteButton:
        """Rebuild from a click, even after a restart."""
        return cls(int(match["pk"]), private_locale(interaction))

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Delete for real (admins only, checked again now)."""
        try:
            if not is_admin(interaction):
                raise UserFacingError(said("Only an admin can delete a game."))
            record = await history_of(interaction).delete_game(guild_of(interaction), self.pk)
            text = translate(
                private_locale(interaction),
                "🗑️ Game #{number} was deleted with its moves, results and ratings.",
                number=record.pk,
            )
            await interaction.response.edit_message(content=text, view=None)
        except Exception as exc:  # every failure is reported to the user here
            await report(interaction, exc)


def status_word(locale: str, status: str) -> str:
    """A closed game's status ("finished", "abandoned") in `locale`'s language."""
    words = {"finished": translate(locale, "finished"), "abandoned": translate(locale, "abandoned")}
    return words.get(status, status)


@app_commands.command(name="delete", description="Delete a finished game (asks to confirm)")
@app_commands.describe(game_id="The game number (#N in the board's footer)")
async def delete_command(
    interaction: discord.Interaction[HangarBot], game_id: app_commands.Range[int, 1]
) -> None:
    """Ask for confirmation with a button."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = history_of(interaction)
    record = await service.game_of_guild(guild_of(interaction), game_id)
    if record.status in ("lobby", "running"):
        raise UserFacingError(
            said("Game #{number} is still open — abandon it before deleting it.", number=game_id)
        )
    mine = private_locale(interaction)
    view = dynamic_view()
    view.add_item(DeleteButton(game_id, mine))
    text = translate(
        mine,
        "Delete {game} ({status})? Its moves, results and rating changes are erased for good "
        "and every rating is recomputed.",
        game=game_title(mine, service.title(record.game_id), game_id),
        status=status_word(mine, record.status),
    )
    await interaction.followup.send(text, view=view, ephemeral=True)


@app_commands.command(name="ratings", description="Rebuild this server's ratings from the results")
async def ratings_command(interaction: discord.Interaction[HangarBot]) -> None:
    """Recompute every rating here from the stored results."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    rated = await history_of(interaction).rebuild_ratings(guild_of(interaction))
    mine = private_locale(interaction)
    text = translate(
        mine,
        "Ratings rebuilt from {games}.",
        games=ntranslate(mine, "{count} rated game", "{count} rated games", rated),
    )
    await interaction.followup.send(text, ephemeral=True)


def register(
    tree: app_commands.CommandTree[Any], game: app_commands.Group, admin: app_commands.Group
) -> None:
    """Add these commands to the tree and to the /game and /admin groups."""
    game.add_command(history_command)
    game.add_command(replay_command)
    admin.add_command(delete_command)
    admin.add_command(ratings_command)
    tree.add_command(stats_command)
    tree.add_command(leaderboard_command)


DYNAMIC_ITEMS = (HistoryPager, DeleteButton)
