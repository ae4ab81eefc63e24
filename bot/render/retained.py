"""Pictures repainted only where they changed since a picture this worker drew before.

A move changes a few parts of a picture (a row of seats, the scores, the status line) and leaves
the rest as it was. A renderer that can say so offers a `Redraw`: the picture's layout (what only
a full draw paints, and each part's key and rows) and a repaint of chosen parts. Each worker keeps
the last few pictures of each drawing with their layouts; a new view repaints, on the kept picture
that differs least, only the parts whose key changed. The encoder then takes the untouched bands'
compressed bytes as they were, without packing or comparing them.

Drawing and packing a picture is mostly memory traffic on this kind of machine (issue 14: the same
job 30 ms after the last cost 1.6–2.5× back to back), so touching a third of the picture costs
about a third. A repaint gives the very pixels a full draw gives: tests/render/test_retained.py
compares both for every move of random games.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image

from bot.render.common import spoken
from bot.render.png import BAND_ROWS, BandKey, encode_keyed

# Pictures kept per drawing and worker: a Takeoff! picture holds 2.3 MB of pixels, so 4 of the
# board and 4 of the hand were 18 MiB of a small host's memory (issue 29); 2 still find the last
# picture of two games played side by side.
KEEP = 2
# Pixels kept in all, of every drawing, the least recently used dropped first: with two games
# repainted (Takeoff!, First in Flight) KEEP alone let a worker keep 17 MiB of pictures and the
# whole bot reach 159 of its 160 MiB after the mixed session. 8 MiB holds a move's board and
# view, and the ones before, of the game being played.
BUDGET = 8 * 1024 * 1024


@dataclass(frozen=True)
class Layout:
    """What a picture is made of: `frame` (its size and whatever only a full draw paints) and
    each part's key (compared with ==: what its pixels depend on) and rows [top, bottom).

    A part's rows must follow from the frame alone (pictures of one frame have their parts in
    the same places), and the parts' rows must cover every pixel a move can change."""

    frame: Hashable
    parts: Mapping[str, tuple[Any, int, int]]
    height: int


class Redraw(Protocol):
    """A renderer's parts: their layout for a view, and a repaint of some of them."""

    def layout(self, view: Any, *, names: Sequence[str]) -> Layout | None:
        """The picture's layout, or None when this view is always drawn in full."""
        ...

    def repaint(
        self, image: Image.Image, view: Any, *, names: Sequence[str], parts: Set[str]
    ) -> None:
        """Paint `parts` of `view` over the same parts of an earlier picture of this layout."""
        ...


@dataclass(eq=False)  # one kept picture is itself: compared by identity, never by its pixels
class Kept:
    """A picture this worker drew, its layout, its bands' keys and its PNG bytes."""

    layout: Layout
    image: Image.Image
    keys: list[BandKey]
    data: bytes

    @property
    def size(self) -> int:
        """Bytes of its pixels."""
        width, height = self.image.size
        return width * height * len(self.image.getbands())


@dataclass
class Shelf:
    """The pictures kept per drawing (one shelf per thread: the pool's thread fallback)."""

    kept: dict[Hashable, list[Kept]] = field(default_factory=dict)
    drawn: int = 0  # pictures drawn in full
    repainted: int = 0  # pictures repainted on a kept one
    reused: int = 0  # pictures whose every part was as kept: its bytes sent again as they were
    order: list[Kept] = field(default_factory=list)  # every kept picture, least recent first


_LOCAL = threading.local()


def _shelf() -> Shelf:
    """This thread's kept pictures."""
    shelf: Shelf | None = getattr(_LOCAL, "shelf", None)
    if shelf is None:
        shelf = _LOCAL.shelf = Shelf()
    return shelf


def forget() -> Shelf:
    """Drop this thread's kept pictures; returns the new, empty shelf (tests)."""
    shelf = _LOCAL.shelf = Shelf()
    return shelf


def png(
    draw: Any, redraw: Redraw, view: Any, names: Sequence[str], house: tuple[int, ...] = ()
) -> bytes:
    """The PNG of `draw(view, names=names)`, repainted on a kept picture where possible; `house`
    is its game's palette (png.encode_keyed)."""
    layout = redraw.layout(view, names=names)
    shelf = _shelf()
    # a picture in another language differs in its frame's words too: never repainted on
    kept = shelf.kept.setdefault((draw, spoken()), [])
    base, dirty = _closest(kept, layout) if layout is not None else (None, set())
    if base is None or layout is None:
        shelf.drawn += 1
        image = draw(view, names=names)
        encoded = encode_keyed(image, house=house)
        if layout is not None:
            _keep(shelf, kept, Kept(layout, image, encoded.keys, encoded.data))
        return encoded.data
    kept.remove(base)
    shelf.order.remove(base)  # kept again below, as it is or repainted
    if not dirty:
        # Every part as kept (a view that differs only where the picture does not show it: one
        # in seven Takeoff! pictures): the same pixels give the same bytes, with no encoding.
        shelf.reused += 1
        _keep(shelf, kept, base)
        return base.data
    shelf.repainted += 1
    redraw.repaint(base.image, view, names=names, parts=dirty)
    touched = _bands(layout.parts[name][1:] for name in dirty)
    known = {i: key for i, key in enumerate(base.keys) if i not in touched}
    encoded = encode_keyed(base.image, known=known, house=house)
    _keep(shelf, kept, Kept(layout, base.image, encoded.keys, encoded.data))
    return encoded.data


def _closest(kept: list[Kept], layout: Layout) -> tuple[Kept | None, set[str]]:
    """The kept picture of the same frame with the fewest rows to repaint, and its dirty parts;
    None when none has that frame. (Even repainting every part costs no more than a full draw:
    the frame, e.g. the plane's outline and the legend, stays.)"""
    best: tuple[Kept | None, set[str]] = (None, set())
    least = layout.height + 1
    for old in reversed(kept):
        if old.layout.frame != layout.frame or old.layout.parts.keys() != layout.parts.keys():
            continue
        dirty = {
            name for name, (key, _, _) in layout.parts.items() if old.layout.parts[name][0] != key
        }
        rows = _rows(layout.parts[name][1:] for name in dirty)
        if rows < least:
            best, least = (old, dirty), rows
    return best


def merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching [top, bottom) spans joined, top to bottom."""
    joined: list[tuple[int, int]] = []
    for top, bottom in sorted(spans):
        if joined and top <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(joined[-1][1], bottom))
        else:
            joined.append((top, bottom))
    return joined


def overlaps(first: tuple[int, int], second: tuple[int, int]) -> bool:
    """True when two [top, bottom) spans share a row."""
    return first[0] < second[1] and second[0] < first[1]


def _rows(spans: Iterable[tuple[int, int]]) -> int:
    """How many distinct rows the [top, bottom) spans cover."""
    return sum(bottom - top for top, bottom in merged(spans) if bottom > top)


def _bands(spans: Iterable[tuple[int, int]]) -> set[int]:
    """The numbers of the bands that share a row with any of the [top, bottom) spans (each band
    once: comparing every band with every span cost a Takeoff! move ~0.1 ms)."""
    return {
        band
        for top, bottom in merged(spans)
        if bottom > top
        for band in range(max(0, top) // BAND_ROWS, (bottom - 1) // BAND_ROWS + 1)
    }


def _keep(shelf: Shelf, kept: list[Kept], entry: Kept) -> None:
    """Keep a picture as its drawing's newest, dropping the oldest beyond KEEP, then the least
    recently kept of any drawing while all of them hold more than BUDGET bytes."""
    kept.append(entry)
    shelf.order.append(entry)
    for oldest in kept[:-KEEP]:
        _drop(shelf, oldest)
    while len(shelf.order) > 1 and sum(k.size for k in shelf.order) > BUDGET:
        _drop(shelf, shelf.order[0])


def _drop(shelf: Shelf, entry: Kept) -> None:
    """Forget a kept picture: from its drawing's list and from the recency order."""
    shelf.order.remove(entry)
    for pictures in shelf.kept.values():
        if entry in pictures:
            pictures.remove(entry)
