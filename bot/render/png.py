"""PNG encoding that compresses only what changed since earlier pictures.

A move changes a few bands of a board (a seat, a score, the log line) and leaves the rest as it
was. The picture is cut into horizontal bands of BAND_ROWS rows; each band is deflated on its own
(a full flush ends it on a byte boundary with an empty dictionary, so compressed bands can be
joined into one valid zlib stream) and kept by its pixels' digest. A band seen before — in this
game's last move, or in another game's identical empty rows — costs a dictionary lookup.

The pixels are stored exactly (full colour, no palette): what the player sees is what was drawn.
Equal pictures give equal bytes whatever the cache holds, since a band's compressed bytes depend
only on its pixels.
"""

from __future__ import annotations

import secrets
import struct
import zlib
from collections.abc import Mapping

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
CACHE_BANDS = 1536  # compressed bands of 0.5–4 KiB: a few MiB per process (~50 pictures)

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# PNG colour type and bytes per pixel for the modes stored as they are.
COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}
ZLIB_HEADER = b"\x78\x9c"  # deflate, 32 KiB window, "default" level flag, valid checksum
FINAL_BLOCK = b"\x03\x00"  # an empty final block with fixed codes: ends the deflate stream
ADLER_BASE = 65521

Band = tuple[bytes, int, int]  # compressed bytes, Adler-32 and length of the raw band
BandKey = tuple[int, str, int, int]  # width, mode, band length, pixels digest


class BandCache(Lru[BandKey, Band]):
    """Compressed bands by (width, mode, band length, pixels digest)."""

    def __init__(self, size: int = CACHE_BANDS) -> None:
        super().__init__(size)


BANDS = BandCache()


def encode(image: Image.Image, cache: BandCache = BANDS) -> bytes:
    """`image` as PNG bytes, exact, reusing the compressed bands `cache` already holds."""
    return encode_keyed(image, cache)[0]


def encode_keyed(
    image: Image.Image, cache: BandCache = BANDS, known: Mapping[int, BandKey] | None = None
) -> tuple[bytes, list[BandKey]]:
    """`encode`, also giving each band's key; `known` gives the keys of bands the caller knows
    unchanged (by band index: a picture redrawn only where it changed), which are then neither
    packed nor digested, only fetched from the cache."""
    if image.mode not in COLOUR_TYPES:
        image = image.convert("RGBA" if image.has_transparency_data else "RGB")
    colour_type, depth = COLOUR_TYPES[image.mode]
    width, height = image.size
    stride = width * depth
    known = known or {}
    image.load()
    keys: list[BandKey] = []
    parts: list[bytes] = [ZLIB_HEADER]
    adler = 1
    for i, top in enumerate(range(0, height, BAND_ROWS)):
        key = known.get(i)
        band = cache.get(key) if key is not None else None
        if key is None or band is None:
            rows = _band(image, top, stride)
            key = (width, image.mode, len(rows), _digest(rows))
            band = cache.get(key)
            if band is None:
                band = _deflate(rows, stride)
                cache.put(key, band)
        keys.append(key)
        parts.append(band[0])
        adler = adler32_combine(adler, band[1], band[2])
    parts += [FINAL_BLOCK, struct.pack(">I", adler)]
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    png = b"".join(
        [SIGNATURE, _chunk(b"IHDR", header), _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND")]
    )
    return png, keys


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


def _deflate(rows: bytes, stride: int) -> Band:
    """One band's scanlines (each with filter type 0) deflated and ended by a full flush."""
    view = memoryview(rows)  # joined without copying each row first
    raw = b"\x00" + b"\x00".join(view[i : i + stride] for i in range(0, len(rows), stride))
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
