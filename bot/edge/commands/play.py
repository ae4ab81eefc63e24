"""/play action:<autocomplete> — any legal action of the invoking player."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.edge.errors import UserFacingError, report
from bot.edge.flow import channel_id_of, publish, tell_if_late
from bot.edge.limits import clip, excerpt
from bot.edge.locale import private_locale
from bot.edge.present import seat_list, status_line
from bot.i18n import ENGLISH, say, translate
from bot.services.errors import NoGameHereError
from bot.services.games import LoadedGame
from bot.store.errors import StoreUnavailable
from rules.core import Action, PlayerError, messages
from rules.core.errors import joined, said
from rules.core.model import KEY_PATTERN
from rules.core.text_fit import shorten

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

# Autocomplete values are at most 100 characters; anything longer was typed, not chosen.
MAX_CHOICE = 100

# Discord drops an autocomplete answered after 3 s: the game is looked up within this budget.
AUTOCOMPLETE_BUDGET = 2.0
# An autocomplete cannot show a message, so one choice says why the list is empty; its value is
# refused by /play before anything is read.
NO_MOVES = "(none)"  # never an action key (KEY_PATTERN has no brackets or spaces)
# Said: each is shown in the typing user's language.
UNREADABLE_CHOICE = said(
    "No moves to show: the database cannot be read right now — try again in a minute"
)
SLOW_CHOICE = said("No moves to show: the database is slow to answer — try again in a moment")
NO_GAME_CHOICE = said("No game in this channel — start one with /game new")
LOBBY_CHOICE = said("The game has not started yet — the creator starts it with /game start")
SPECTATOR_CHOICE = said("You are not in this game — you can't move here")
OVER_CHOICE = said("The game is over — start a new one with /game new")


def not_a_move(typed: str) -> str:
    """The one refusal for text that is no move, quoting a short excerpt of what was typed."""
    return joined(said("You typed {typed}.", typed=excerpt(typed)), messages.NOT_A_MOVE)


NOT_A_MOVE = said(
    "That line only said why no moves were listed — it is not a move; nothing changed. Start "
    "typing again to see your moves."
)

# Autocomplete values carry the state version so a choice made before others moved is refused.
VERSIONED = re.compile(r"^v(?P<ver>\d+):(?P<key>.+)$")


def my_actions(loaded: LoadedGame, seat: int | None) -> list[Action]:
    """A seat's legal actions (empty for spectators, lobbies and when it is not their turn)."""
    if seat is None or loaded.state is None:
        return []
    return loaded.legal_actions(seat)


def parse_choice(
    value: str, actions: list[Action], locale: str = ENGLISH
) -> tuple[str, int | None]:
    """(action key, expected version) from an autocomplete value, a key or a typed label (in
    English or in the user's language)."""
    match = VERSIONED.match(value.strip())
    if match:
        return match["key"], int(match["ver"])
    typed = value.strip().lower()
    for action in actions:
        shown = str(say(locale, action.label)).lower()
        if typed in (action.key.lower(), action.label.lower(), shown):
            return action.key, None
    return value.strip(), None


def choice(locale: str, text: str, value: str = NO_MOVES) -> app_commands.Choice[str]:
    """One autocomplete line in the user's language, within Discord's 100 characters."""
    return app_commands.Choice(name=shorten(str(say(locale, text)), MAX_CHOICE), value=value)


async def action_autocomplete(
    interaction: discord.Interaction[HangarBot], current: str
) -> list[app_commands.Choice[str]]:
    """Legal actions matching what the user typed (labels shown in the user's language,
    versioned keys sent)."""
    mine = private_locale(interaction)
    try:
        loaded = await asyncio.wait_for(
            interaction.client.service.load(channel_id_of(interaction)), AUTOCOMPLETE_BUDGET
        )
    except StoreUnavailable:  # the store has logged why, once
        return [choice(mine, UNREADABLE_CHOICE)]
    except TimeoutError:
        log.warning("/play autocomplete: the game was not read within %s s", AUTOCOMPLETE_BUDGET)
        return [choice(mine, SLOW_CHOICE)]
    except PlayerError:  # no game here (or a damaged one): say why the list is empty
        return [choice(mine, NO_GAME_CHOICE)]
    except Exception:  # autocomplete must never fail loudly
        return []
    seat = interaction.client.service.seat_of(loaded, interaction.user.id)
    actions = my_actions(loaded, seat)
    if not actions:
        return [choice(mine, why_no_moves(loaded, seat, mine))]
    typed = current.lower()
    version = loaded.record.version
    shown = [(a, str(say(mine, a.label))) for a in actions]
    return [
        choice(mine, label, f"v{version}:{a.key}"[:100])
        for a, label in shown
        if typed in label.lower() or typed in a.label.lower() or typed in a.key.lower()
    ][:25]


def why_no_moves(loaded: LoadedGame, seat: int | None, locale: str = ENGLISH) -> str:
    """The one autocomplete line when a player has no moves: whose turn it is, or why not."""
    if loaded.state is None:
        return LOBBY_CHOICE
    if seat is None:
        return SPECTATOR_CHOICE
    active = loaded.active_seats
    if loaded.outcome is not None or not active:
        return OVER_CHOICE
    return translate(
        locale,
        "It is {players}'s turn — you can't move now",
        players=seat_list(loaded, active, locale),
    )


async def load_for_play(bot: HangarBot, channel_id: int) -> LoadedGame:
    """The open game here; a game that just ended says so (not "there is no game")."""
    try:
        return await bot.service.load(channel_id)
    except NoGameHereError:
        try:
            latest = await bot.service.load_latest(channel_id)
        except PlayerError:
            raise NoGameHereError() from None
        if latest.record.status in ("finished", "abandoned"):
            raise UserFacingError(messages.GAME_ENDED) from None
        raise


@app_commands.command(name="play", description="Make a move in this channel's game")
@app_commands.describe(action="Start typing; the list shows your legal moves")
@app_commands.autocomplete(action=action_autocomplete)
@app_commands.guild_only()
async def play_command(interaction: discord.Interaction[HangarBot], action: str) -> None:
    """Apply the chosen action, publish the result, confirm privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if len(action) > MAX_CHOICE or not action.strip():
        raise UserFacingError(not_a_move(action))
    if action == NO_MOVES:
        raise UserFacingError(NOT_A_MOVE)
    bot = interaction.client
    channel_id = channel_id_of(interaction)
    mine = private_locale(interaction)
    try:
        loaded = await load_for_play(bot, channel_id)
        seat = bot.service.seat_of(loaded, interaction.user.id)
        key, version = parse_choice(action, my_actions(loaded, seat), mine)
        if not KEY_PATTERN.match(key):
            raise UserFacingError(not_a_move(action))
        result = await bot.service.act(channel_id, interaction.user.id, key, version)
    except StoreUnavailable as exc:  # nothing was saved: say so as for a click
        await report(interaction, exc, move=True)
        return
    late = await publish(bot, result)
    after = result.loaded
    text = f"✅ {say(mine, result.label) if result.label else key}"
    if after.state is not None and seat is not None and seat in after.active_seats:
        text += "\n" + status_line(after, seat, mine)
    await interaction.followup.send(clip(text), ephemeral=True)
    await tell_if_late(interaction, late)
