"""The bench's "pictures free" bot (bench/pictures_free): real pictures first, then free ones
that are still new, valid PNGs of the same pixels, so the bot makes the same calls."""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

import bot.render.pool as pool
from bot.render.common import to_png

HOOK = Path(__file__).resolve().parents[2] / "bench" / "pictures_free" / "sitecustomize.py"
DRAWN: list[int] = []


def draw_square(game_id: str, shade: int) -> bytes:
    """A picture that records each time it is really drawn."""
    DRAWN.append(shade)
    return to_png(Image.new("RGB", (40, 30), (shade, 90, 160)))


@pytest.fixture
def hook() -> Iterator[ModuleType]:
    """The hook loaded as Python loads it at start-up; the pool's own drawing put back after."""
    real = pool._call
    spec = importlib.util.spec_from_file_location("bench_pictures_free", HOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    DRAWN.clear()
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        pool._call = real


def test_the_first_pictures_are_drawn_then_reused_as_new_valid_bytes(hook: ModuleType) -> None:
    pictures = [pool._call(draw_square, ("takeoff", shade), {}) for shade in range(hook.WARM + 3)]
    assert list(range(hook.WARM)) == DRAWN  # the later three were not drawn
    last_real = Image.open(io.BytesIO(pictures[hook.WARM - 1])).convert("RGB")
    free = pictures[hook.WARM :]
    assert len(set(free)) == len(free) and pictures[hook.WARM - 1] not in free
    for png in free:
        image = Image.open(io.BytesIO(png))
        image.load()  # a valid PNG: every chunk's checksum is right
        assert image.convert("RGB").tobytes() == last_real.tobytes()
        assert abs(len(png) - len(pictures[hook.WARM - 1])) < 32


def test_each_game_gets_its_own_real_pictures(hook: ModuleType) -> None:
    for _ in range(hook.WARM + 1):
        pool._call(draw_square, ("takeoff", 1), {})
    pool._call(draw_square, ("flight", 2), {})
    assert DRAWN.count(2) == 1  # another game's first picture is drawn for real
