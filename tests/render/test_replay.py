"""Replay animations and end charts: frames, sampling, size under Discord's limit."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageColor, ImageStat

from bot.render import charts
from bot.render.common import SEAT_COLOURS
from bot.render.replay import (
    MAX_FRAMES,
    MAX_HEIGHT,
    MAX_WIDTH,
    UPLOAD_LIMIT,
    animation,
    board,
    downscale,
    sample,
    still,
)
from bot.services.timeline import score_series, turn_views
from tests.support.gamelog import played


def _frames(data: bytes) -> list[Image.Image]:
    """Every frame of an animated image, decoded."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "WEBP" and image.is_animated
    decoded = []
    for n in range(image.n_frames):
        image.seek(n)
        decoded.append(image.convert("RGB"))
    return decoded


def _difference(frame: Image.Image, board: Image.Image) -> float:
    """Mean absolute difference per channel between a board and the frame area it fills."""
    area = frame.crop((0, 0, *board.size))
    return float(sum(ImageStat.Stat(ImageChops.difference(area, board)).mean) / 3)


def test_sample_keeps_first_and_last_within_the_limit() -> None:
    """Long games are thinned evenly; short ones keep every turn."""
    assert sample(5) == [0, 1, 2, 3, 4]
    long = sample(384)
    assert len(long) <= MAX_FRAMES and long[0] == 0 and long[-1] == 383
    assert long == sorted(set(long))


def test_first_in_flight_replay_is_small_and_frames_match_the_boards() -> None:
    """The tall board is downscaled; first and last frames show the deal and the end."""
    log = played("first-in-flight", 3, seed=2)
    names = log.loaded.names
    views = turn_views(log)
    data = animation("first-in-flight", views, names)
    assert len(data) < UPLOAD_LIMIT
    frames = _frames(data)
    assert len(frames) == len(sample(len(views)))
    assert frames[0].width <= MAX_WIDTH and frames[0].height <= MAX_HEIGHT
    deal = downscale(board("first-in-flight", views[0], names))
    end = downscale(board("first-in-flight", views[-1], names))
    assert _difference(frames[0], deal) * 4 < _difference(frames[0], end)
    assert _difference(frames[-1], end) * 4 < _difference(frames[-1], deal)


def test_one_turn_is_a_full_size_png() -> None:
    """`turn:N` is the board at that turn, not downscaled."""
    log = played("takeoff", 2, seed=3)
    views = turn_views(log)
    image = Image.open(io.BytesIO(still("takeoff", views[3], log.loaded.names)))
    assert image.format == "PNG"
    assert image.size == board("takeoff", views[3], log.loaded.names).size


def test_end_chart_draws_one_line_per_seat() -> None:
    """The Takeoff! chart is a readable PNG with each seat's colour on it."""
    log = played("takeoff", 2, seed=3)
    series = score_series(log)
    assert series is not None
    data = charts.scores_png(series.title, series.labels, series.scores, log.loaded.names)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    colours = {colour for _, colour in image.getcolors(1 << 20) or []}
    for seat in (0, 1):  # each seat's colour, exactly (the PNG keeps every pixel)
        assert ImageColor.getrgb(SEAT_COLOURS[seat]) in colours
