"""/card pictures: every Takeoff! and Flight card face is drawn; First in Flight has no faces."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.card import card_png
from rules.catalogue import catalogue


def test_every_card_with_a_face_is_drawn_and_fits_discord() -> None:
    """Each Takeoff! card (not the ticket) and each Flight card gets a readable picture."""
    drawn: set[str] = set()
    for entry in catalogue():
        png = card_png(entry)
        if entry.game == "first-in-flight" or entry.card == "ticket":
            assert png is None, entry.card
            continue
        assert png is not None, entry.card
        assert len(png) < 1024 * 1024
        assert Image.open(io.BytesIO(png)).format == "PNG"
        drawn.add(entry.game)
    assert drawn == {"takeoff", "flight"}


def test_a_long_takeoff_text_makes_a_taller_card() -> None:
    """The whole effect text is shown: a longer text gives a taller card, not a cut one."""
    takeoff = [e for e in catalogue() if e.game == "takeoff" and e.card != "ticket"]
    short, long = min(takeoff, key=lambda e: len(e.text)), max(takeoff, key=lambda e: len(e.text))
    heights = [Image.open(io.BytesIO(card_png(e) or b"")).height for e in (short, long)]
    assert heights[1] > heights[0]
