"""The band-cached PNG encoder: exact pixels, valid files, equal bytes whatever the cache holds."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image, ImageDraw

from bot.render import png
from bot.render.common import house, to_png
from bot.render.samples import after_moves
from bot.render.takeoff import render_board, render_private
from rules import GAMES

HOUSE = (0x000000,)  # a house palette of one colour: pictures of few colours get a palette


def decoded(data: bytes, *, as_stored: bool = False) -> Image.Image:
    """A PNG read back by Pillow, after checking its chunks' CRCs; a palette picture in full
    colour unless `as_stored`."""
    Image.open(io.BytesIO(data)).verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB") if image.mode == "P" and not as_stored else image


def noisy(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    """A picture with text and random pixels: no band repeats by chance."""
    rng = random.Random(seed)
    image = Image.new(mode, size)
    image.putdata(
        [
            tuple(rng.randrange(256) for _ in mode) if len(mode) > 1 else rng.randrange(256)
            for _ in range(size[0] * size[1])
        ]
    )
    ImageDraw.Draw(image).text((2, 2), "Hg 42", fill=(0, 0, 0, 255)[: len(mode)])
    return image


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
@pytest.mark.parametrize("size", [(1, 1), (7, 33), (64, 31), (50, 97)])
def test_every_pixel_comes_back_exactly(mode: str, size: tuple[int, int]) -> None:
    image = noisy(mode, size, seed=size[0] * size[1])
    back = decoded(png.encode(image, png.BandCache(), house=HOUSE), as_stored=True)
    few = image.getcolors(png.MAX_COLOURS) is not None
    assert back.mode == ("P" if mode == "RGB" and few else mode) and back.size == size
    assert back.convert(mode).tobytes() == image.tobytes()


def test_a_picture_of_few_colours_is_stored_with_its_own_palette_exactly() -> None:
    image = noisy("RGB", (40, 40), seed=1).quantize(16)
    data = png.encode(image, png.BandCache(), house=HOUSE)
    back = decoded(data, as_stored=True)
    assert back.mode == "P" and len(back.getpalette() or []) == 3 * (
        len(image.getcolors() or []) + 1
    )
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()
    assert len(data) < len(png.encode(noisy("RGB", (40, 40), seed=1), png.BandCache()))


def test_a_picture_of_more_than_256_colours_is_stored_in_full_colour() -> None:
    image = Image.new("RGB", (257, 40))
    image.putdata([(x, x // 2, 255 - x % 256) for _ in range(40) for x in range(257)])
    back = decoded(png.encode(image, png.BandCache(), house=HOUSE))
    assert back.mode == "RGB" and back.tobytes() == image.tobytes()


def test_a_picture_without_a_house_palette_is_stored_in_full_colour() -> None:
    image = noisy("RGB", (40, 40), seed=1).quantize(16).convert("RGB")
    back = decoded(png.encode(image, png.BandCache()), as_stored=True)
    assert back.mode == "RGB" and back.tobytes() == image.tobytes()


def crowded(seed: int, count: int = 256, spread: int = 12) -> Image.Image:
    """A picture of `count` colours packed close together (many share Pillow's palette cells)."""
    rng = random.Random(seed)
    colours: set[tuple[int, int, int]] = set()
    while len(colours) < count:
        colours.add(tuple(100 + rng.randrange(spread) for _ in range(3)))  # type: ignore[arg-type]
    ordered = sorted(colours)
    image = Image.new("RGB", (64, 96))
    image.putdata([ordered[rng.randrange(count)] for _ in range(64 * 96)])
    return image


@pytest.mark.parametrize("seed", range(6))
def test_colours_that_share_a_palette_cell_keep_their_own_index(seed: int) -> None:
    """Pillow's palette lookup answers per 4×4×4 cell; 256 colours within 12 levels of each other
    share cells, and every pixel must still come back as itself."""
    image = crowded(seed)
    back = decoded(png.encode(image, png.BandCache(), house=HOUSE), as_stored=True)
    assert back.mode == "P"
    assert back.convert("RGB").tobytes() == image.tobytes()


def test_a_house_colour_keeps_its_index_and_every_picture_stays_exact() -> None:
    """Pictures start their palette from their game's house colours: a picture with a colour
    outside them still comes back exactly, and its bands of house colours only are the very
    bands (and bytes) of the picture without it."""
    cache = png.BandCache()
    first = Image.new("RGB", (50, 32 * 4), "#f7f4ec")
    ImageDraw.Draw(first).rectangle((0, 0, 49, 31), fill="#204080")
    second = first.copy()
    ImageDraw.Draw(second).rectangle((0, 96, 49, 127), fill="#c03020")  # a new colour, last band
    house = (0x204080, 0xF7F4EC)
    one = png.encode(first, cache, house=house)
    hits = cache.hits
    two = png.encode(second, cache, house=house)
    assert cache.hits - hits == 3  # the first three bands, under the same indices
    assert decoded(one).tobytes() == first.tobytes()
    assert decoded(two).tobytes() == second.tobytes()
    assert two == png.encode(second, png.BandCache(), house=house)  # whatever the cache holds


def test_colours_beyond_the_house_take_the_places_of_house_colours_a_picture_lacks() -> None:
    image = crowded(2, count=200)
    house = tuple(range(0x010101, 0x010101 + 100))  # 100 colours the picture does not have
    back = decoded(png.encode(image, png.BandCache(), house=house), as_stored=True)
    assert back.mode == "P"
    assert back.convert("RGB").tobytes() == image.tobytes()


def test_every_games_house_palette_is_what_its_seeded_games_make() -> None:
    """assets/palettes.json is made by `python -m bot.render.palettes`: a drawing that changed
    its colours must make the file again (a stale one costs bytes and time, never a pixel)."""
    from bot.render import palettes

    made = {game_id: palettes.made(game_id) for game_id in palettes.PALETTE_GAMES}
    assert palettes.PALETTES_FILE.read_text() == palettes.written(made)


def test_the_bytes_do_not_depend_on_what_the_cache_holds() -> None:
    board = render_board(
        GAMES["takeoff"].view(after_moves("takeoff", 2, 20, seed=1), None), names=["Ann", "Bo"]
    )
    warm = png.BandCache()
    png.encode(
        render_board(
            GAMES["takeoff"].view(after_moves("takeoff", 2, 12, seed=1), None), names=["Ann", "Bo"]
        ),
        warm,
    )
    assert warm.misses > 0
    hits_before = warm.hits
    from_warm = png.encode(board, warm)
    assert warm.hits > hits_before  # the earlier board's unchanged bands were reused
    assert from_warm == png.encode(board, png.BandCache())
    assert decoded(from_warm).tobytes() == board.tobytes()


def test_a_changed_band_is_never_served_from_the_cache() -> None:
    cache = png.BandCache()
    image = Image.new("RGB", (80, 100), "#f7f4ec")
    png.encode(image, cache)
    ImageDraw.Draw(image).point((79, 99), fill="#000000")  # one pixel in the last band
    assert decoded(png.encode(image, cache)).getpixel((79, 99)) == (0, 0, 0)
    assert decoded(png.encode(image, cache)).getpixel((78, 99)) == (247, 244, 236)


def test_pictures_of_one_width_but_other_heights_and_bands_come_back_exactly() -> None:
    """A band equal to the one at the same place in the last picture of that width takes its
    key; taller, shorter and shifted pictures after it are still exact."""
    cache = png.BandCache()
    base = noisy("RGB", (40, 32 * 4 + 5), seed=1)
    shorter = base.crop((0, 0, 40, 32 * 2 + 3))
    taller = Image.new("RGB", (40, 32 * 6), "#ffffff")
    taller.paste(base, (0, 0))
    shifted = Image.new("RGB", base.size, "#ffffff")
    shifted.paste(base, (0, 7))
    edited = base.copy()
    ImageDraw.Draw(edited).point((20, 40), fill="#000000")  # the second band only
    for picture in (base, shorter, taller, shifted, edited, base):
        assert decoded(png.encode(picture, cache)).tobytes() == picture.tobytes()
    assert cache.hits > 0


def test_the_cache_keeps_at_most_its_size() -> None:
    cache = png.BandCache(size=3)
    png.encode(noisy("RGB", (8, 32 * 5), seed=3), cache)
    assert len(cache) == 3


@pytest.mark.parametrize("seed", range(5))
def test_adler32_of_joined_bytes_from_the_parts(seed: int) -> None:
    rng = random.Random(seed)
    first = rng.randbytes(rng.randrange(0, 200_000))
    second = rng.randbytes(rng.randrange(0, 200_000))
    combined = png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_to_png_is_the_exact_encoder() -> None:
    image = noisy("RGB", (30, 70), seed=9)
    assert decoded(to_png(image)).tobytes() == image.tobytes()


def test_a_takeoff_moves_pictures_upload_in_far_fewer_bytes_and_exactly() -> None:
    """A Takeoff! move uploads its board and the clicker's hand: together within the 72 KiB of the
    release before the pictures grew (issue 29; 182 KiB at zlib's quick level, 122 in full
    colour), every pixel still exactly as drawn."""
    game = GAMES["takeoff"]
    state = after_moves("takeoff", 2, 12)
    names = ["Alice", "Bob"]
    board = render_board(game.view(state, None), names=names)
    hand = render_private(game.view(state, 0), names=names)
    sizes = []
    for image in (board, hand):
        data = png.encode(image, png.BandCache(), house=house("takeoff"))
        assert decoded(data).tobytes() == image.tobytes()
        sizes.append(len(data))
    assert sum(sizes) <= 72 * 1024, f"board {sizes[0] // 1024} KiB + hand {sizes[1] // 1024} KiB"
