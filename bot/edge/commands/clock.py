"""/away, /notify, /game back, /admin extend|clock|settings, and a thread per game."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.edge.errors import UserFacingError
from bot.edge.flow import channel_id_of, edit_live
from bot.edge.locale import (
    LANGUAGE_CHOICES,
    announce_language,
    interaction_public_locale,
    private_locale,
    settings_text,
    stored_language,
)
from bot.edge.notify import stamp
from bot.i18n import ntranslate, say, translate
from bot.services.clock import MAX_AWAY_DAYS, MAX_EXTEND_HOURS
from bot.services.errors import NoGameHereError, NotInGameError, NotStartedError
from bot.services.gametime import Clock
from bot.services.preferences import TURN_LIMITS, Where
from rules.core.errors import said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

HOURS = re.compile(r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>h|hours?|d|days?)?\s*$", re.IGNORECASE)
DATE_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d")
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
AnyCommand = app_commands.Command[Any, ..., Any]


def parse_until(text: str, clock: Clock) -> float:
    """'48', '48h', '3d' (game time) or '2026-12-24 [18:00]' (UTC) → a timestamp."""
    match = HOURS.match(text)
    if match:
        hours = float(match["n"]) * (24 if (match["unit"] or "h").lower().startswith("d") else 1)
        if hours > MAX_AWAY_DAYS * 24:
            raise UserFacingError(
                said("You can be away for at most {days} days.", days=MAX_AWAY_DAYS)
            )
        return clock.now() + clock.hours(hours)
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt).replace(tzinfo=UTC).timestamp()
        except ValueError:
            continue
    raise UserFacingError(
        said(
            "Give hours (e.g. `48` or `3d`) or a UTC date like `2026-12-24` or `2026-12-24 18:00`."
        )
    )


class AwayGroup(app_commands.Group):
    """Pause your turn clocks while you are away."""

    def __init__(self) -> None:
        super().__init__(name="away", description="Pause your turn clocks while away")

    @app_commands.command(name="set", description="Away until a date (UTC) or for some hours")
    @app_commands.describe(until="Hours (48, 3d) or a UTC date (2026-12-24 or 2026-12-24 18:00)")
    async def set_away(self, interaction: discord.Interaction[HangarBot], until: str) -> None:
        """Pause the clocks of every game where it is your turn, up to 30 days."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        when = parse_until(until, bot.clocks.clock)
        count = await bot.clocks.set_away(interaction.user.id, when)
        mine = private_locale(interaction)
        text = ntranslate(
            mine,
            "🌴 You are away until {date} ({time}): reminders are off and {count} turn clock "
            "paused. `/away off` when you are back.",
            "🌴 You are away until {date} ({time}): reminders are off and {count} turn clocks "
            "paused. `/away off` when you are back.",
            count,
            date=stamp(when, "f"),
            time=stamp(when),
        )
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="off", description="You are back: your turn clocks run again")
    async def off(self, interaction: discord.Interaction[HangarBot]) -> None:
        """End the away period."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        count = await interaction.client.clocks.away_off(interaction.user.id)
        mine = private_locale(interaction)
        if count:
            text = ntranslate(
                mine,
                # The singular reads as it always has (tests and players know it).
                "Welcome back — {count} turn clock run again with the time they had left.",
                "Welcome back — {count} turn clocks run again with the time they had left.",
                count,
            )
        else:
            text = translate(
                mine, "Welcome back — you are no longer away (no turn clock of yours was paused)."
            )
        await interaction.followup.send(text, ephemeral=True)


@app_commands.command(name="notify", description="Where Hangar tells you it is your turn")
@app_commands.describe(where="channel (default), dm, or both")
async def notify_command(
    interaction: discord.Interaction[HangarBot], where: Literal["channel", "dm", "both"]
) -> None:
    """Store the user's notification preference (and retry DMs)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    chosen: Where = where
    await interaction.client.preferences.set_notify(interaction.user.id, chosen)
    told = {
        "channel": said("You will be pinged in the game's channel."),
        "dm": said(
            "Turn pings and reminders will come by DM (the channel if your DMs are closed)."
        ),
        "both": said("You will be pinged in the channel and by DM."),
    }[where]
    await interaction.followup.send(str(say(private_locale(interaction), told)), ephemeral=True)


# /game back where there is nothing to come back to (no running game of yours here).
NOT_ABSENT = said(
    "You are not marked absent here — you have no seat in a running game in this channel, so "
    "nothing changed. An away period ends with /away off."
)


# /game back from a seated player who was never marked absent: nothing to undo.
NOT_MARKED = said(
    "You are not marked absent in this game, so nothing changed — /game back is for after "
    "missed turns have marked you absent. Going away for a while? Use /away set."
)


@app_commands.command(name="back", description="You are back: no longer marked absent")
async def back_command(interaction: discord.Interaction[HangarBot]) -> None:
    """Clear the absent mark of the user's seat; their turn clock starts again."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    try:
        comeback = await bot.clocks.back(channel_id_of(interaction), interaction.user.id)
    except (NoGameHereError, NotStartedError, NotInGameError):
        raise UserFacingError(NOT_ABSENT) from None
    if not comeback.changed:
        raise UserFacingError(NOT_MARKED)
    await edit_live(bot, await bot.service.load(channel_id_of(interaction)))
    mine = private_locale(interaction)
    if comeback.was_absent:
        text = translate(mine, "Welcome back — you are no longer marked absent.")
    else:
        text = ntranslate(
            mine,
            "Welcome back — your {count} missed turn no longer count towards being marked absent.",
            "Welcome back — your {count} missed turns no longer count towards being marked absent.",
            comeback.missed,
        )
    if comeback.clock.deadline_at is not None:
        runs_out = stamp(comeback.clock.deadline_at)
        text += " " + translate(mine, "Your turn's time runs out {time}.", time=runs_out)
    await interaction.followup.send(text, ephemeral=True)


@app_commands.command(name="extend", description="Give this turn more time")
@app_commands.describe(hours="Hours to add to the current deadline(s)")
async def extend_command(
    interaction: discord.Interaction[HangarBot], hours: app_commands.Range[int, 1, MAX_EXTEND_HOURS]
) -> None:
    """Push the deadlines of every seat to act by `hours`."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    changed = await bot.clocks.extend(channel_id_of(interaction), hours)
    await edit_live(bot, await bot.service.load(channel_id_of(interaction)))
    deadlines = [stamp(c.deadline_at) for c in changed if c.deadline_at is not None]
    mine = private_locale(interaction)
    text = translate(mine, "Extended by {hours} h.", hours=hours)
    if deadlines:
        text += " " + translate(mine, "New deadline: {times}.", times=", ".join(deadlines))
    await interaction.followup.send(text, ephemeral=True)


@app_commands.command(name="clock", description="Pause or restart this game's turn clock")
@app_commands.describe(paused="true stops the clock (time left is kept); false restarts it")
async def clock_command(interaction: discord.Interaction[HangarBot], paused: bool) -> None:
    """Admin pause of the whole game."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    await bot.clocks.pause(channel_id_of(interaction), paused)
    await edit_live(bot, await bot.service.load(channel_id_of(interaction)))
    mine = private_locale(interaction)
    text = (
        translate(mine, "⏸ The clock is paused.")
        if paused
        else translate(mine, "▶️ The clock runs again.")
    )
    await interaction.followup.send(text, ephemeral=True)


@app_commands.command(name="settings", description="Server defaults for new games (Manage Server)")
@app_commands.describe(
    turn_limit="Default time per turn",
    on_timeout="Default at a deadline: remind only, or ai (skip where a pass is allowed)",
    reminders="Remind at 50 % and 10 % time left",
    threads="Open every new game in its own thread",
    language="The language of Hangar's public messages in this server",
)
@app_commands.choices(language=LANGUAGE_CHOICES)
async def settings_command(
    interaction: discord.Interaction[HangarBot],
    turn_limit: Literal["off", "12h", "24h", "48h", "72h", "1w"] | None = None,
    on_timeout: Literal["remind", "ai"] | None = None,
    reminders: bool | None = None,
    threads: bool | None = None,
    language: str | None = None,
) -> None:
    """Show or change the server's defaults."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if not interaction.permissions.manage_guild:
        raise UserFacingError(said("Server settings need the Manage Server permission."))
    if interaction.guild_id is None:
        raise UserFacingError(said("Settings belong to a server — use this in a server channel."))
    settings = await interaction.client.preferences.update_guild(
        interaction.guild_id,
        turn_limit=turn_limit,
        on_timeout=on_timeout,
        reminders=reminders,
        threads=threads,
        language=stored_language(language),
    )
    assert settings.turn_limit in TURN_LIMITS
    where = interaction_public_locale(interaction)
    text = settings_text(settings, where, private_locale(interaction))
    await interaction.followup.send(text, ephemeral=True)
    if language is not None:
        await announce_language(interaction)


def extend_groups(game: app_commands.Group, admin: app_commands.Group) -> None:
    """Add the clock's subcommands to /game and /admin (their checks apply)."""
    game.add_command(back_command)
    extras: list[AnyCommand] = [extend_command, clock_command, settings_command]
    for command in extras:
        admin.add_command(command)


COMMANDS: tuple[object, ...] = (AwayGroup, notify_command)


async def open_thread(interaction: discord.Interaction[HangarBot], name: str) -> int:
    """A public thread of this channel for a new game; its id (the game's channel)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.id  # already in a thread: the game lives here
    data = await interaction.client.http.start_thread_without_message(
        channel_id_of(interaction),
        name=name[:100],
        auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        type=discord.ChannelType.public_thread.value,
    )
    return int(data["id"])


async def away_note(interaction: discord.Interaction[HangarBot]) -> str:
    """'🌴 You are away until …' for /mygames, or ''."""
    prefs = await interaction.client.preferences.prefs(interaction.user.id)
    clock = interaction.client.clocks.clock
    if prefs.away_until is None or prefs.away_until <= clock.now():
        return ""
    until = stamp(prefs.away_until, "f")
    mine = private_locale(interaction)
    return (
        translate(mine, "🌴 You are away until {date} (`/away off` to return).", date=until) + "\n"
    )
