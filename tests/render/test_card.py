"""/card pictures: every card of every game is drawn at the size it is shown, sharp, with its
whole text wrapped at words (never cut, never enlarged)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PIL import Image, ImageDraw

from bot.render.card import CARD_WIDTH, card_image, card_png
from rules.catalogue import CardEntry, catalogue


@contextmanager
def drawn_texts() -> Iterator[list[str]]:
    """Every string drawn with ImageDraw.text inside the block."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(
        self: ImageDraw.ImageDraw, xy: object, text: object, *args: object, **kw: object
    ) -> None:
        texts.append(str(text))
        original(self, xy, text, *args, **kw)  # type: ignore[arg-type]

    ImageDraw.ImageDraw.text = record  # type: ignore[method-assign,assignment]
    try:
        yield texts
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def uncut(entry: CardEntry, texts: list[str]) -> None:
    """No drawn line ends in an ellipsis and every word of the name and text is drawn."""
    assert not any("…" in t for t in texts), [t for t in texts if "…" in t]
    drawn = " ".join(texts).split()
    for word in f"{entry.name} {entry.text}".replace(" Famous: ", " ").split():
        assert word in drawn, f"{entry.key}: '{word}' missing from {texts}"


@pytest.mark.parametrize("entry", catalogue(), ids=lambda e: e.key)
def test_every_card_is_drawn_whole_at_its_shown_size(entry: CardEntry) -> None:
    """Each card of each game (First in Flight's too) is a picture CARD_WIDTH wide, exactly the
    drawing (no enlargement), with every word of its name and text."""
    with drawn_texts() as texts:
        image = card_image(entry)
    uncut(entry, texts)
    png = card_png(entry)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.format == "PNG" and len(png) < 1024 * 1024
    assert decoded.size == image.size and image.width == CARD_WIDTH


def test_the_cut_caption_of_the_issue_is_whole() -> None:
    """Takeoff!'s economy events read 'EVENT · ECONOMY', not 'EVENT · ECONOM…'."""
    entry = next(e for e in catalogue() if e.card == "long_wait")
    with drawn_texts() as texts:
        card_image(entry)
    assert "EVENT · ECONOMY" in texts


def test_a_long_text_makes_a_taller_card() -> None:
    """The whole text is shown: a longer text gives a taller card, not a cut one."""
    for game in ("takeoff", "first-in-flight"):
        cards = [e for e in catalogue() if e.game == game]
        short = min(cards, key=lambda e: len(e.text))
        long = max(cards, key=lambda e: len(e.text))
        assert card_image(long).height > card_image(short).height
