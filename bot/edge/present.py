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
from bot.edge.components import (
    action_items,
    dynamic_view,
    hand_button,
    lobby_buttons,
    table_button,
)
from bot.edge.limits import clip
from bot.i18n import ENGLISH, ntranslate, ptranslate, say, translate
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


def seat_list(loaded: LoadedGame, seats: tuple[int, ...], locale: str = ENGLISH) -> str:
    """'Alice and Bob' style list of seat names."""
    return name_list([loaded.names[s] for s in seats], locale)


def name_list(names: list[str], locale: str = ENGLISH) -> str:
    """'Alice', 'Alice and Bob', 'Alice, Bob and Carol' (the "and" in `locale`'s language)."""
    if len(names) <= 1:
        return "".join(names)
    return translate(locale, "{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def prompt_text(prompt: str, names: tuple[str, ...] | list[str], locale: str = ENGLISH) -> str:
    """A seat's prompt in `locale` with names filled in and without a leading "Your turn:" (the
    caller already says it)."""
    text = fill_names(str(say(locale, prompt)), names)
    head, sep, rest = text.partition(": ")
    heads = {translate(ENGLISH, "Your turn").lower(), translate(locale, "Your turn").lower()}
    if sep and head.lower() in heads and rest:
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


def footer(loaded: LoadedGame, locale: str = ENGLISH) -> str:
    """Game number and state version, for admins and bug reports."""
    return translate(
        locale,
        "{title} · game #{number} · move {version}",
        title=loaded.game.title,
        number=loaded.record.pk,
        version=loaded.record.version,
    )


def status_line(loaded: LoadedGame, reader: int | None = None, locale: str = ENGLISH) -> str:
    """Whose turn it is, worded for the reader (None = everyone), or the result.

    The active player reads their own prompt ("**Your turn** — play cards…"); everyone else
    reads "**alice** to play." — never alice's "Your turn: …" (issue 15).
    """
    outcome = loaded.outcome
    if outcome is not None:
        return translate(locale, "🏁 **Game over.**") + " " + standings(loaded, locale)
    active = loaded.active_seats
    if not active:
        return translate(locale, "Waiting.")
    if reader is not None and reader in active:
        return your_turn(locale, own_prompt(loaded, reader, locale))
    return translate(locale, "**{players}** to play.", players=seat_list(loaded, active, locale))


def your_turn(locale: str, prompt: str) -> str:
    """'**Your turn** — play cards…' in `locale`."""
    return translate(locale, "**Your turn** — {prompt}", prompt=prompt)


def own_prompt(loaded: LoadedGame, seat: int, locale: str = ENGLISH) -> str:
    """The seat's prompt without a leading "Your turn:" (the caller already says it)."""
    return prompt_text(loaded.game.prompt(loaded.state, seat), loaded.names, locale)


def standings(loaded: LoadedGame, locale: str = ENGLISH) -> str:
    """Final scores in rank order, with winners marked."""
    outcome = loaded.outcome
    if outcome is None:
        return ""
    order = sorted(range(len(outcome.scores)), key=lambda s: (outcome.ranks[s], s))
    rows = [
        f"{'🏆 ' if s in outcome.winners else ''}{outcome.ranks[s]}. {loaded.names[s]} — "
        f"{score_text(loaded.game, outcome.scores[s], locale)}"
        for s in order
    ]
    reason = fill_seats(str(say(locale, outcome.reason)), loaded) if outcome.reason else ""
    if not outcome.winners:  # a non-seat opponent (Gustave) won; the reason names it
        verdict, reason = reason, ""
        rows = [*opponent_row(loaded, locale), *rows]
    elif outcome.is_draw:
        verdict = translate(locale, "Shared victory.")
    else:
        verdict = translate(locale, "{player} wins!", player=loaded.names[outcome.winners[0]])
    note = data_note(loaded, locale)
    if note.strip("_").lower() in (verdict + reason).lower():  # the engine already said it
        note = ""
    # The cause leads ("The draw pile ran out for the third time; …"), then who won, the table
    # and what scored how much (issue 28).
    return "\n".join([reason, verdict, *rows, *breakdown(loaded, locale), note]).strip()


MINUS = "\u2212"  # a real minus sign: "−3 points", never "-3"


def points(n: int, locale: str = ENGLISH) -> str:
    """'1 point', '12 points', '−3 points'."""
    told = ntranslate(locale, "{count} point", "{count} points", abs(n))
    return MINUS + told if n < 0 else told


def score_text(game: Game, n: int, locale: str = ENGLISH) -> str:
    """A final score in the game's own word: '12 points', or First in Flight's 'record 44'."""
    word = getattr(game, "score_word", "point")
    if word == "point":
        return points(n, locale)
    shown = f"{MINUS}{-n}" if n < 0 else str(n)
    if word == "record":
        return translate(locale, "record {score}", score=shown)
    return f"{word} {shown}"


BREAKDOWN_LIMIT = 1500  # the whole breakdown; the embed description holds 4,096 characters


def breakdown(loaded: LoadedGame, locale: str = ENGLISH) -> list[str]:
    """The engine's per-seat score breakdown (`score_breakdown`), names filled, under a heading."""
    lines: list[str] = getattr(loaded.game, "score_breakdown", lambda _state: [])(loaded.state)
    if not lines:
        return []
    text = "\n".join(f"• {fill_seats(str(say(locale, line)), loaded)}" for line in lines)
    return [translate(locale, "**How the points were scored**"), clip(text, BREAKDOWN_LIMIT)]


def opponent_row(loaded: LoadedGame, locale: str = ENGLISH) -> list[str]:
    """'🏆 1. Gustave — record 44' when a non-seat opponent won (the view's `gustave_record`).

    Without it the standings began at '2. alice' with nobody in first place (issue 15).
    """
    view = loaded.view(None)
    record = getattr(view, "gustave_record", None)
    if record is None or not getattr(view, "gustave_won", False):
        return []
    return [f"🏆 1. Gustave — {score_text(loaded.game, record, locale)}"]


def data_note(loaded: LoadedGame, locale: str = ENGLISH) -> str:
    """The data-provenance line the engine declares (e.g. an unofficial stand-in card set)."""
    note = loaded.game.data_note(loaded.state)
    return f"_{say(locale, note)}_" if note else ""


def board_embed(loaded: LoadedGame, lines: list[str], locale: str = ENGLISH) -> discord.Embed:
    """The public turn embed: recent log lines (told in `locale` already), then whose turn it
    is, with the board image."""
    log_text = "\n".join(f"• {fill_seats(line, loaded)}" for line in lines[-LOG_LINES:])
    description = (log_text + "\n\n" if log_text else "") + status_line(loaded, None, locale)
    embed = discord.Embed(title=loaded.game.title, description=description[:4000], colour=COLOUR)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=footer(loaded, locale))
    return embed


def public_actions(loaded: LoadedGame) -> list[Action]:
    """Actions safe to show everyone: only those the engine marks public, for one active seat."""
    active = loaded.active_seats
    if len(active) != 1:
        return []
    return [a for a in loaded.legal_actions(active[0]) if a.public]


def board_view(loaded: LoadedGame, locale: str = ENGLISH) -> discord.ui.View | None:
    """Components under the public board: public actions and the My hand button."""
    if loaded.outcome is not None:
        return None
    view = dynamic_view()
    pk, version = loaded.record.pk, loaded.record.version
    for item in action_items(pk, version, public_actions(loaded), rows=4, locale=locale):
        view.add_item(item)
    view.add_item(hand_button(pk, row=4, locale=locale))
    if has_table(loaded.game.id):
        view.add_item(table_button(pk, row=4, locale=locale))
    return view


async def render_png(draw: Callable[..., bytes], game_id: str, *args: Any, **kwargs: Any) -> bytes:
    """Render off the event loop (pool + cache); a drawing bug costs the picture, never the turn."""
    language = str(kwargs.get("language", ENGLISH))
    return await _picture(_start_png(draw, game_id, *args, **kwargs), game_id, language)


def _start_png(
    draw: Callable[..., bytes], game_id: str, *args: Any, **kwargs: Any
) -> asyncio.Future[bytes]:
    """Start a picture in the pool (a failure to start shows when it is awaited)."""
    # English is the drawing's default: left out, so a picture drawn ahead without a language
    # (and every English picture cached before) has the same key (the pool digests kwargs).
    if kwargs.get("language") == ENGLISH:
        kwargs.pop("language")
    try:
        return start_render(draw, game_id, *args, **kwargs)
    except Exception as exc:
        failed: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        failed.set_exception(exc)
        return failed


async def _picture(drawing: asyncio.Future[bytes], game_id: str, language: str = ENGLISH) -> bytes:
    """A started picture's bytes, or the placeholder when drawing it failed."""
    try:
        return await drawing
    except Exception:
        log.exception("Rendering %s failed; posting a placeholder picture", game_id)
        return placeholder_png(game_id, language=language)


async def _while_drawn(
    drawing: asyncio.Future[bytes],
    game_id: str,
    build: Callable[[], Panel],
    language: str = ENGLISH,
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
    return dataclasses.replace(panel, image=await _picture(drawing, game_id, language))


async def board_panel(
    loaded: LoadedGame,
    lines: list[str],
    *,
    ping: tuple[int, ...],
    live: bool = False,
    locale: str = ENGLISH,
) -> Panel:
    """The public board message in the server's language (`lines` are told in it already);
    `ping` are the seats to mention (new message only)."""
    view = loaded.view(None)
    # Without a live picture of its own, a turn in progress shows the board: one cache entry.
    live = live and has_live(loaded.game.id)
    drawing = _start_png(public_png, loaded.game.id, view, loaded.names, live=live, language=locale)
    extras = await coach.board_extras(loaded, locale)  # Last move?, Hint, Leave practice

    def build() -> Panel:
        users = [u for u in (loaded.user_of(s) for s in ping) if u]
        content = ""
        if users:
            who = " ".join(mention(u) for u in users)
            over = loaded.outcome is not None
            content = (
                translate(locale, "{who} — the game is over.", who=who)
                if over
                else translate(locale, "{who} — your turn.", who=who)
            )
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=u) for u in users]
        )
        last = fill_seats(lines[-1], loaded) if lines else ""
        alt = alt_text(loaded.game.id, view, loaded.names, last, language=locale)
        embed = board_embed(loaded, lines, locale)
        components = coach.with_items(board_view(loaded, locale), extras)
        return Panel(content, embed, b"", BOARD_FILE, components, allowed, alt)

    return await _while_drawn(drawing, loaded.game.id, build, locale)


async def hand_panel(loaded: LoadedGame, seat: int, locale: str = ENGLISH) -> Panel:
    """One player's private panel, in their language: their view as an image and their legal
    actions."""
    view = loaded.view(seat)
    drawing = _start_png(private_png, loaded.game.id, view, loaded.names, language=locale)
    extras = await coach.panel_extras(loaded, seat, locale)  # explanations and Hint (issue 31)

    def build() -> Panel:
        actions = loaded.legal_actions(seat)
        if actions:
            prompt = own_prompt(loaded, seat, locale)
            text = your_turn(locale, prompt) + card_texts(view, locale)
        elif loaded.outcome is not None:
            text = translate(locale, "The game is over.")
        else:
            waiting = seat_list(loaded, loaded.active_seats, locale)
            text = translate(locale, "Waiting for {players}.", players=waiting)
        title = translate(locale, "Your view — {title}", title=loaded.game.title)
        embed = discord.Embed(title=title, description=text, colour=COLOUR)
        embed.set_image(url=f"attachment://{HAND_FILE}")
        only_you = translate(
            locale, "{footer} · only you can see this", footer=footer(loaded, locale)
        )
        embed.set_footer(text=only_you)
        coach.add_explanations(embed, extras.coaching, locale)
        components = dynamic_view()
        pk, version = loaded.record.pk, loaded.record.version
        rows = extras.action_rows
        for item in action_items(pk, version, actions, rows=rows, locale=locale):
            components.add_item(item)
        coach.with_items(components, extras.buttons)
        alt = alt_text(loaded.game.id, view, loaded.names, language=locale)
        none = discord.AllowedMentions.none()
        return Panel("", embed, b"", HAND_FILE, components, none, alt)

    return await _while_drawn(drawing, loaded.game.id, build, locale)


async def table_message(loaded: LoadedGame, locale: str = ENGLISH) -> dict[str, Any]:
    """Keyword arguments of the ephemeral "Whole table" answer: an embed per page (≤ 10), each
    with its phone-sized picture."""
    game_id, view, names = loaded.game.id, loaded.view(None), loaded.names
    count = min(MAX_PAGES, table_page_count(game_id, view, names, language=locale))
    drawing = [
        _start_png(table_png, game_id, view, names, page=i, language=locale) for i in range(count)
    ]
    alt = alt_text(game_id, view, names, language=locale)
    embeds, files = [], []
    for i, started in enumerate(drawing):
        image = await _picture(started, game_id, locale)
        name = TABLE_FILE if count == 1 else f"table-{i + 1}.png"
        title = translate(locale, "Whole table — {title}", title=loaded.game.title)
        if count > 1:
            title += " " + translate(locale, "({page} of {pages})", page=i + 1, pages=count)
        embed = discord.Embed(title=title)
        embed.colour = COLOUR
        embed.set_image(url=f"attachment://{name}")
        zoom = translate(locale, "{footer} · tap a picture to zoom", footer=footer(loaded, locale))
        embed.set_footer(text=zoom)
        embeds.append(embed)
        files.append(discord.File(io.BytesIO(image), filename=name, description=alt or None))
    return {"embeds": embeds, "files": files}


def card_texts(view: Any, locale: str = ENGLISH) -> str:
    """The full texts of the cards the player is choosing between (a view's `card_texts`)."""
    texts = getattr(view, "card_texts", ()) or ()
    lines = [f"**{say(locale, name)}** — {say(locale, text)}" for name, text in texts]
    return ("\n\n" + "\n".join(lines))[:3500] if lines else ""


def lobby_text(loaded: LoadedGame, locale: str = ENGLISH) -> str:
    """The lobby message (public: the server's language): game, options, seats taken and how to
    join."""
    game = loaded.game
    seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(loaded.names))
    notes = "".join(f"\n{say(locale, note)}" for note in lobby_notes(game, loaded.record.options))
    head = translate(
        locale,
        "**{title}** lobby ({players}; options: {options})",
        title=game.title,
        players=player_range(game, locale),
        options=option_labels(game, loaded.record.options, locale),
    )
    join = translate(
        locale, "Join with the button or `/game join`; the creator starts with `/game start`."
    )
    return f"{head}{notes}\n{seats}\n{join}"


def player_range(game: Game, locale: str = ENGLISH) -> str:
    """'2 players' or '1–4 players' (never '2–2 players')."""
    if game.min_players == game.max_players:
        return ntranslate(locale, "{count} player", "{count} players", game.min_players)
    span = f"{game.min_players}–{game.max_players}"
    return translate(locale, "{span} players", span=span)


def option_labels(game: Game, options: dict[str, Any], locale: str = ENGLISH) -> str:
    """Options as players read them: 'Business-class rows 3 · Row rule numbered'."""
    fields = game.Options.model_fields
    parts = []
    for key, value in options.items():
        if not option_applies(game, options, key):
            continue
        field = fields.get(key)
        title = (field.title if field is not None else None) or key.replace("_", " ").capitalize()
        if isinstance(value, bool):
            shown = translate(locale, "on") if value else translate(locale, "off")
        else:
            # A choice's value ("numbered") reads as the slash command's own choice name.
            shown = clip(
                ptranslate(locale, "choice", value) if isinstance(value, str) else str(value), 40
            )
        parts.append(f"{translate(locale, title)} {shown}")
    return " · ".join(parts) or translate(locale, "defaults")


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


def lobby_view(loaded: LoadedGame, locale: str = ENGLISH) -> discord.ui.View:
    """Join / Leave / Start buttons for a lobby."""
    view = dynamic_view()
    for item in lobby_buttons(loaded.record.pk, locale):
        view.add_item(item)
    return view
