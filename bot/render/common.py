"""Shared drawing helpers: fonts, palette, text and PNG encoding for every game's renderer."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"

# Seat colours in seat order; chosen to stay distinct for colour-blind players on dark and light.
SEAT_COLOURS = ("#f2c230", "#2f7fd8", "#d8452f", "#3fa34d", "#9b59b6")
BACKGROUND = "#f7f4ec"
INK = "#1f2430"
MUTED = "#7a7f8c"
HIGHLIGHT = "#ff7a00"


@lru_cache(maxsize=32)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at `size` px (cached: loading a TTF is slow)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def canvas(
    width: int, height: int, colour: str = BACKGROUND
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A new RGB image and its drawing context."""
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Width in pixels of `text` in the shipped font."""
    return int(font(size, bold=bold).getlength(text))


def fit_text(text: str, max_width: int, size: int, *, bold: bool = False) -> str:
    """`text` shortened with an ellipsis so it fits `max_width` pixels."""
    if text_width(text, size, bold=bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold=bold) > max_width:
        text = text[:-1]
    return text + "…"


def to_png(image: Image.Image) -> bytes:
    """Encode deterministically (no timestamps or metadata) so equal input gives equal bytes."""
    buffer = io.BytesIO()
    # zlib level 6 without optimize: 3.5x faster than optimize=True for ~7 % more bytes
    # (bench/render.py), and every move encodes two images.
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def tint(colour: str, amount: float) -> str:
    """`colour` mixed with white by `amount` (0 = unchanged, 1 = white)."""
    r, g, b = ImageColor.getrgb(colour)[:3]
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's display name, or 'Seat n' when no name is given."""
    return names[seat] if seat < len(names) and names[seat] else f"Seat {seat + 1}"


def centred(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    size: int,
    *,
    bold: bool = False,
    fill: str = INK,
) -> None:
    """Text centred in `box`: wrapped onto more lines when the box is tall enough, else cut.

    Names are wrapped rather than cut ("Jerusalem (Ly…" read as a different town, issue 15).
    """
    x0, y0, x1, y1 = box
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

    Only the last line is cut with an ellipsis, and only when the words do not fit at all.
    """
    lines: list[str] = []
    words = [w for part in text.split("\n") for w in [*part.split(" "), "\n"]][:-1]
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
    return [fit_text(line, max_width, size, bold=bold) for line in lines]
