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

from bot.edge.errors import UserFacingError, report
from bot.edge.flow import channel_id_of, is_admin
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
    """'**1** game', '**2** games', '**0** games'."""
    return f"**{n}** {plural(n, word).split(' ', 1)[1]}"


def skill(rating: RatingRow) -> str:
    """'Skill estimate 21 (provisional until 5 games)': the rating in a player's words."""
    text = f"Skill estimate {rating.mu:.0f}"
    if rating.games < PROVISIONAL_GAMES:
        text += f" (provisional until {plural(PROVISIONAL_GAMES, 'game')})"
    return text


def seat_names(entries: tuple[ResultRow, ...]) -> dict[int, str]:
    """Each seat entry's name, with whoever held the seat before: 'dave (replaced bob)'."""
    former: dict[int, list[str]] = {}
    for e in entries:
        if e.former and e.seat is not None:
            former.setdefault(e.seat, []).append(e.name)
    return {
        e.entry: f"{e.name} (replaced {', '.join(former[e.seat])})"
        if e.seat is not None and e.seat in former
        else e.name
        for e in entries
        if not e.former
    }


def history_line(item: HistoryItem) -> str:
    """One finished game: title, date, length, players by place with scores, board link."""
    game = item.game
    names = seat_names(item.entries)
    players = " · ".join(
        f"{'🏆 ' if e.won else ''}{e.place}. {names[e.entry]} {e.score}"
        for e in sorted(item.entries, key=lambda e: (e.place, e.entry))
        if not e.former
    )
    link = ""
    if game.board_message_id:
        url = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.board_message_id}"
        link = f" · [final board]({url})"
    return (
        f"**#{game.pk} {item.title}** · <t:{int(game.finished_at)}:d> · "
        f"{plural(game.moves, 'move')}, {duration(item.seconds)}{link}\n{players}"
    )


def history_embed(page: HistoryPage, who: str) -> discord.Embed:
    """A page of history as an embed."""
    text = "\n\n".join(history_line(item) for item in page.items) or "No finished games yet."
    embed = discord.Embed(title=f"Finished games — {who}", description=text[:4000], colour=COLOUR)
    embed.set_footer(text=f"Page {page.page + 1} of {page.pages} · {plural(page.total, 'game')}")
    return embed


class HistoryPager(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hg:hist:(?P<user>\d+):(?P<game>[a-z-]+):(?P<page>\d+):(?P<dir>[pn])",
):
    """Previous / Next on a history listing."""

    def __init__(self, user: int, game: str, page: int, direction: str, *, disabled: bool) -> None:
        label = "◀ Newer" if direction == "p" else "Older ▶"
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
            embed = history_embed(page, _who(interaction, user))
            await interaction.response.edit_message(embed=embed, view=pager(page, user, game))
        except Exception as exc:  # every failure is reported to the user here
            await report(interaction, exc)


def _who(interaction: discord.Interaction[HangarBot], user_id: int | None) -> str:
    """Whose history a listing shows."""
    if user_id is None:
        return "this server"
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    return member.display_name if member else f"<@{user_id}>"


def pager(page: HistoryPage, user: int | None, game: str | None) -> discord.ui.View | None:
    """Newer/Older buttons (none when everything fits on one page)."""
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    uid, gid = user or 0, game or "-"
    view.add_item(HistoryPager(uid, gid, max(0, page.page - 1), "p", disabled=page.page == 0))
    last = page.page >= page.pages - 1
    view.add_item(HistoryPager(uid, gid, page.page + 1, "n", disabled=last))
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
    embed = history_embed(page, user.display_name if user else "this server")
    view = pager(page, user_id, game)
    if view is None:
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.followup.send(embed=embed, view=view, ephemeral=True)


def stats_embed(stats: PlayerStats, name: str, service: HistoryService) -> discord.Embed:
    """Totals, then one field per game with its rating."""
    embed = discord.Embed(title=f"Stats — {name}", colour=COLOUR)
    if not stats.games:
        embed.description = "No finished games on this server yet."
        return embed
    move = stats.avg_move_seconds
    embed.description = (
        f"{bold_count(stats.games, 'game')} · {bold_count(stats.wins, 'win')} "
        f"({stats.win_rate:.0%}) · "
        f"average place {stats.avg_place:.2f} · average score {stats.avg_score:.1f}"
        + (f" · average time to move {duration(move)}" if move is not None else "")
    )
    for row in stats.per_game[:10]:
        rating = stats.ratings.get(row.game_id)
        rated = f"\n{skill(rating)}" if rating else ""
        embed.add_field(
            name=service.title(row.game_id),
            value=f"{plural(row.games, 'game')}, {plural(row.wins, 'win')}, average place "
            f"{row.place_sum / row.games:.2f}, score {row.score_sum / row.games:.1f}{rated}",
            inline=False,
        )
    embed.set_footer(text="This server's finished games only")
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
    stats = await service.stats(guild_of(interaction), who.id, game)
    embed = stats_embed(stats, who.display_name, service)
    lines = rating_lines(stats, service)
    if not lines:
        await interaction.followup.send(embed=embed, ephemeral=True)
        return
    image = await asyncio.to_thread(charts.skill_png, lines)
    embed.set_image(url=f"attachment://{SKILL_FILE}")
    alt = clip(
        f"Chart of {who.display_name}'s skill estimate after each game: "
        + "; ".join(
            f"{title} {values[-1]:.0f} after {plural(len(values), 'game')}"
            for title, values in lines
        )
    )
    file = discord.File(io.BytesIO(image), filename=SKILL_FILE, description=alt)
    await interaction.followup.send(embed=embed, file=file, ephemeral=True)


def leaderboard_text(people: list[RatingRow], others: list[RatingRow]) -> str:
    """People ranked with medals; automata (Gustave) and AI players apart, below."""

    def line(r: RatingRow) -> str:
        games = f"{plural(r.games, 'game')}, {plural(r.wins, 'win')}"
        return f"**{r.name}** — {skill(r).replace('Skill estimate', 'skill estimate')} · {games}"

    lines = [f"{MEDALS.get(n, f'{n}.')} {line(r)}" for n, r in enumerate(people, start=1)]
    if not lines:
        lines = ["Nobody is rated yet: finish a game with two or more players."]
    if others:
        lines += ["", "**Automata and AI players**", *(f"· {line(r)}" for r in others)]
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
    text = leaderboard_text(people, others)
    embed = discord.Embed(
        title=f"Leaderboard — {service.title(game)}", description=text[:4000], colour=COLOUR
    )
    embed.set_footer(
        text=f"Ranked cautiously: a skill estimate is provisional until "
        f"{plural(PROVISIONAL_GAMES, 'game')}; abandoned games do not count"
    )
    await interaction.followup.send(embed=embed, ephemeral=True)


def _replay_file(log: GameLog, turn: int | None) -> tuple[bytes, str, int, str]:
    """(file bytes, file name, number of turns, alt text) — runs in a worker thread."""
    views = turn_views(log)
    loaded = log.loaded
    title = f"{loaded.game.title} game #{loaded.record.pk}"
    if turn is not None:
        if not 0 <= turn < len(views):
            raise UserFacingError(
                said(
                    "Game #{number} has turns 0–{last}.",
                    number=loaded.record.pk,
                    last=len(views) - 1,
                )
            )
        data = replay_render.still(loaded.game.id, views[turn], loaded.names)
        heading = f"{title} at turn {turn} of {len(views) - 1}."
        described = still_alt(heading, alt_text(loaded.game.id, views[turn], loaded.names))
        return data, f"game-{loaded.record.pk}-turn-{turn}.png", len(views), described
    data = replay_render.animation(loaded.game.id, views, loaded.names)
    word = getattr(loaded.game, "score_word", "point")
    abandoned = loaded.record.status == "abandoned"
    described = replay_alt(
        title, loaded.names, len(views), loaded.outcome, score_word=word, abandoned=abandoned
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
    data, name, turns, described = await asyncio.to_thread(_replay_file, log, turn)
    title = f"{loaded.game.title} game #{loaded.record.pk}"
    text = (
        f"🎬 Replay of {title} — {plural(turns, 'turn')}."
        if turn is None
        else f"🎬 {title} at turn {turn} of {turns - 1}."
    )
    channel = bot.get_partial_messageable(channel_id_of(interaction))
    file = discord.File(io.BytesIO(data), filename=name, description=described)
    await channel.send(text, file=file, allowed_mentions=discord.AllowedMentions.none())
    await interaction.followup.send("Replay posted.", ephemeral=True)


class DeleteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hg:del:(?P<pk>\d+)"):
    """The confirmation of /admin delete."""

    def __init__(self, pk: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"hg:del:{pk}", label=f"Delete game #{pk}", style=discord.ButtonStyle.danger
        )
        super().__init__(button)
        self.pk = pk

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DeleteButton:
        """Rebuild from a click, even after a restart."""
        return cls(int(match["pk"]))

    async def callback(self, interaction: discord.Interaction[HangarBot]) -> None:  # type: ignore[override]
        """Delete for real (admins only, checked again now)."""
        try:
            if not is_admin(interaction):
                raise UserFacingError(said("Only an admin can delete a game."))
            record = await history_of(interaction).delete_game(guild_of(interaction), self.pk)
            text = f"🗑️ Game #{record.pk} was deleted with its moves, results and ratings."
            await interaction.response.edit_message(content=text, view=None)
        except Exception as exc:  # every failure is reported to the user here
            await report(interaction, exc)


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
    view = discord.ui.View(timeout=None)
    view.add_item(DeleteButton(game_id))
    text = (
        f"Delete {service.title(record.game_id)} game #{game_id} ({record.status})? Its moves, "
        "results and rating changes are erased for good and every rating is recomputed."
    )
    await interaction.followup.send(text, view=view, ephemeral=True)


@app_commands.command(name="ratings", description="Rebuild this server's ratings from the results")
async def ratings_command(interaction: discord.Interaction[HangarBot]) -> None:
    """Recompute every rating here from the stored results."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    rated = await history_of(interaction).rebuild_ratings(guild_of(interaction))
    await interaction.followup.send(
        f"Ratings rebuilt from {plural(rated, 'rated game')}.", ephemeral=True
    )


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
