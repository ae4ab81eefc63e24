"""/play action:<autocomplete> — any legal action of the invoking player."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.flow import channel_id_of, publish, tell_if_late
from bot.limits import clip, excerpt
from bot.present import status_line
from bot.services.games import LoadedGame
from rules.core import Action
from rules.core.model import KEY_PATTERN

if TYPE_CHECKING:
    from bot.app import HangarBot

# Autocomplete values are at most 100 characters; anything longer was typed, not chosen.
MAX_CHOICE = 100

# Autocomplete values carry the state version so a choice made before others moved is refused.
VERSIONED = re.compile(r"^v(?P<ver>\d+):(?P<key>.+)$")


def my_actions(loaded: LoadedGame, seat: int | None) -> list[Action]:
    """A seat's legal actions (empty for spectators, lobbies and when it is not their turn)."""
    if seat is None or loaded.state is None:
        return []
    return loaded.legal_actions(seat)


def parse_choice(value: str, actions: list[Action]) -> tuple[str, int | None]:
    """(action key, expected version) from an autocomplete value, a key or a typed label."""
    match = VERSIONED.match(value.strip())
    if match:
        return match["key"], int(match["ver"])
    typed = value.strip().lower()
    for action in actions:
        if typed in (action.key.lower(), action.label.lower()):
            return action.key, None
    return value.strip(), None


async def action_autocomplete(
    interaction: discord.Interaction[HangarBot], current: str
) -> list[app_commands.Choice[str]]:
    """Legal actions matching what the user typed (labels shown, versioned keys sent)."""
    try:
        loaded = await interaction.client.service.load(channel_id_of(interaction))
    except Exception:  # autocomplete must never fail loudly
        return []
    seat = interaction.client.service.seat_of(loaded, interaction.user.id)
    actions = my_actions(loaded, seat)
    typed = current.lower()
    version = loaded.record.version
    return [
        app_commands.Choice(name=a.label[:100], value=f"v{version}:{a.key}"[:100])
        for a in actions
        if typed in a.label.lower() or typed in a.key.lower()
    ][:25]


@app_commands.command(name="play", description="Make a move in this channel's game")
@app_commands.describe(action="Start typing; the list shows your legal moves")
@app_commands.autocomplete(action=action_autocomplete)
@app_commands.guild_only()
async def play_command(interaction: discord.Interaction[HangarBot], action: str) -> None:
    """Apply the chosen action, publish the result, confirm privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if len(action) > MAX_CHOICE or not action.strip():
        raise UserFacingError(
            f"{excerpt(action)} is not a move — start typing and pick one of the offered moves."
        )
    bot = interaction.client
    channel_id = channel_id_of(interaction)
    loaded = await bot.service.load(channel_id)
    seat = bot.service.seat_of(loaded, interaction.user.id)
    key, version = parse_choice(action, my_actions(loaded, seat))
    if not KEY_PATTERN.match(key):
        raise UserFacingError(
            f"{excerpt(action)} is not one of your moves now — pick one from the list."
        )
    result = await bot.service.act(channel_id, interaction.user.id, key, version)
    late = await publish(bot, result)
    after = result.loaded
    text = f"✅ {result.label or key}"
    if after.state is not None and seat is not None and seat in after.active_seats:
        text += "\n" + status_line(after, seat)
    await interaction.followup.send(clip(text), ephemeral=True)
    await tell_if_late(interaction, late)
