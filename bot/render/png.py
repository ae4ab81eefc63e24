"""PNG encoding that compresses only what changed since earlier pictures.

A move changes a few bands of a board (a seat, a score, the log line) and leaves the rest as it
was. The picture is cut into horizontal bands of BAND_ROWS rows; each band is deflated on its own
(a full flush ends it on a byte boundary with an empty dictionary, so compressed bands can be
joined into one valid zlib stream) and kept by its pixels' digest. A band seen before — in this
game's last move, or in another game's identical empty rows — costs a dictionary lookup.

A picture of at most 256 colours (flat fills, and text drawn with few levels of edge: common.py)
of a game with a house palette (palettes.py) is stored with a palette, one byte a pixel instead
of three: a Takeoff! board and hand took 50 + 72 KiB in full colour and take about 17 + 25
(issue 29, bytes on the wire), and deflating a third of the bytes is quicker too. Other pictures
are stored in full colour. Either way every pixel comes back exactly as drawn, and equal pictures
give equal bytes whatever the cache holds: a band's bytes depend only on its pixels and palette.
"""

from __future__ import annotations

import random
import secrets
import struct
import zlib
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import xxhash
from PIL import Image
from zlib_ng import zlib_ng

from bot.lru import Lru

BAND_ROWS = 32
# zlib-ng level 6 for a band seen for the first time. Level 1 ("quick") packed a Takeoff! board and
# hand in 77 + 105 KiB, level 6 in 50 + 72 (9: 42 + 62, at five times the time); a move deflates
# only the bands it changed (a seat row, the status line: a fifth of a picture), so level 6 costs
# a move about 1.5 ms a picture more than level 1 — bytes every player's upload waits for (issue
# 29). Filtering the rows (Sub, Up) made these flat-coloured pictures larger, not smaller.
LEVEL = 6
SEED = secrets.randbits(64)  # the band digests' seed (see _digest)
CACHE_BANDS = 1536  # compressed bands of 0.2–4 KiB: a few MiB per process (~50 pictures)

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# PNG colour type and bytes per pixel for the modes stored as they are.
COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}
PALETTE_TYPE = 3  # one byte a pixel: an index into the PLTE chunk's colours
MAX_COLOURS = 256
ZLIB_HEADER = b"\x78\x9c"  # deflate, 32 KiB window, "default" level flag, valid checksum
FINAL_BLOCK = b"\x03\x00"  # an empty final block with fixed codes: ends the deflate stream
ADLER_BASE = 65521

Scanlines: TypeAlias = bytes | memoryview  # a band's rows, each after its filter byte
Band = tuple[bytes, int, int]  # compressed bytes, Adler-32 and length of the raw band
Pixels = tuple[int, str, int, int]  # width, mode, band length, digest of the band's pixels
# a band's pixels, and the indices its colours have in the palette (0 in full colour)
BandKey = tuple[int, str, int, int, int]


class BandCache(Lru[BandKey, Band]):
    """Compressed bands by (width, mode, band length, pixels digest, palette indices digest)."""

    def __init__(self, size: int = CACHE_BANDS) -> None:
        super().__init__(size)


BANDS = BandCache()
# Each band's colours (r << 16 | g << 8 | b, in order; 4 bytes each: a tuple of ints took ten
# times that), or TOO_MANY for more than MAX_COLOURS.
BandColours: TypeAlias = "array[int]"
BAND_COLOURS: Lru[Pixels, BandColours] = Lru(CACHE_BANDS)
TOO_MANY: BandColours = array("I")  # no band is without a colour


@dataclass(frozen=True)
class Encoded:
    """A picture's PNG bytes and each band's key."""

    data: bytes
    keys: list[BandKey]


def encode(image: Image.Image, cache: BandCache = BANDS, house: tuple[int, ...] = ()) -> bytes:
    """`image` as PNG bytes, exact, reusing the compressed bands `cache` already holds (see
    `encode_keyed` for `house`)."""
    return encode_keyed(image, cache, house=house).data


def encode_keyed(
    image: Image.Image,
    cache: BandCache = BANDS,
    known: Mapping[int, BandKey] | None = None,
    house: tuple[int, ...] = (),
) -> Encoded:
    """`encode`, also giving each band's key; `known` gives the keys of bands the caller knows
    unchanged (by band index: a picture redrawn only where it changed), which are then neither
    packed nor digested, only fetched from the cache.

    With a `house` palette (its game's colours, palettes.py) a picture of at most 256 colours
    is stored with a palette that starts with those colours, the picture's others after them in
    order: a house colour keeps its index in every picture of the game, so an unchanged band keeps
    its compressed bytes. Without one it is stored in full colour. The bytes depend only on the
    pixels and `house`: equal pictures give equal bytes."""
    if image.mode not in COLOUR_TYPES:
        image = image.convert("RGBA" if image.has_transparency_data else "RGB")
    image.load()
    width, height = image.size
    stride = width * COLOUR_TYPES[image.mode][1]
    known = known or {}
    packed: dict[int, bytes] = {}  # rows packed for their digest, by top row
    pixels: list[Pixels] = []
    for i, top in enumerate(range(0, height, BAND_ROWS)):
        key = known.get(i)
        if key is None:
            rows = packed[top] = _band(image, top, stride)
            pixels.append((width, image.mode, len(rows), _digest(rows)))
        else:
            pixels.append((key[0], key[1], key[2], key[3]))
    colours = _band_colours(image, pixels) if image.mode == "RGB" and house else None
    palette = _choose(colours, house) if colours is not None else None
    if palette is None or colours is None:
        keys = [(*p, 0) for p in pixels]
    else:
        keys = [(*p, palette.tint(c)) for p, c in zip(pixels, colours, strict=True)]
    parts, adler = _compressed(image, cache, keys, packed, palette)
    colour_type = COLOUR_TYPES[image.mode][0] if palette is None else PALETTE_TYPE
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    chunks = [SIGNATURE, _chunk(b"IHDR", header)]
    if palette is not None:
        chunks.append(_chunk(b"PLTE", palette.plte))
    stream = b"".join([ZLIB_HEADER, *parts, FINAL_BLOCK, struct.pack(">I", adler)])
    chunks += [_chunk(b"IDAT", stream), _chunk(b"IEND")]
    return Encoded(b"".join(chunks), keys)


def _band_colours(image: Image.Image, pixels: list[Pixels]) -> list[BandColours] | None:
    """Each band's colours (kept by its pixels' digest), or None when a band alone has more
    than MAX_COLOURS."""
    width, height = image.size
    found: list[BandColours] = []
    for i, key in enumerate(pixels):
        colours = BAND_COLOURS.get(key)
        if colours is None:
            top = i * BAND_ROWS
            # the core image's own crop and count: no Image wrapper per band
            band = image.im.crop((0, top, width, min(height, top + BAND_ROWS)))
            counted = band.getcolors(MAX_COLOURS)
            colours = TOO_MANY if counted is None else array("I", _packed_colours(counted))
            BAND_COLOURS.put(key, colours)
        if colours is TOO_MANY:
            return None
        found.append(colours)
    return found


def _packed_colours(counted: Sequence[tuple[int, Any]]) -> tuple[int, ...]:
    """getcolors' answer (for an RGB picture) as colours r << 16 | g << 8 | b, in order."""
    return tuple(sorted(pack(colour) for _, colour in counted))


def pack(colour: tuple[int, int, int]) -> int:
    """An RGB colour as one number, r << 16 | g << 8 | b."""
    red, green, blue = colour
    return red << 16 | green << 8 | blue


def _compressed(
    image: Image.Image,
    cache: BandCache,
    keys: list[BandKey],
    packed: dict[int, bytes],
    palette: Palette | None,
) -> tuple[list[bytes], int]:
    """The compressed bands in order (deflating those the cache lacks) and the Adler-32 of the
    whole raw stream."""
    bands: list[Band | None] = [cache.get(key) for key in keys]
    missing = [i for i, band in enumerate(bands) if band is None]
    for run in _runs(missing):
        top, bottom = run[0] * BAND_ROWS, (run[-1] + 1) * BAND_ROWS
        scanlines_of = _scanlines(image, palette, packed, top, bottom)
        for i in run:
            fresh = bands[i] = _deflate(scanlines_of(i * BAND_ROWS))
            cache.put(keys[i], fresh)
    adler = 1
    parts: list[bytes] = []
    for band in bands:
        assert band is not None  # every miss was deflated above
        parts.append(band[0])
        adler = adler32_combine(adler, band[1], band[2])
    return parts, adler


def _runs(indices: list[int]) -> list[list[int]]:
    """Ascending band numbers cut into runs (each looked up in one go), a run taking in gaps of
    up to RUN_GAP bands: a lookup's set-up (~0.2 ms) costs more than a few bands' rows."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i - runs[-1][-1] <= RUN_GAP + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


RUN_GAP = 4


def _scanlines(
    image: Image.Image, palette: Palette | None, packed: dict[int, bytes], top: int, bottom: int
) -> Callable[[int], Scanlines]:
    """The PNG scanlines (each row's filter byte, 0 for none, then its pixels: full colour, or
    palette indices) of the band at a given top row; indices are looked up once for all the
    rows from `top` to `bottom`."""
    width, height = image.size
    if palette is None:
        stride = width * COLOUR_TYPES[image.mode][1]

        def filtered(band_top: int) -> Scanlines:
            found = packed.get(band_top)
            rows = found if found is not None else _band(image, band_top, stride)
            return _filtered(rows, stride)

        return filtered
    bottom = min(bottom, height)
    # each band a view into the run's scanlines, not a copy of them
    lines = memoryview(palette.scanlines(image, (0, top, width, bottom)))
    line = width + 1

    def indexed(band_top: int) -> Scanlines:
        start = (band_top - top) * line
        end = (min(band_top + BAND_ROWS, bottom) - top) * line
        return lines[start:end]

    return indexed


def _filtered(rows: bytes, stride: int) -> bytes:
    """Rows of `stride` bytes, each after its filter byte (0)."""
    view = memoryview(rows)  # joined without copying each row first
    return b"\x00" + b"\x00".join(view[i : i + stride] for i in range(0, len(rows), stride))


class Palette:
    """A picture's colours in order (index i is `colours[i]`, as r << 16 | g << 8 | b) and the
    exact lookup of each pixel's index.

    Pillow maps RGB to a palette through a cache of one answer per (r>>2, g>>2, b>>2) cell,
    computed at the cell's lowest corner, so two colours of one cell would share an index. Each
    channel's values are first moved (a lookup table) onto cell corners so that every colour of
    the picture has a corner of its own: the nearest palette entry to that corner is then the
    colour itself, at distance 0, and the lookup is exact (tests/render/test_png.py checks it).
    """

    def __init__(self, colours: tuple[int, ...], cells: Cells) -> None:
        self.colours = colours
        self.cells = cells
        corners = [0] * (3 * 256)
        for offset, table in zip((0, 256, 512), cells, strict=True):
            for value, cell in table.items():
                corners[offset + value] = cell * 4
        self.members = frozenset(colours)
        self._index = {colour: i for i, colour in enumerate(colours)}
        self.plte = b"".join(colour.to_bytes(3, "big") for colour in colours)
        self._corners = corners  # 3 × 256 entries, as Image.point takes them for RGB
        spread = [
            corners[offset + (colour >> shift & 0xFF)]
            for colour in colours
            for offset, shift in ((0, 16), (256, 8), (512, 0))
        ]
        # entries past the colours repeat the first; a tie goes to the lower index
        spread += spread[:3] * (MAX_COLOURS - len(colours))
        self._target = Image.new("P", (1, 1))
        self._target.putpalette(spread)
        self._target.load()  # hands the palette to the core image the lookup reads

    def tint(self, colours: BandColours) -> int:
        """A digest of the indices these colours (a band's) have here: equal pixels under equal
        indices give equal compressed bytes, whatever else the palette holds."""
        return hash(bytes(map(self._index.__getitem__, colours))) | 1

    def scanlines(self, image: Image.Image, box: tuple[int, int, int, int]) -> bytes:
        """The rows of `box` of `image` as PNG scanlines: each row's filter byte (0), then each
        pixel's index into `colours` (every pixel's colour must be among them)."""
        # the core's own crop and point: Image.point re-rounds the table on every call
        indices = image.im.crop(box).point(self._corners, None).convert("P", 0, self._target.im)
        width, height = indices.size
        # one column wider, the first left 0: every row comes with its filter byte, packed in C
        # (joining the rows in Python cost a Takeoff! picture ~0.1 ms)
        lined = Image.new("P", (width + 1, height), 0)
        lined.im.paste(indices, (1, 0, width + 1, height))
        return lined.tobytes()


CELLS = 64  # cells per channel in Pillow's palette cache
CORNER_TRIES = 16  # seeded tries at giving every colour a corner of its own (each fails ≤ 1 in 8)
# Few: each palette's lookup keeps Pillow's 512 KiB cache of answers (32 were 16 MiB a worker).
PALETTES: Lru[tuple[int, ...], Palette] = Lru(6)


def _choose(bands: list[BandColours], house: tuple[int, ...]) -> Palette | None:
    """The palette for a picture whose bands have these colours: `house` followed by the
    colours it lacks, in order; None if they are more than MAX_COLOURS."""
    colours: set[int] = set()
    for band in bands:
        colours.update(band)
    if len(colours) > MAX_COLOURS:
        return None
    base = _palette(house) if house else None
    if base is None:
        return _palette(tuple(sorted(colours)))
    extra = tuple(sorted(colours - base.members))
    if not extra:
        return base
    room = MAX_COLOURS - len(house)
    slots = [*house, *extra[:room]]
    # past 256, the rest take the places of house colours this picture lacks, in order: the
    # house colours it has keep their indices (at most 256 colours always find a place)
    free = (i for i, colour in enumerate(house) if colour not in colours)
    for colour in extra[room:]:
        slots[next(free)] = colour
    return _palette(tuple(slots), base)


def _palette(colours: tuple[int, ...], grown_from: Palette | None = None) -> Palette | None:
    """The palette of these colours (kept: a game's pictures share few), or None when no lookup
    table gives each colour its own cell."""
    palette = PALETTES.get(colours)
    if palette is None:
        cells = _cells(colours, grown_from.cells if grown_from is not None else None)
        if cells is None:
            return None
        palette = Palette(colours, cells)
        PALETTES.put(colours, palette)
    return palette


Cells = tuple[dict[int, int], dict[int, int], dict[int, int]]  # each channel's value → cell


def _cells(colours: tuple[int, ...], start: Cells | None = None) -> Cells | None:
    """Each channel's values given cells (R, G, B) so that no two colours share a cell; the
    cells of `start` kept for the values it has (a grown palette is found in one try); None if
    no try found such (the picture is then kept in full colour)."""
    channels = [sorted({colour >> shift & 0xFF for colour in colours}) for shift in (16, 8, 0)]
    for attempt in range(-1, CORNER_TRIES):
        if attempt == -1 and start is None:
            continue
        if attempt == 0:  # cells by rank: distinct whenever a channel has at most 64 values
            tables = [{v: rank % CELLS for rank, v in enumerate(values)} for values in channels]
        else:  # the start's cells (try -1), then seeded random cells for the values it lacks
            known = start if attempt == -1 and start is not None else ({}, {}, {})
            rng = random.Random(attempt)  # seeded: the same colours always get the same cells
            tables = [
                {v: table[v] if v in table else rng.randrange(CELLS) for v in values}
                for table, values in zip(known, channels, strict=True)
            ]
        red, green, blue = tables
        taken = {(red[c >> 16], green[c >> 8 & 0xFF], blue[c & 0xFF]) for c in colours}
        if len(taken) == len(colours):
            return red, green, blue
    return None


def _band(image: Image.Image, top: int, stride: int) -> bytes:
    """BAND_ROWS rows of the picture's pixels from `top`, packed straight from the image
    (`tobytes` would pack it whole in 64 KiB pieces, join them, and the bands be sliced off)."""
    width, height = image.size
    bottom = min(height, top + BAND_ROWS)
    encoder = Image._getencoder(image.mode, "raw", image.mode)
    encoder.setimage(image.im, (0, top, width, bottom))
    # asked for the whole band (at least a row of 4-byte pixels, as RawEncode.c needs), the raw
    # encoder answers in one round
    _, status, data = encoder.encode(max((bottom - top) * stride, width * 4))
    if status != 1:
        raise RuntimeError(f"packing rows {top}–{bottom} gave status {status}")
    return bytes(data)


def _digest(rows: bytes) -> int:
    """A band's pixels digest: 128-bit XXH3, seeded at random per process (no one can aim a
    collision at a seed they never see, and 128 bits make an accidental one vanishingly rare).
    Python's own hash (keyed SipHash, 64 bits) took 40 µs a band, as long as deflating it; this
    takes 7, and half the bands of a move are found by it in the cache."""
    return xxhash.xxh3_128_intdigest(rows, SEED)


def _deflate(raw: Scanlines) -> Band:
    """One band's scanlines (each after its filter byte) deflated and ended by a full flush."""
    compressor = zlib_ng.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    data = compressor.compress(raw) + compressor.flush(zlib.Z_FULL_FLUSH)
    # zlib-ng's checksums are the standard library's values, 15-20x faster (SIMD): half a
    # millisecond over the bands of a Takeoff! picture
    return data, zlib_ng.adler32(raw), len(raw)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's checksum (zlib's own formula)."""
    rem = second_length % ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % ADLER_BASE
    low += (second & 0xFFFF) + ADLER_BASE - 1
    high += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + ADLER_BASE - rem
    return (low % ADLER_BASE) | ((high % ADLER_BASE) << 16)


def _chunk(kind: bytes, data: bytes = b"") -> bytes:
    """One PNG chunk: length, type, data and CRC."""
    crc = zlib_ng.crc32(data, zlib_ng.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
