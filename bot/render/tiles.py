"""Small pictures drawn once and pasted after: hand cards, stones, slots and mats that recur
from move to move (and between the board and the private view of the same move).

Drawing blends anti-aliased text edges with what lies beneath, so a tile gives the very pixels
drawing in place would give only where the same pixels lie beneath it: its key names them (a
flat colour, or a spot of a static layer). `drawn_in_place()` turns the cache off, so tests
can compare both paths pixel by pixel.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from PIL import Image

from bot.lru import BudgetLru
from bot.render.common import spoken

# Draws one tile's content on an image with its top-left corner at (x, y); the rest of its
# arguments are its hashable inputs. It gets the image, not a drawing context, so that it can
# stamp smaller tiles itself.
Painter = Callable[..., None]
Key = tuple[Painter, tuple[int, int], Hashable, tuple[Hashable, ...], str]

# Bytes of tile pixels a worker keeps: a hand card is ~60 KB, a First in Flight mat ~0.7 MB,
# so this holds a few games' worth of cards and mats; workers are long-lived, hence a bound.
BUDGET = 24 * 1024 * 1024


class TileCache(BudgetLru[Key, Image.Image]):
    """Tiles by (painter, size, what lies beneath, inputs, language), least recently used dropped
    first beyond a budget of pixel bytes."""

    def __init__(self, budget: int = BUDGET) -> None:
        super().__init__(budget, _bytes)
        self.enabled = True


def _bytes(tile: Image.Image) -> int:
    """Memory a tile's pixels take (RGB is stored 4 bytes a pixel)."""
    return tile.width * tile.height * 4


CACHE = TileCache()


def stamp(
    image: Image.Image,
    xy: tuple[int, int],
    size: tuple[int, int],
    under: Hashable,
    painter: Painter,
    *args: Hashable,
) -> None:
    """`painter(image, x, y, *args)` at `xy`, pasted from a cached `size` tile.

    `under` names what lies beneath the tile (a flat colour, or a key of a static layer's
    spot): a tile is painted on a crop of the first picture it is stamped on, so it is reused
    only where the same pixels lie beneath. The painter must draw nothing outside the tile
    (tests/render/test_draw_identical.py compares every picture with drawing in place).
    """
    x, y = xy
    inside = x >= 0 and y >= 0 and x + size[0] <= image.width and y + size[1] <= image.height
    if not CACHE.enabled or not inside:  # a crop past the edge would cache padding as pixels
        painter(image, x, y, *args)
        return
    key: Key = (painter, size, under, args, spoken())  # a tile's words are in one language
    tile = CACHE.get(key)
    if tile is None:
        tile = image.crop((x, y, x + size[0], y + size[1]))
        painter(tile, 0, 0, *args)
        CACHE.put(key, tile)
    image.paste(tile, xy)


@contextmanager
def drawn_in_place() -> Iterator[None]:
    """Inside the block every stamp draws in place (the reference the tiles must equal)."""
    CACHE.enabled = False
    try:
        yield
    finally:
        CACHE.enabled = True
