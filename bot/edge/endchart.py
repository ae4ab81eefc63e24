"""The end-of-game chart posted under the final board: Takeoff! points after each pass, Flight
score after each hand, First in Flight record after each Year (Gustave too when he played)."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.edge.locale import public_locale
from bot.i18n import ENGLISH, say, translate
from bot.render.alt import clip
from bot.render.charts import axis_words, scores_png, tick_text
from bot.render.common import SEAT_COLOURS
from bot.render.fif_board import GUSTAVE_COLOUR
from bot.services.games import LoadedGame
from bot.services.timeline import load_log, score_series
from rules.core.errors import Said, said

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


# Each chart's title and y axis, said whole (English builds them from the series' words; a
# translation must not): series title → (chart title, y axis).
RECORDS = said("Record after each Year")
TITLES: dict[str, tuple[Said, Said]] = {
    "Points per pass": (said("Points after each pass"), said("Points")),
    "Score per hand": (said("Score after each hand"), said("Score")),
    RECORDS: (RECORDS, said("Record")),
}


def chart_title(series_title: str, labels: Sequence[str]) -> str:
    """'Points after each pass' from 'Points per pass': the values are running totals."""
    unit = series_title.split(" per ")[0]
    checkpoint = axis_words(labels).lower()
    return translate(ENGLISH, "{unit} after each {checkpoint}", unit=unit, checkpoint=checkpoint)


def told_chart(chart: EndChart, series_title: str, language: str) -> tuple[EndChart, str | None]:
    """The chart in `language` (title and checkpoints) and its y axis' name (None: English,
    whose axis is named from the title)."""
    if language == ENGLISH:
        return chart, None
    title, axis = TITLES.get(series_title, (chart.title, None))
    labels = tuple(str(say(language, label)) for label in chart.labels)
    told = dataclasses.replace(chart, title=str(say(language, title)), labels=labels)
    return told, (str(say(language, axis)) if axis else None)


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
        title=RECORDS,
        labels=tuple(said("Year {number}", number=n) for n in range(1, years + 1)),
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


def chart_png(chart: EndChart, language: str = ENGLISH, y_title: str | None = None) -> bytes:
    """The chart's picture (its words in `language` already)."""
    return scores_png(
        chart.title,
        chart.labels,
        chart.scores,
        chart.names,
        chart.colours,
        language=language,
        y_title=y_title,
    )


def series_title(loaded: LoadedGame, game_log: Any) -> str:
    """The English series title a chart was made from (its key in TITLES)."""
    if loaded.game.id == "first-in-flight":
        return RECORDS
    series = score_series(game_log)
    return series.title if series is not None else ""


async def post_end_chart(bot: HangarBot, loaded: LoadedGame) -> None:
    """Post the game's score chart in the server's language; a failure costs the chart, never
    the final board."""
    try:
        language = await public_locale(bot, loaded.record.guild_id)
        game_log = await load_log(bot.service.store, loaded)
        chart = await asyncio.to_thread(end_chart, loaded, game_log)
        if chart is None:
            return
        chart, y_title = told_chart(chart, series_title(loaded, game_log), language)
        image = await asyncio.to_thread(chart_png, chart, language, y_title)
        # Mid-sentence in English ("Takeoff! — points after each pass"); other languages keep
        # their capitals (German nouns).
        words_title = chart.title
        if language == ENGLISH:
            words_title = f"{chart.title[0].lower()}{chart.title[1:]}"
        embed = discord.Embed(
            title=f"{loaded.game.title} — {words_title}",
            colour=discord.Colour.from_str("#2f7fd8"),
        )
        embed.set_image(url=f"attachment://{CHART_FILE}")
        embed.set_footer(text=translate(language, "game #{number}", number=loaded.record.pk))
        channel = bot.get_partial_messageable(loaded.record.channel_id)
        last = chart.scores[-1] if chart.scores else ()
        words = ", ".join(f"{n} {tick_text(v, 1)}" for n, v in zip(chart.names, last, strict=False))
        alt = clip(
            translate(
                language, "Chart of the {title}; final: {scores}.", title=words_title, scores=words
            )
        )
        file = discord.File(io.BytesIO(image), filename=CHART_FILE, description=alt)
        await channel.send(embed=embed, file=file, allowed_mentions=discord.AllowedMentions.none())
    except Exception:  # the board is already posted; the chart is a bonus
        log.exception("End-of-game chart of game %s failed", loaded.record.pk)
