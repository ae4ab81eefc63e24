"""One card's face for `/card`, drawn with the game's own card renderer (where it has one)."""

from __future__ import annotations

from PIL import Image

from bot.render.common import BACKGROUND, canvas, to_png
from rules.catalogue import CardEntry

PAD = 12
SCALE = 2  # a single card is shown large enough to read on a phone
# A Takeoff! card as wide as in a player's hand, with room for its whole effect text.
TAKEOFF_W = 180
TAKEOFF_LINES = 12


def card_png(entry: CardEntry) -> bytes | None:
    """The card's picture as PNG bytes, or None when the game draws no card faces."""
    image = _takeoff(entry) if entry.game == "takeoff" else None
    if entry.game == "flight":
        image = _flight(entry)
    if image is None:
        return None
    return to_png(image.resize((image.width * SCALE, image.height * SCALE)))


def _takeoff(entry: CardEntry) -> Image.Image | None:
    """A Takeoff! card face (the captain's ticket has no card)."""
    from bot.render.takeoff import card_height, draw_card
    from rules.takeoff.view import card_view

    if entry.card == "ticket":
        return None
    card = card_view(entry.card)
    height = card_height(card, TAKEOFF_LINES, TAKEOFF_W)
    image, draw = canvas(TAKEOFF_W + 2 * PAD, height + 2 * PAD, BACKGROUND)
    draw_card(draw, card, PAD, PAD, TAKEOFF_LINES, TAKEOFF_W, chosen=False)
    return image


def _flight(entry: CardEntry) -> Image.Image:
    """A Flight card face as in a player's hand."""
    from bot.render.flight import HAND_CARD_H, HAND_CARD_W, hand_card
    from rules.flight.view import card_view

    image, draw = canvas(HAND_CARD_W + 2 * PAD, HAND_CARD_H + 2 * PAD, BACKGROUND)
    hand_card(draw, PAD, PAD, card_view(entry.card), playable=True, pending=False)
    return image
