"""Shared drawing helpers: fonts, palette, text and PNG encoding for every game's renderer."""

from __future__ import annotations

import io
import json
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

from bot.i18n import ENGLISH, normalise, translate
from bot.lru import BudgetLru
from bot.render.png import encode as encode_png

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"

# Seat colours in seat order, from the Okabe–Ito palette (designed for colour-blind readers):
# yellow, blue, vermillion, bluish green, reddish purple. tests/render/test_phone.py checks that
# they stay apart under simulated deuteranopia, protanopia and tritanopia; every picture also
# names the seat (or shows its symbol) beside the colour, so colour is never the only cue.
SEAT_COLOURS = ("#f0e442", "#0072b2", "#d55e00", "#009e73", "#cc79a7")
# One shape per seat, drawn beside or inside the colour.
SEAT_SYMBOLS = ("●", "■", "▲", "◆", "★")
BACKGROUND = "#f7f4ec"
INK = "#1f2430"
MUTED = "#676c78"  # dark enough for small text on BACKGROUND (contrast 5:1)
HIGHLIGHT = "#ff7a00"

# The phone rule (tests/render/test_phone.py): shown 400 px wide, no text is smaller than
# PHONE_GLYPH_PX (ink height of "Hg", cap top to descender), and a picture is at most
# PHONE_ASPECT times as tall as it is wide, so it fits a phone screen without scrolling.
PHONE_WIDTH = 400
PHONE_GLYPH_PX = 9.0
PHONE_ASPECT = 1.8

_traced: list[set[tuple[int, bool]]] = []

# The language of the picture being drawn. The public entry points (bot/render/__init__.py,
# card.py, charts.py, replay.py) set it for the length of one drawing, so the many small drawing
# functions beneath them ask `spoken()` instead of passing a language through every call; caches
# of drawn pieces (tiles, backgrounds, kept pictures) key on it so two languages never share one.
_LANGUAGE: ContextVar[str] = ContextVar("picture_language", default=ENGLISH)


def spoken() -> str:
    """The language of the picture being drawn ("en" outside any `speaking` block)."""
    return _LANGUAGE.get()


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Inside the block every word drawn is in `language` (normalised: "de", "pseudo", …)."""
    token = _LANGUAGE.set(normalise(language))
    try:
        yield _LANGUAGE.get()
    finally:
        _LANGUAGE.reset(token)


Mask = tuple[Any, tuple[int, int]]  # a rasterised text (an 8-bit core image) and its offset


def _mask_bytes(mask: Mask) -> int:
    """Pixels of a mask (an 8-bit core image: one byte each)."""
    width, height = mask[0].size
    return int(width * height)


# Text masks of every font, least recently used dropped first: a long-lived worker keeps the
# labels it draws every turn and no more (issue 29: 2,048 masks per font, cleared when full, grew
# a worker by ~6 MiB a thousand moves and could reach ~20 MiB over the fonts in use).
MASK_BUDGET = 3 * 1024 * 1024  # a board's labels are ~0.3 MiB of masks; a session's ~3 MiB
MASKS: BudgetLru[Hashable, Mask] = BudgetLru(MASK_BUDGET, _mask_bytes)


class MemoFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the masks of the texts it drew (in MASKS, shared by all fonts).

    Boards redraw the same labels every turn (seat letters, names, headings) and rasterising
    text was a tenth of a move's CPU; a mask is only read by the drawing, so reusing it is safe.

    A mask's edge is kept in TEXT_LEVELS levels of cover rather than 256: text on a flat fill
    then adds a few colours, not hundreds, so a board fits a 256-colour palette and uploads in a
    third of the bytes (png.py; issue 29). At a picture's own size the difference cannot be seen.
    """

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size)
        self._font_key = (path, size)

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any) -> Mask:
        """The mask and offset of `text`, rasterised once per distinct call while kept."""
        try:
            key: Hashable = (self._font_key, text, mode, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # an unhashable option (a features list): draw without the memo
            return _levelled(super().getmask2(text, mode, *args, **kwargs))
        found = MASKS.get(key)
        if found is None:
            found = _levelled(super().getmask2(text, mode, *args, **kwargs))
            MASKS.put(key, found)
        return found


TEXT_LEVELS = 8  # levels of cover at a letter's edge, from none to full
_LEVELS = [round(round(v * (TEXT_LEVELS - 1) / 255) * 255 / (TEXT_LEVELS - 1)) for v in range(256)]


def _levelled(mask: Mask) -> Mask:
    """A rasterised text with its cover rounded to TEXT_LEVELS levels (an 8-bit mask; others,
    such as a colour glyph's, as they are)."""
    core, offset = mask
    if core.mode != "L":
        return mask
    return core.point(_LEVELS, None), offset


@lru_cache(maxsize=64)
def _load(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    """Load a shipped TTF once per size (loading is slow)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return MemoFont(str(FONT_DIR / name), size)


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at `size` px."""
    if _traced:
        _traced[-1].add((size, bold))
    return _load(size, bold)


@contextmanager
def trace_fonts() -> Iterator[set[tuple[int, bool]]]:
    """Collect every (size, bold) a renderer asks for inside the block (for the phone rule)."""
    sizes: set[tuple[int, bool]] = set()
    _traced.append(sizes)
    try:
        yield sizes
    finally:
        _traced.pop()


def glyph_height(size: int, *, bold: bool = False) -> int:
    """Rendered ink height of "Hg" at `size` px: what the eye reads as the text's height."""
    _, top, _, bottom = _load(size, bold).getbbox("Hg")
    return int(bottom - top)


def canvas(
    width: int, height: int, colour: str = BACKGROUND
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A new RGB image and its drawing context."""
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Width in pixels of `text` in the shipped font."""
    if _traced:
        _traced[-1].add((size, bold))
    return _width(text, size, bold)


@lru_cache(maxsize=8192)
def _width(text: str, size: int, bold: bool) -> int:
    """Measured once per text and size: fitting and wrapping ask for the same widths each turn
    (a third of the drawing time before this cache)."""
    return int(_load(size, bold).getlength(text))


def fit_text(text: str, max_width: int, size: int, *, bold: bool = False) -> str:
    """`text` shortened with an ellipsis so it fits `max_width` pixels."""
    if text_width(text, size, bold=bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold=bold) > max_width:
        text = text[:-1]
    return text + "…"


def fit_words(text: str, max_width: int, size: int, *, bold: bool = False) -> str:
    """`text` cut after its last whole word that fits, with an ellipsis (a first word too
    long on its own is shortened): a reader never meets half a word."""
    if text_width(text, size, bold=bold) <= max_width:
        return text
    words = text.split()
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n]).rstrip(" ·—|,:(") + "…"
        if text_width(head, size, bold=bold) <= max_width:
            return head
    first = words[0] if words else text
    for cut in range(len(first) - 1, 0, -1):  # a compound's first part, cut at its hyphen
        if first[cut - 1] == "-" and text_width(first[:cut] + "…", size, bold=bold) <= max_width:
            return first[:cut] + "…"
    return fit_text(text, max_width, size, bold=bold)


def pieces(word: str, max_width: int, size: int, *, bold: bool = False) -> list[str]:
    """A word wider than a whole line broken into pieces that fit, each but the last ending in a
    hyphen (a long compound in another language): nothing cut off, nothing past the edge."""
    if text_width(word, size, bold=bold) <= max_width or len(word) < 2:
        return [word]
    cut = len(word) - 1
    while cut > 1 and text_width(word[:cut] + "-", size, bold=bold) > max_width:
        cut -= 1
    return [word[:cut] + "-", *pieces(word[cut:], max_width, size, bold=bold)]


def shrunk(text: str, max_width: int, size: int, *, bold: bool = False, smallest: int = 15) -> int:
    """The largest size from `size` down to `smallest` at which `text` fits on one line (a
    longer word in another language takes a smaller size; `smallest` keeps the phone rule)."""
    while size > smallest and text_width(text, size, bold=bold) > max_width:
        size -= 1
    return size


PALETTES_FILE = Path(__file__).resolve().parents[2] / "assets" / "palettes.json"


@lru_cache(maxsize=1)
def _palettes() -> dict[str, tuple[int, ...]]:
    """Every game's house palette (bot/render/palettes.py makes the file), read once."""
    try:
        data = json.loads(PALETTES_FILE.read_text())
    except (OSError, ValueError):  # no file: pictures are still exact, only larger
        return {}
    return {game: tuple(int(colour, 16) for colour in colours) for game, colours in data.items()}


def house(game_id: str) -> tuple[int, ...]:
    """The game's house palette, colours as r << 16 | g << 8 | b (png.py); empty if unknown."""
    return _palettes().get(game_id, ())


def to_png(image: Image.Image, house: tuple[int, ...] = ()) -> bytes:
    """Encode exactly and deterministically (no timestamps or metadata): equal input gives
    equal bytes. Only the bands that differ from earlier pictures are compressed; `house` is the
    game's palette, whose colours keep their indices in all its pictures (png.py)."""
    return encode_png(image, house=house)


def to_png_full(image: Image.Image, level: int = 6) -> bytes:
    """Pillow's own encoding (full colour, zlib level 6): the bench's baseline."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=level)
    return buffer.getvalue()


def tint(colour: str, amount: float) -> str:
    """`colour` mixed with white by `amount` (0 = unchanged, 1 = white)."""
    r, g, b = ImageColor.getrgb(colour)[:3]
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's display name, or 'Seat n' when no name is given."""
    if seat < len(names) and names[seat]:
        return names[seat]
    return translate(spoken(), "Seat {number}", number=seat + 1)


def centred(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    size: int,
    *,
    bold: bool = False,
    fill: str = INK,
    smallest: int | None = None,
) -> None:
    """Text centred in `box`: wrapped onto more lines when the box is tall enough, else shrunk
    (down to `smallest`, when given), else cut after a whole word.

    Names are wrapped rather than cut ("Jerusalem (Ly…" read as a different town, issue 15).
    """
    x0, y0, x1, y1 = box
    if smallest is not None:  # a longer word in another language: a smaller size, not a cut
        size = shrunk(text, x1 - x0 - 4, size, bold=bold, smallest=smallest)
    step = round(size * 1.2)
    lines = wrap_text(text, x1 - x0 - 4, size, bold=bold, max_lines=max(1, (y1 - y0) // step))
    top = (y0 + y1) // 2 - step * (len(lines) - 1) // 2
    for i, line in enumerate(lines):
        draw.text(
            ((x0 + x1) // 2, top + i * step),
            line,
            font=font(size, bold=bold),
            fill=fill,
            anchor="mm",
        )


def wrap_text(
    text: str, max_width: int, size: int, *, bold: bool = False, max_lines: int = 2
) -> list[str]:
    """`text` split at spaces (and at newlines) into at most `max_lines` lines that fit.

    Only the last line is cut with an ellipsis (after a whole word), and only when the words do
    not fit at all; a word wider than a line is broken with a hyphen.
    """
    lines: list[str] = []
    words = [w for part in text.split("\n") for w in [*part.split(" "), "\n"]][:-1]
    words = [
        p for w in words for p in ([w] if w == "\n" else pieces(w, max_width, size, bold=bold))
    ]
    current = ""
    for word in words:
        if word == "\n":
            lines.append(current)
            current = ""
            continue
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold=bold) > max_width:
            lines.append(current)
            current = word
        else:
            current = candidate
    lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [fit_words(line, max_width, size, bold=bold) for line in lines]
