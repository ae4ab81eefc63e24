"""Picks each game's renderer and turns views into PNG bytes (called off the event loop)."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Sequence
from types import ModuleType

from PIL import Image
from pydantic import BaseModel

from bot.render.common import INK, MUTED, canvas, font, to_png

log = logging.getLogger(__name__)

_MODULES = {
    "takeoff": "bot.render.takeoff",
    "flight": "bot.render.flight",
    "first-in-flight": "bot.render.first_in_flight",
}


def renderer_for(game_id: str) -> ModuleType | None:
    """The renderer module of a game, or None when it has none yet."""
    name = _MODULES.get(game_id)
    if name is None:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def public_png(game_id: str, view: BaseModel, names: Sequence[str], *, live: bool = False) -> bytes:
    """The public board image as PNG bytes.

    `live` asks for the picture of a turn in progress (edited after each step); a renderer may
    offer a compact `render_live` for it, otherwise the full board is used.
    """
    module = renderer_for(game_id)
    if module is None:
        return to_png(_placeholder(game_id))
    draw = getattr(module, "render_live", module.render_board) if live else module.render_board
    return to_png(draw(view, names=names))


def private_png(game_id: str, view: BaseModel, names: Sequence[str]) -> bytes:
    """One seat's private view as PNG bytes."""
    module = renderer_for(game_id)
    image = module.render_private(view, names=names) if module else _placeholder(game_id)
    return to_png(image)


def has_table(game_id: str) -> bool:
    """True when the game's turn picture leaves part of the table out (it has `render_table`)."""
    return hasattr(renderer_for(game_id), "render_table")


def table_png(game_id: str, view: BaseModel, names: Sequence[str]) -> bytes:
    """The whole table as PNG bytes (every mat, the display), for the "Whole table" button."""
    module = renderer_for(game_id)
    if module is None or not hasattr(module, "render_table"):
        return public_png(game_id, view, names)
    return to_png(module.render_table(view, names=names))


def alt_text(game_id: str, view: BaseModel, names: Sequence[str], last: str = "") -> str:
    """The picture in words for screen readers (≤ 1,024 characters); `last` is the last move."""
    module = renderer_for(game_id)
    describe = getattr(module, "alt_text", None)
    if describe is None:
        return f"{game_id} picture."
    try:
        return str(describe(view, names=names, last=last))[:1024]
    except Exception:  # alt text must never cost the turn message
        log.exception("Alt text for %s failed", game_id)
        return f"{game_id} picture; the text below describes the turn."


def placeholder_png(game_id: str) -> bytes:
    """The plain card as PNG bytes (also used when a renderer fails)."""
    return to_png(_placeholder(game_id))


def _placeholder(game_id: str) -> Image.Image:
    """A plain card used while a game has no renderer: the text prompt carries the turn."""
    image, draw = canvas(640, 120)
    draw.text((20, 24), game_id, font=font(28, bold=True), fill=INK)
    draw.text(
        (20, 70),
        "The picture could not be drawn; the text below is complete.",
        font=font(16),
        fill=MUTED,
    )
    return image
