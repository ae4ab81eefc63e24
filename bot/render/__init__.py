"""Picks each game's renderer and turns views into PNG bytes (called off the event loop)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image
from pydantic import BaseModel

from bot.i18n import ENGLISH, translate
from bot.render import first_in_flight, flight, retained, takeoff
from bot.render.common import (
    INK,
    MUTED,
    canvas,
    font,
    house,
    speaking,
    spoken,
    to_png,
    wrap_text,
)
from bot.render.retained import Redraw
from rules import ENGINES, Game

log = logging.getLogger(__name__)


class Draw(Protocol):
    """A drawing function: one view (the game's own view model) and the seat names."""

    def __call__(self, view: Any, *, names: Sequence[str]) -> Image.Image:
        """The picture of `view`."""
        ...


class Count(Protocol):
    """How many pictures a paged drawing takes for one view."""

    def __call__(self, view: Any, *, names: Sequence[str]) -> int:
        """At least 1."""
        ...


class DrawPage(Protocol):
    """One page of a paged drawing."""

    def __call__(self, view: Any, *, names: Sequence[str], page: int = 0) -> Image.Image:
        """Page `page` (0-based) of the picture of `view`."""
        ...


class Describe(Protocol):
    """Alt text: the picture of `view` in words (whose turn, scores, the last move)."""

    def __call__(self, view: Any, *, names: Sequence[str], last: str = "") -> str:
        """At most 1,024 characters."""
        ...


class Renderer(Protocol):
    """How one game's views become pictures."""

    @property
    def board(self) -> Draw:
        """The public board."""
        ...

    @property
    def private(self) -> Draw:
        """One seat's private view (its hand or mat)."""
        ...

    @property
    def live(self) -> Draw | None:
        """A compact picture of a turn in progress (edited after each step); None = the board."""
        ...

    @property
    def table(self) -> Draw | None:
        """The whole table, when the board (the turn picture) shows only part of it."""
        ...

    @property
    def table_pages(self) -> Count | None:
        """How many phone-sized pages the whole table takes; None = `table` is one picture."""
        ...

    @property
    def table_page(self) -> DrawPage | None:
        """One page of the whole table (with `table_pages`)."""
        ...

    @property
    def alt(self) -> Describe | None:
        """Alt text for every picture of the game (public and private views)."""
        ...

    @property
    def board_parts(self) -> Redraw | None:
        """The board in parts, so a move repaints only what changed (bot/render/retained.py)."""
        ...

    @property
    def private_parts(self) -> Redraw | None:
        """The private view in parts, likewise."""
        ...


@dataclass(frozen=True)
class Pictures:
    """A Renderer made of drawing functions."""

    board: Draw
    private: Draw
    live: Draw | None = None
    table: Draw | None = None
    table_pages: Count | None = None
    table_page: DrawPage | None = None
    alt: Describe | None = None
    board_parts: Redraw | None = None
    private_parts: Redraw | None = None


@dataclass(frozen=True)
class Entry:
    """One game: its rules engine and its renderer."""

    engine: Game
    renderer: Renderer


# Renderers by game id; a new game adds its engine to rules.ENGINES and its pictures here.
_RENDERERS: dict[str, Renderer] = {
    "takeoff": Pictures(
        board=takeoff.render_board,
        private=takeoff.render_private,
        alt=takeoff.alt_text,
        board_parts=takeoff.BoardParts(),
        private_parts=takeoff.PrivateParts(),
    ),
    "flight": Pictures(
        board=flight.render_board, private=flight.render_private, alt=flight.alt_text
    ),
    "first-in-flight": Pictures(
        board=first_in_flight.render_board,
        private=first_in_flight.render_private,
        table=first_in_flight.render_table,
        table_pages=first_in_flight.table_page_count,
        table_page=first_in_flight.render_table_page,
        alt=first_in_flight.alt_text,
        board_parts=first_in_flight.board_parts(),
        private_parts=first_in_flight.private_parts(),
    ),
}

# The one registry: every engine with its renderer, in menu order.
REGISTRY: Mapping[str, Entry] = {
    engine.id: Entry(engine, _RENDERERS[engine.id]) for engine in ENGINES
}


def renderer_for(game_id: str) -> Renderer | None:
    """The renderer of a game, or None for a game the registry does not know."""
    entry = REGISTRY.get(game_id)
    return entry.renderer if entry is not None else None


def public_png(
    game_id: str,
    view: BaseModel,
    names: Sequence[str],
    *,
    live: bool = False,
    language: str = ENGLISH,
) -> bytes:
    """The public board image as PNG bytes, its words in `language`.

    `live` asks for the picture of a turn in progress (edited after each step); a renderer may
    offer a compact `live` picture for it, otherwise the full board is used.
    """
    with speaking(language):
        renderer = renderer_for(game_id)
        if renderer is None:
            return to_png(_placeholder(game_id))
        draw = (renderer.live or renderer.board) if live else renderer.board
        if draw is renderer.board and renderer.board_parts is not None:
            return retained.png(draw, renderer.board_parts, view, names, house(game_id))
        return to_png(draw(view, names=names), house=house(game_id))


def private_png(
    game_id: str, view: BaseModel, names: Sequence[str], *, language: str = ENGLISH
) -> bytes:
    """One seat's private view as PNG bytes, its words in `language`."""
    with speaking(language):
        renderer = renderer_for(game_id)
        if renderer is not None and renderer.private_parts is not None:
            parts = renderer.private_parts
            return retained.png(renderer.private, parts, view, names, house(game_id))
        image = renderer.private(view, names=names) if renderer else _placeholder(game_id)
        return to_png(image, house=house(game_id))


def has_live(game_id: str) -> bool:
    """True when the game draws a different picture for a turn in progress (a `live` one)."""
    renderer = renderer_for(game_id)
    return renderer is not None and renderer.live is not None


def has_table(game_id: str) -> bool:
    """True when the game's turn picture leaves part of the table out (it has a `table`)."""
    renderer = renderer_for(game_id)
    return renderer is not None and renderer.table is not None


def table_page_count(
    game_id: str, view: BaseModel, names: Sequence[str], *, language: str = ENGLISH
) -> int:
    """How many pictures the "Whole table" answer has (a phone-sized page each) in `language`
    (longer words may take more room)."""
    with speaking(language):
        renderer = renderer_for(game_id)
        count = renderer.table_pages if renderer is not None else None
        return count(view, names=names) if count is not None else 1


def table_png(
    game_id: str,
    view: BaseModel,
    names: Sequence[str],
    page: int = 0,
    *,
    language: str = ENGLISH,
) -> bytes:
    """One page of the whole table as PNG bytes (every mat, the display), for "Whole table"."""
    with speaking(language):
        renderer = renderer_for(game_id)
        if renderer is None or renderer.table is None:
            return public_png(game_id, view, names, language=language)
        if renderer.table_page is not None:
            return to_png(renderer.table_page(view, names=names, page=page))
        return to_png(renderer.table(view, names=names))


def alt_text(
    game_id: str, view: BaseModel, names: Sequence[str], last: str = "", *, language: str = ENGLISH
) -> str:
    """The picture in words for screen readers (≤ 1,024 characters) in `language`; `last` is
    the last move (already in that language)."""
    with speaking(language) as lang:
        renderer = renderer_for(game_id)
        describe = renderer.alt if renderer is not None else None
        if describe is None:
            return translate(lang, "{game} picture.", game=game_id)
        try:
            return str(describe(view, names=names, last=last))[:1024]
        except Exception:  # alt text must never cost the turn message
            log.exception("Alt text for %s failed", game_id)
            return translate(
                lang, "{game} picture; the text below describes the turn.", game=game_id
            )


def placeholder_png(game_id: str, *, language: str = ENGLISH) -> bytes:
    """The plain card as PNG bytes (also used when a renderer fails)."""
    with speaking(language):
        return to_png(_placeholder(game_id))


def _placeholder(game_id: str) -> Image.Image:
    """A plain card used while a game has no renderer: the text prompt carries the turn."""
    image, draw = canvas(640, 120)
    draw.text((20, 24), game_id, font=font(28, bold=True), fill=INK)
    words = translate(spoken(), "The picture could not be drawn; the text below is complete.")
    lines = wrap_text(words, 600, 16, max_lines=2)
    for n, line in enumerate(lines):  # one line in English, as before
        draw.text((20, 70 + n * 20), line, font=font(16), fill=MUTED)
    return image
