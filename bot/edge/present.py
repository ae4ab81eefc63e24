"""How a game looks in Discord: names, embeds, images and component panels."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.edge import coach
from bot.edge.components import action_items, hand_button, lobby_buttons, table_button
from bot.edge.limits import clip
from bot.render import (
    alt_text,
    has_live,
    has_table,
    placeholder_png,
    private_png,
    public_png,
    table_page_count,
    table_png,
)
from bot.render.pool import start as start_render
from bot.services.games import LoadedGame
from rules.core import Action, Game, fill_names
from rules.core.messages import plural

log = logging.getLogger(__name__)

# Enough for a turn with several automatic moves (Gustave) without crowding the board.
LOG_LINES = 12
BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
TABLE_FILE = "table.png"
MAX_PAGES = 10  # attachments (and embeds) in one message
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
    return name_list([loaded.names[s] for s in seats])


def name_list(names: list[str]) -> str:
    """'Alice', 'Alice and Bob', 'Alice, Bob and Carol'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def prompt_text(prompt: str, names: tuple[str, ...] | list[str]) -> str:
    """A seat's prompt with names filled in and without a leading "Your turn:" (the caller
    already says it)."""
    text = fill_names(prompt, names)
    head, sep, rest = text.partition(": ")
    if sep and head.lower() == "your turn" and rest:
        return rest[0].upper() + rest[1:]
    return text


@dataclass(frozen=True)
class Panel:
    """What one message shows: text, an embed with its image, and components."""

    content: str
    embed: discord.Embed
    image: bytes
    filename: str
    view: discord.ui.View | None
    mentions: discord.AllowedMentions
    description: str = ""  # the picture in words (alt text), at most 1,024 characters

    def file(self) -> discord.File:
        """A fresh File each send (discord.py consumes File objects)."""
        return discord.File(
            io.BytesIO(self.image), filename=self.filename, description=self.description or None
        )


def footer(loaded: LoadedGame) -> str:
    """Game number and state version, for admins and bug reports."""
    return f"{loaded.game.title} · game #{loaded.record.pk} · move {loaded.record.version}"


def status_line(loaded: LoadedGame, reader: int | None = None) -> str:
    """Whose turn it is, worded for the reader (None = everyone), or the result.

    The active player reads their own prompt ("**Your turn** — play cards…"); everyone else
    reads "**alice** to play." — never alice's "Your turn: …" (issue 15).
    """
    outcome = loaded.outcome
    if outcome is not None:
        return "🏁 **Game over.** " + standings(loaded)
    active = loaded.active_seats
    if not active:
        return "Waiting."
    if reader is not None and reader in active:
        return "**Your turn** — " + own_prompt(loaded, reader)
    return f"**{seat_list(loaded, active)}** to play."


def own_prompt(loaded: LoadedGame, seat: int) -> str:
    """The seat's prompt without a leading "Your turn:" (the caller already says it)."""
    return prompt_text(loaded.game.prompt(loaded.state, seat), loaded.names)


def standings(loaded: LoadedGame) -> str:
    """Final scores in rank order, with winners marked."""
    outcome = loaded.outcome
    if outcome is None:
        return ""
    order = sorted(range(len(outcome.scores)), key=lambda s: (outcome.ranks[s], s))
    rows = [
        f"{'🏆 ' if s in outcome.winners else ''}{outcome.ranks[s]}. {loaded.names[s]} — "
        f"{score_text(loaded.game, outcome.scores[s])}"
        for s in order
    ]
    reason = fill_seats(outcome.reason, loaded) if outcome.reason else ""
    if not outcome.winners:  # a non-seat opponent (Gustave) won; the reason names it
        verdict, reason = reason, ""
        rows = [*opponent_row(loaded), *rows]
    elif outcome.is_draw:
        verdict = "Shared victory."
    else:
        verdict = f"{loaded.names[outcome.winners[0]]} wins!"
    note = data_note(loaded)
    if note.strip("_").lower() in (verdict + reason).lower():  # the engine already said it
        note = ""
    # The cause leads ("The draw pile ran out for the third time; …"), then who won, the table
    # and what scored how much (issue 28).
    return "\n".join([reason, verdict, *rows, *breakdown(loaded), note]).strip()


MINUS = "\u2212"  # a real minus sign: "−3 points", never "-3"


def points(n: int) -> str:
    """'1 point', '12 points', '−3 points'."""
    return f"{MINUS}{plural(-n, 'point')}" if n < 0 else plural(n, "point")


def score_text(game: Game, n: int) -> str:
    """A final score in the game's own word: '12 points', or First in Flight's 'record 44'."""
    word = getattr(game, "score_word", "point")
    if word == "point":
        return points(n)
    return f"{word} {MINUS}{-n}" if n < 0 else f"{word} {n}"


BREAKDOWN_LIMIT = 1500  # the whole breakdown; the embed description holds 4,096 characters


def breakdown(loaded: LoadedGame) -> list[str]:
    """The engine's per-seat score breakdown (`score_breakdown`), names filled, under a heading."""
    lines: list[str] = getattr(loaded.game, "score_breakdown", lambda _state: [])(loaded.state)
    if not lines:
        return []
    text = "\n".join(f"• {fill_seats(line, loaded)}" for line in lines)
    return ["**How the points were scored**", clip(text, BREAKDOWN_LIMIT)]


def opponent_row(loaded: LoadedGame) -> list[str]:
    """'🏆 1. Gustave — record 44' when a non-seat opponent won (the view's `gustave_record`).

    Without it the standings began at '2. alice' with nobody in first place (issue 15).
    """
    view = loaded.view(None)
    record = getattr(view, "gustave_record", None)
    if record is None or not getattr(view, "gustave_won", False):
        return []
    return [f"🏆 1. Gustave — {score_text(loaded.game, record)}"]


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
    return [a for a in loaded.legal_actions(active[0]) if a.public]


def board_view(loaded: LoadedGame) -> discord.ui.View | None:
    """Components under the public board: public actions and the My hand button."""
    if loaded.outcome is not None:
        return None
    view = discord.ui.View(timeout=None)
    items = action_items(loaded.record.pk, loaded.record.version, public_actions(loaded), rows=4)
    for item in items:
        view.add_item(item)
    view.add_item(hand_button(loaded.record.pk, row=4))
    if has_table(loaded.game.id):
        view.add_item(table_button(loaded.record.pk, row=4))
    return view


async def render_png(draw: Callable[..., bytes], game_id: str, *args: Any, **kwargs: Any) -> bytes:
    """Render off the event loop (pool + cache); a drawing bug costs the picture, never the turn."""
    return await _picture(_start_png(draw, game_id, *args, **kwargs), game_id)


def _start_png(
    draw: Callable[..., bytes], game_id: str, *args: Any, **kwargs: Any
) -> asyncio.Future[bytes]:
    """Start a picture in the pool (a failure to start shows when it is awaited)."""
    try:
        return start_render(draw, game_id, *args, **kwargs)
    except Exception as exc:
        failed: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        failed.set_exception(exc)
        return failed


async def _picture(drawing: asyncio.Future[bytes], game_id: str) -> bytes:
    """A started picture's bytes, or the placeholder when drawing it failed."""
    try:
        return await drawing
    except Exception:
        log.exception("Rendering %s failed; posting a placeholder picture", game_id)
        return placeholder_png(game_id)


async def _while_drawn(
    drawing: asyncio.Future[bytes], game_id: str, build: Callable[[], Panel]
) -> Panel:
    """`build()` the message while the worker draws its picture, then add the picture: the
    message goes out as soon as the picture is back (yielding once first lets the job reach a
    worker before the loop turns to building)."""
    await asyncio.sleep(0)
    try:
        panel = build()
    except BaseException:
        drawing.cancel()
        raise
    return dataclasses.replace(panel, image=await _picture(drawing, game_id))


async def board_panel(
    loaded: LoadedGame, lines: list[str], *, ping: tuple[int, ...], live: bool = False
) -> Panel:
    """The public board message; `ping` are the seats to mention (new message only)."""
    view = loaded.view(None)
    # Without a live picture of its own, a turn in progress shows the board: one cache entry.
    live = live and has_live(loaded.game.id)
    drawing = _start_png(public_png, loaded.game.id, view, loaded.names, live=live)
    extras = await coach.board_extras(loaded)  # Last move?, Hint, Leave practice (issue 31)

    def build() -> Panel:
        users = [u for u in (loaded.user_of(s) for s in ping) if u]
        content = ""
        if users:
            who = " ".join(mention(u) for u in users)
            over = loaded.outcome is not None
            content = f"{who} — the game is over." if over else f"{who} — your turn."
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=u) for u in users]
        )
        last = fill_seats(lines[-1], loaded) if lines else ""
        alt = alt_text(loaded.game.id, view, loaded.names, last)
        embed = board_embed(loaded, lines)
        components = coach.with_items(board_view(loaded), extras)
        return Panel(content, embed, b"", BOARD_FILE, components, allowed, alt)

    return await _while_drawn(drawing, loaded.game.id, build)


async def hand_panel(loaded: LoadedGame, seat: int) -> Panel:
    """One player's private panel: their view as an image and their legal actions."""
    view = loaded.view(seat)
    drawing = _start_png(private_png, loaded.game.id, view, loaded.names)
    extras = await coach.panel_extras(loaded, seat)  # explanations and Hint (issue 31)

    def build() -> Panel:
        actions = loaded.legal_actions(seat)
        if actions:
            text = "**Your turn** — " + own_prompt(loaded, seat) + card_texts(view)
        elif loaded.outcome is not None:
            text = "The game is over."
        else:
            text = f"Waiting for {seat_list(loaded, loaded.active_seats)}."
        title = f"Your view — {loaded.game.title}"
        embed = discord.Embed(title=title, description=text, colour=COLOUR)
        embed.set_image(url=f"attachment://{HAND_FILE}")
        embed.set_footer(text=footer(loaded) + " · only you can see this")
        coach.add_explanations(embed, extras.coaching)
        components = discord.ui.View(timeout=None)
        pk, version = loaded.record.pk, loaded.record.version
        for item in action_items(pk, version, actions, rows=extras.action_rows):
            components.add_item(item)
        coach.with_items(components, extras.buttons)
        alt = alt_text(loaded.game.id, view, loaded.names)
        none = discord.AllowedMentions.none()
        return Panel("", embed, b"", HAND_FILE, components, none, alt)

    return await _while_drawn(drawing, loaded.game.id, build)


async def table_message(loaded: LoadedGame) -> dict[str, Any]:
    """Keyword arguments of the ephemeral "Whole table" answer: an embed per page (≤ 10), each
    with its phone-sized picture."""
    game_id, view, names = loaded.game.id, loaded.view(None), loaded.names
    count = min(MAX_PAGES, table_page_count(game_id, view, names))
    drawing = [_start_png(table_png, game_id, view, names, page=i) for i in range(count)]
    alt = alt_text(game_id, view, names)
    embeds, files = [], []
    for i, started in enumerate(drawing):
        image = await _picture(started, game_id)
        name = TABLE_FILE if count == 1 else f"table-{i + 1}.png"
        title = f"Whole table — {loaded.game.title}"
        embed = discord.Embed(title=title + (f" ({i + 1} of {count})" if count > 1 else ""))
        embed.colour = COLOUR
        embed.set_image(url=f"attachment://{name}")
        embed.set_footer(text=footer(loaded) + " · tap a picture to zoom")
        embeds.append(embed)
        files.append(discord.File(io.BytesIO(image), filename=name, description=alt or None))
    return {"embeds": embeds, "files": files}


def card_texts(view: Any) -> str:
    """The full texts of the cards the player is choosing between (a view's `card_texts`)."""
    texts = getattr(view, "card_texts", ()) or ()
    lines = [f"**{name}** — {text}" for name, text in texts]
    return ("\n\n" + "\n".join(lines))[:3500] if lines else ""


def lobby_text(loaded: LoadedGame) -> str:
    """The lobby message: game, options, seats taken and how to join."""
    game = loaded.game
    seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(loaded.names))
    notes = "".join(f"\n{note}" for note in lobby_notes(game, loaded.record.options))
    return (
        f"**{game.title}** lobby ({player_range(game)}; options: "
        f"{option_labels(game, loaded.record.options)}){notes}\n{seats}\n"
        "Join with the button or `/game join`; the creator starts with `/game start`."
    )


def player_range(game: Game) -> str:
    """'2 players' or '1–4 players' (never '2–2 players')."""
    if game.min_players == game.max_players:
        return plural(game.min_players, "player")
    return f"{game.min_players}–{game.max_players} players"


def option_labels(game: Game, options: dict[str, Any]) -> str:
    """Options as players read them: 'Business-class rows 3 · Row rule numbered'."""
    fields = game.Options.model_fields
    parts = []
    for key, value in options.items():
        if not option_applies(game, options, key):
            continue
        field = fields.get(key)
        title = (field.title if field is not None else None) or key.replace("_", " ").capitalize()
        shown = ("on" if value else "off") if isinstance(value, bool) else clip(str(value), 40)
        parts.append(f"{title} {shown}")
    return " · ".join(parts) or "defaults"


def option_applies(game: Game, options: dict[str, Any], name: str) -> bool:
    """Whether the game says option `name` matters given the others (Flight in hands mode: no
    points target, no hand limit). Games without the hook list every option."""
    applies = getattr(game, "option_applies", None)
    if applies is None:
        return True
    try:
        parsed = game.Options.model_validate(options)
    except ValueError:
        return True
    return bool(applies(parsed, name))


def lobby_notes(game: Game, options: dict[str, Any]) -> list[str]:
    """Extra lobby lines a game declares (`lobby_notes(options)`, e.g. Flight's house rule)."""
    return list(game.lobby_notes(game.Options.model_validate(options)))


def lobby_view(loaded: LoadedGame) -> discord.ui.View:
    """Join / Leave / Start buttons for a lobby."""
    view = discord.ui.View(timeout=None)
    for item in lobby_buttons(loaded.record.pk):
        view.add_item(item)
    return view
