"""Replays: public boards turn by turn as one animated WebP (called off the event loop).

Why WebP and not GIF: measured on 120-frame games of each game, lossy WebP is 5× smaller
than GIF (1.2–1.7 MB against 6–8 MB), keeps the boards' full colour (GIF's 256-colour palette
smears seat colours and anti-aliased text) and encodes twice as fast; Discord plays animated
WebP attachments. Frames are downscaled and sampled evenly (first and last always kept) so the
file stays far below the 10 MiB upload limit; the encoder quality drops if it ever does not.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image
from pydantic import BaseModel

from bot.i18n import ENGLISH
from bot.render import renderer_for
from bot.render.common import PHONE_ASPECT, canvas, speaking, to_png

MAX_FRAMES = 80
MAX_WIDTH = 640
# As tall as the phone rule lets a board be at MAX_WIDTH: a board that passes the rule is then
# only ever shrunk to the width, so a frame's text reads on a phone as the board's does (an
# 880 px cap shrank 600 × 1018 Takeoff! boards to 86 %, text to 8.9 px on a phone).
MAX_HEIGHT = round(PHONE_ASPECT * MAX_WIDTH)
FRAME_MS, LAST_FRAME_MS = 700, 4000
UPLOAD_LIMIT = 10 * 1024 * 1024
BUDGET = UPLOAD_LIMIT - 512 * 1024  # room for the message around the file
QUALITIES = (80, 60, 40)


def sample(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """`limit` indices spread evenly over `count` frames, always the first and the last."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def downscale(image: Image.Image) -> Image.Image:
    """The board shrunk to fit MAX_WIDTH × MAX_HEIGHT (never enlarged)."""
    scale = min(MAX_WIDTH / image.width, MAX_HEIGHT / image.height, 1.0)
    if scale >= 1.0:
        return image.convert("RGB")
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    # BOX: a plain area average, several times faster than LANCZOS and as sharp at ≤ 2× shrink
    return image.convert("RGB").resize(size, Image.Resampling.BOX)


def board(game_id: str, view: BaseModel, names: Sequence[str]) -> Image.Image:
    """The full-size public board for one view."""
    renderer = renderer_for(game_id)
    if renderer is None:
        raise ValueError(f"{game_id} has no board renderer")
    return renderer.board(view, names=names)


def frames(
    game_id: str, views: Sequence[BaseModel], names: Sequence[str], *, language: str = ENGLISH
) -> list[Image.Image]:
    """Downscaled boards of the sampled turns on one canvas size (boards may grow, e.g. a final
    standings chart), each at the top left: never stretched."""
    with speaking(language):
        chosen = [downscale(board(game_id, views[i], names)) for i in sample(len(views))]
    size = (max(f.width for f in chosen), max(f.height for f in chosen))
    return [f if f.size == size else _padded(f, size) for f in chosen]


def _padded(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """`image` on a background canvas of `size`."""
    padded, _ = canvas(*size)
    padded.paste(image, (0, 0))
    return padded


def encode(images: Sequence[Image.Image], quality: int) -> bytes:
    """An endlessly looping animated WebP; the last frame (the result) stays up longer."""
    buffer = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    images[0].save(
        buffer,
        format="WEBP",
        save_all=True,
        append_images=list(images[1:]),
        duration=durations,
        loop=0,
        quality=quality,
        method=0,  # the fastest: 2 costs 30 % more time for 20 % fewer bytes; 4 twice the time
    )
    return buffer.getvalue()


def animation(
    game_id: str, views: Sequence[BaseModel], names: Sequence[str], *, language: str = ENGLISH
) -> bytes:
    """The whole game as an animated WebP under the upload limit, its words in `language`."""
    images = frames(game_id, views, names, language=language)
    for quality in QUALITIES:
        data = encode(images, quality)
        if len(data) <= BUDGET:
            return data
    return encode(images[:: max(2, len(images) // 40)] + images[-1:], QUALITIES[-1])


def still(game_id: str, view: BaseModel, names: Sequence[str], *, language: str = ENGLISH) -> bytes:
    """One turn's board at full size as PNG, its words in `language`."""
    with speaking(language):
        return to_png(board(game_id, view, names))
