"""How a game looks in Discord: names, embeds, images and component panels."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.components import action_items, hand_button, lobby_buttons
from bot.render import placeholder_png, private_png, public_png
from bot.services.games import LoadedGame
from rules.core import Action, fill_names

log = logging.getLogger(__name__)

# Enough for a turn with several automatic moves (Gustave) without crowding the board.
LOG_LINES = 12
BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
COLOUR = discord.Colour.from_str("#2f7fd8")


def mention(user_id: int | None) -> str:
    """A user mention (or an empty string for an AI seat)."""
    return f"<@{user_id}>" if user_id else ""


def fill_seats(text: str, loaded: LoadedGame, *, mentions: bool = False) -> str:
    """Replace {seatN} placeholders with names, or with mentions where the seat is a user."""
    if not mentions:
        return fill_names(text, loaded.names)
    labels = [mention(loaded.user_of(seat)) or name for seat, name in enumerate(loaded.names)]
    return fill_names(text, labels)


def seat_list(loaded: LoadedGame, seats: tuple[int, ...]) -> str:
    """'Alice and Bob' style list of seat names."""
    names = [loaded.names[s] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class Panel:
    """What one message shows: text, an embed with its image, and components."""

    content: str
    embed: discord.Embed
    image: bytes
    filename: str
    view: discord.ui.View | None
    mentions: discord.AllowedMentions

    def file(self) -> discord.File:
        """A fresh File each send (discord.py consumes File objects)."""
        return discord.File(io.BytesIO(self.image), filename=self.filename)


def footer(loaded: LoadedGame) -> str:
    """Game number and state version, for admins and bug reports."""
    return f"{loaded.game.title} · game #{loaded.record.pk} · move {loaded.record.version}"


def status_line(loaded: LoadedGame) -> str:
    """Whose turn it is and what they decide, or the result."""
    outcome = loaded.outcome
    if outcome is not None:
        return "🏁 **Game over.** " + standings(loaded)
    active = loaded.active_seats
    if not active:
        return "Waiting."
    prompt = fill_seats(loaded.game.prompt(loaded.state, active[0]), loaded)
    return f"**{seat_list(loaded, active)}** to play — {prompt}"


def standings(loaded: LoadedGame) -> str:
    """Final scores in rank order, with winners marked."""
    outcome = loaded.outcome
    if outcome is None:
        return ""
    order = sorted(range(len(outcome.scores)), key=lambda s: (outcome.ranks[s], s))
    rows = [
        f"{'🏆 ' if s in outcome.winners else ''}{outcome.ranks[s]}. {loaded.names[s]} — "
        f"{outcome.scores[s]}"
        for s in order
    ]
    reason = fill_seats(outcome.reason, loaded) if outcome.reason else ""
    if not outcome.winners:  # a non-seat opponent (Gustave) won; the reason names it
        verdict, reason = reason, ""
    elif outcome.is_draw:
        verdict = "Shared victory."
    else:
        verdict = f"{loaded.names[outcome.winners[0]]} wins!"
    note = data_note(loaded)
    if note.strip("_").lower() in (verdict + reason).lower():  # the engine already said it
        note = ""
    return "\n".join([verdict, *rows, reason, note]).strip()


def data_note(loaded: LoadedGame) -> str:
    """The data-provenance line the engine declares (e.g. an unofficial stand-in card set)."""
    note = loaded.game.data_note(loaded.state)
    return f"_{note}_" if note else ""


def board_embed(loaded: LoadedGame, lines: list[str]) -> discord.Embed:
    """The public turn embed: recent log lines, then whose turn it is, with the board image."""
    log_text = "\n".join(f"• {fill_seats(line, loaded)}" for line in lines[-LOG_LINES:])
    description = (log_text + "\n\n" if log_text else "") + status_line(loaded)
    embed = discord.Embed(title=loaded.game.title, description=description[:4000], colour=COLOUR)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=footer(loaded))
    return embed


def public_actions(loaded: LoadedGame) -> list[Action]:
    """Actions safe to show everyone: only those the engine marks public, for one active seat."""
    active = loaded.active_seats
    if len(active) != 1:
        return []
    return [a for a in loaded.game.legal_actions(loaded.state, active[0]) if a.public]


def board_view(loaded: LoadedGame) -> discord.ui.View | None:
    """Components under the public board: public actions and the My hand button."""
    if loaded.outcome is not None:
        return None
    view = discord.ui.View(timeout=None)
    items = action_items(loaded.record.pk, loaded.record.version, public_actions(loaded), rows=4)
    for item in items:
        view.add_item(item)
    view.add_item(hand_button(loaded.record.pk, row=4))
    return view


async def render_png(draw: Callable[..., bytes], game_id: str, *args: Any, **kwargs: Any) -> bytes:
    """Render off the event loop; a drawing bug costs the picture, never the turn message."""
    try:
        return await asyncio.to_thread(draw, game_id, *args, **kwargs)
    except Exception:
        log.exception("Rendering %s failed; posting a placeholder picture", game_id)
        return placeholder_png(game_id)


async def board_panel(
    loaded: LoadedGame, lines: list[str], *, ping: tuple[int, ...], live: bool = False
) -> Panel:
    """The public board message; `ping` are the seats to mention (new message only)."""
    view = loaded.game.view(loaded.state, None)
    image = await render_png(public_png, loaded.game.id, view, loaded.names, live=live)
    users = [u for u in (loaded.user_of(s) for s in ping) if u]
    content = ""
    if users:
        who = " ".join(mention(u) for u in users)
        content = f"{who} — your turn." if loaded.outcome is None else f"{who} — the game is over."
    allowed = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=u) for u in users]
    )
    return Panel(
        content, board_embed(loaded, lines), image, BOARD_FILE, board_view(loaded), allowed
    )


async def hand_panel(loaded: LoadedGame, seat: int) -> Panel:
    """One player's private panel: their view as an image and their legal actions."""
    view = loaded.game.view(loaded.state, seat)
    image = await render_png(private_png, loaded.game.id, view, loaded.names)
    actions = loaded.game.legal_actions(loaded.state, seat) if loaded.state is not None else []
    if actions:
        text = "Your move — " + fill_seats(loaded.game.prompt(loaded.state, seat), loaded)
    elif loaded.outcome is not None:
        text = "The game is over."
    else:
        text = f"Waiting for {seat_list(loaded, loaded.active_seats)}."
    embed = discord.Embed(title=f"Your view — {loaded.game.title}", description=text, colour=COLOUR)
    embed.set_image(url=f"attachment://{HAND_FILE}")
    embed.set_footer(text=footer(loaded) + " · only you can see this")
    components = discord.ui.View(timeout=None)
    for item in action_items(loaded.record.pk, loaded.record.version, actions, rows=5):
        components.add_item(item)
    return Panel("", embed, image, HAND_FILE, components, discord.AllowedMentions.none())


def lobby_text(loaded: LoadedGame) -> str:
    """The lobby message: game, options, seats taken and how to join."""
    game = loaded.game
    options = ", ".join(f"{k}={v}" for k, v in loaded.record.options.items()) or "defaults"
    seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(loaded.names))
    return (
        f"**{game.title}** lobby ({game.min_players}–{game.max_players} players; "
        f"options: {options})\n{seats}\n"
        "Join with the button or `/game join`; the creator starts with `/game start`."
    )


def lobby_view(loaded: LoadedGame) -> discord.ui.View:
    """Join / Leave / Start buttons for a lobby."""
    view = discord.ui.View(timeout=None)
    for item in lobby_buttons(loaded.record.pk):
        view.add_item(item)
    return view
