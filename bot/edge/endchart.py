"""The end-of-game chart posted under the final board: Takeoff! points after each pass, Flight
score after each hand, First in Flight record after each Year (Gustave too when he played)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.render.alt import clip
from bot.render.charts import axis_words, scores_png, tick_text
from bot.render.common import SEAT_COLOURS
from bot.render.fif_board import GUSTAVE_COLOUR
from bot.services.games import LoadedGame
from bot.services.timeline import load_log, score_series

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)
CHART_FILE = "chart.png"


@dataclass(frozen=True)
class EndChart:
    """What the chart draws: its title, checkpoints, one score per line at each, line names."""

    title: str
    labels: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    colours: tuple[str, ...]


def chart_title(series_title: str, labels: Sequence[str]) -> str:
    """'Points after each pass' from 'Points per pass': the values are running totals."""
    unit = series_title.split(" per ")[0]
    return f"{unit} after each {axis_words(labels).lower()}"


def records_chart(view: Any, names: Sequence[str]) -> EndChart | None:
    """First in Flight: each record at the end of every Year (a FiF GameView), Gustave last."""
    rows = [(names[s.seat] if s.seat < len(names) else f"Seat {s.seat + 1}", s.record_by_year,
             SEAT_COLOURS[s.seat % len(SEAT_COLOURS)]) for s in view.seats]  # fmt: skip
    if view.gustave_record is not None:
        rows.append(("Gustave", view.gustave_record_by_year, GUSTAVE_COLOUR))
    years = max((len(values) for _, values, _ in rows), default=0)
    if not years:
        return None
    padded = [tuple(values) + (values[-1] if values else 0,) * (years - len(values))
              for _, values, _ in rows]  # fmt: skip
    return EndChart(
        title="Record after each Year",
        labels=tuple(f"Year {n}" for n in range(1, years + 1)),
        scores=tuple(tuple(p[year] for p in padded) for year in range(years)),
        names=tuple(name for name, _, _ in rows),
        colours=tuple(colour for _, _, colour in rows),
    )


def end_chart(loaded: LoadedGame, game_log: Any) -> EndChart | None:
    """The game's end chart, or None when it has no checkpoints to chart."""
    if loaded.game.id == "first-in-flight":
        return records_chart(loaded.game.view(loaded.state, None), loaded.names)
    series = score_series(game_log)
    if series is None:
        return None
    colours = tuple(SEAT_COLOURS[n % len(SEAT_COLOURS)] for n in range(len(loaded.names)))
    title = chart_title(series.title, series.labels)
    return EndChart(title, series.labels, series.scores, tuple(loaded.names), colours)


def chart_png(chart: EndChart) -> bytes:
    """The chart's picture."""
    return scores_png(chart.title, chart.labels, chart.scores, chart.names, chart.colours)


async def post_end_chart(bot: HangarBot, loaded: LoadedGame) -> None:
    """Post the game's score chart; a failure costs the chart, never the final board."""
    try:
        game_log = await load_log(bot.service.store, loaded)
        chart = await asyncio.to_thread(end_chart, loaded, game_log)
        if chart is None:
            return
        image = await asyncio.to_thread(chart_png, chart)
        words_title = f"{chart.title[0].lower()}{chart.title[1:]}"
        embed = discord.Embed(
            title=f"{loaded.game.title} — {words_title}",
            colour=discord.Colour.from_str("#2f7fd8"),
        )
        embed.set_image(url=f"attachment://{CHART_FILE}")
        embed.set_footer(text=f"game #{loaded.record.pk}")
        channel = bot.get_partial_messageable(loaded.record.channel_id)
        last = chart.scores[-1] if chart.scores else ()
        words = ", ".join(f"{n} {tick_text(v, 1)}" for n, v in zip(chart.names, last, strict=False))
        alt = clip(f"Chart of the {words_title}; final: {words}.")
        file = discord.File(io.BytesIO(image), filename=CHART_FILE, description=alt)
        await channel.send(embed=embed, file=file, allowed_mentions=discord.AllowedMentions.none())
    except Exception:  # the board is already posted; the chart is a bonus
        log.exception("End-of-game chart of game %s failed", loaded.record.pk)
