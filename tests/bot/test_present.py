"""Presentation helpers: a renderer bug must not cost players their turn message."""

from __future__ import annotations

import logging

import pytest

from bot.edge.present import render_png
from bot.render import placeholder_png

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _broken(game_id: str) -> bytes:
    """A renderer with a bug."""
    raise ZeroDivisionError("bad layout")


async def test_a_failing_renderer_gives_a_placeholder_and_a_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The board message still goes out, with a plain picture; the traceback is logged."""
    with caplog.at_level(logging.ERROR):
        image = await render_png(_broken, "takeoff")
    assert image == placeholder_png("takeoff") and image.startswith(PNG_MAGIC)
    assert "Rendering takeoff failed" in caplog.text and "ZeroDivisionError" in caplog.text


async def test_a_working_renderer_is_used_as_is() -> None:
    """No fallback when drawing works."""
    assert await render_png(lambda gid: b"png:" + gid.encode(), "flight") == b"png:flight"
