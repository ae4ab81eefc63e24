"""The end-of-game chart posted under the final board (Takeoff! per pass, Flight per hand)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.render.alt import clip
from bot.render.charts import scores_png
from bot.services.games import LoadedGame
from bot.services.timeline import load_log, score_series

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)
CHART_FILE = "chart.png"


async def post_end_chart(bot: HangarBot, loaded: LoadedGame) -> None:
    """Post the game's score chart; a failure costs the chart, never the final board."""
    try:
        game_log = await load_log(bot.service.store, loaded)
        series = await asyncio.to_thread(score_series, game_log)
        if series is None:  # First in Flight's board already charts the records per Year
            return
        image = await asyncio.to_thread(
            scores_png, series.title, series.labels, series.scores, loaded.names
        )
        embed = discord.Embed(
            title=f"{loaded.game.title} — {series.title.lower()}",
            colour=discord.Colour.from_str("#2f7fd8"),
        )
        embed.set_image(url=f"attachment://{CHART_FILE}")
        embed.set_footer(text=f"game #{loaded.record.pk}")
        channel = bot.get_partial_messageable(loaded.record.channel_id)
        last = series.scores[-1] if series.scores else ()
        words = ", ".join(f"{n} {v}" for n, v in zip(loaded.names, last, strict=False))
        alt = clip(f"Chart of {series.title.lower()} over the game; final: {words}.")
        file = discord.File(io.BytesIO(image), filename=CHART_FILE, description=alt)
        await channel.send(embed=embed, file=file, allowed_mentions=discord.AllowedMentions.none())
    except Exception:  # the board is already posted; the chart is a bonus
        log.exception("End-of-game chart of game %s failed", loaded.record.pk)
