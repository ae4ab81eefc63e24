"""One card's face for `/card`, drawn at the size Discord shows it (never enlarged).

Discord shows a picture this narrow at its own size, so every card is drawn 400 px wide (the
phone rule's width) with text of 15 px and more: sharp, and every word wrapped, never cut.
Takeoff! cards use the game's own card face (as in a hand, only wider); Flight and First in
Flight cards get a card face here: a band in the card's colour with its kind, then its name and
its whole text.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.i18n import ENGLISH, say, translate
from bot.render.common import (
    BACKGROUND,
    INK,
    canvas,
    font,
    pieces,
    speaking,
    spoken,
    text_width,
    tint,
    to_png,
)
from rules.catalogue import CardEntry

CARD_WIDTH = 400  # the whole picture; Discord shows it 1:1, a phone too
PAD = 12
FACE_W = CARD_WIDTH - 2 * PAD
INSET = 16  # text starts this far inside the face
KIND, NAME, BODY = 16, 22, 17  # font sizes: all ≥ 9 px tall as shown (the phone rule)
KIND_STEP, NAME_STEP, BODY_STEP = 21, 28, 23
TAKEOFF_LINES = 20  # more than any Takeoff! card needs: its whole text is always shown

# Card colours as the games draw them (Flight's route colours come from its card view).
FLIGHT_KINDS = {
    "aeroplane": "#2c4f8a",
    "fog": "#8a8f99",
    "alt": "#4aa3a1",
    "customs": "#9a5b2c",
    "passport": "#3b4a8c",
    "landing": "#1f8a4c",
}
FIF_KINDS = {
    "Pilot": "#3a6fd0",
    "Friend": "#e07aa0",
    "Technology": "#8e6cc9",
    "Skill": "#2a9d8f",
    "Flight card": "#5fb4e6",
    "Design Flaw": "#d8452f",
}
TICKET = "#b8860b"
FIF_FLIGHT = {"upgrade": "#ee8b2b", "experience": "#5cb85c", "basic_problem": "#8b1e1e"}


@dataclass(frozen=True)
class Face:
    """What a card face says, already wrapped to the face's width."""

    colour: str
    kind: tuple[str, ...]
    name: tuple[str, ...]
    body: tuple[tuple[str, bool], ...]  # (line, bold)

    @property
    def height(self) -> int:
        """The face's height in pixels."""
        band = 12 + KIND_STEP * len(self.kind)
        return band + 10 + NAME_STEP * len(self.name) + 8 + BODY_STEP * len(self.body) + 14


def card_png(entry: CardEntry, *, language: str = ENGLISH) -> bytes:
    """The card's picture as PNG bytes, its words in `language`."""
    return to_png(card_image(entry, language=language))


def card_image(entry: CardEntry, *, language: str = ENGLISH) -> Image.Image:
    """The card's picture, CARD_WIDTH wide, at the size it is shown."""
    with speaking(language):
        if entry.game == "takeoff" and entry.card != "ticket":
            return _takeoff(entry)
        return draw_face(face_of(entry))


def _takeoff(entry: CardEntry) -> Image.Image:
    """A Takeoff! card face as in a hand, drawn the picture's width."""
    from bot.render.takeoff import card_height, draw_card
    from rules.takeoff.view import card_view

    card = card_view(entry.card)
    height = card_height(card, TAKEOFF_LINES, FACE_W)
    image, draw = canvas(CARD_WIDTH, height + 2 * PAD, BACKGROUND)
    draw_card(draw, card, PAD, PAD, TAKEOFF_LINES, FACE_W, chosen=False)
    return image


def face_of(entry: CardEntry) -> Face:
    """A Flight, First in Flight or captain's ticket face: colour, kind, name, whole text."""
    room = FACE_W - 2 * INSET
    lang = spoken()
    text = entry.text
    body: list[tuple[str, bool]] = []
    if " Famous: " in text:  # a Pilot: each side in its own paragraph, the Famous side named
        normal, famous = (words(lang, side) for side in text.split(" Famous: ", 1))
        body = [(line, False) for line in wrap(normal, room, BODY)]
        famous_side = translate(lang, "Famous side")
        body += [(famous_side, True)] + [(line, False) for line in wrap(famous, room, BODY)]
    else:
        body = [(line, False) for line in wrap(words(lang, text), room, BODY)]
    return Face(
        colour=_colour(entry),
        kind=tuple(wrap(_kind(entry), room, KIND, bold=True)),
        name=tuple(wrap(words(lang, entry.name), room, NAME, bold=True)),
        body=tuple(body),
    )


def words(language: str, text: str) -> str:
    """A card's words in `language`: a `Said` part by part, a data file's string looked up."""
    if getattr(text, "parts", None) is not None:
        return str(say(language, text))
    return translate(language, text)


def _kind(entry: CardEntry) -> str:
    """The card's kind for its band, in the picture's language."""
    lang = spoken()
    kinds = {
        "Design Flaw": translate(lang, "Design Flaw"),
        "Flight card": translate(lang, "Flight card"),
        "Friend": translate(lang, "Friend"),
        "Pilot": translate(lang, "Pilot"),
        "Skill": translate(lang, "Skill"),
        "Technology": translate(lang, "Technology"),
        "Aeroplane": translate(lang, "Aeroplane"),
        "Alt": translate(lang, "Alt. Route"),
        "Customs": translate(lang, "Customs"),
        "Fog": translate(lang, "Fog"),
        "Landing": translate(lang, "Safe Landing"),
        "Passport": translate(lang, "Passport"),
        "Route": translate(lang, "Route"),
        "Business-Class card": translate(lang, "Business-Class card"),
        "Captain's ticket": translate(lang, "Captain's ticket"),
        "Event": translate(lang, "Event"),
        "Event (Business)": translate(lang, "Event (Business)"),
        "Event (Economy)": translate(lang, "Event (Economy)"),
        "Seat card": translate(lang, "Seat card"),
    }
    # English keeps the catalogue's own word ("Alt", "Landing"): its pictures stay as they were
    return entry.kind if lang == "en" else kinds.get(entry.kind, words(lang, entry.kind))


def _colour(entry: CardEntry) -> str:
    """The card's colour in its game's pictures."""
    if entry.game == "takeoff":  # the captain's ticket, the one Takeoff! card drawn here
        return TICKET
    if entry.game == "flight":
        from bot.render.common import MUTED
        from rules.flight.view import card_view

        view = card_view(entry.card)
        return view.colour or FLIGHT_KINDS.get(view.kind, MUTED)
    for prefix, colour in FIF_FLIGHT.items():
        if entry.card.startswith(prefix):
            return colour
    return FIF_KINDS.get(entry.kind, "#3a6fd0")


def wrap(text: str, width: int, size: int, *, bold: bool = False) -> list[str]:
    """`text` split at spaces into lines that fit `width`; a word is never cut (a word wider
    than the line, which no card has, gets a line of its own)."""
    lines: list[str] = []
    current = ""
    for word in [p for w in text.split() for p in pieces(w, width, size, bold=bold)]:
        trial = f"{current} {word}" if current else word
        if current and text_width(trial, size, bold=bold) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines


def draw_face(face: Face) -> Image.Image:
    """The face on the background: rounded card, coloured band with the kind, name, text."""
    image, draw = canvas(CARD_WIDTH, face.height + 2 * PAD, BACKGROUND)
    x0, y0, x1, y1 = PAD, PAD, PAD + FACE_W, PAD + face.height
    draw.rounded_rectangle((x0, y0, x1, y1), radius=14, fill="#fffdf7", outline=INK, width=2)
    band = y0 + 12 + KIND_STEP * len(face.kind)
    draw.rounded_rectangle(
        (x0 + 2, y0 + 2, x1 - 2, band), radius=12, fill=tint(face.colour, 0.55),
        corners=(True, True, False, False),
    )  # fmt: skip
    draw.rectangle((x0 + 2, y0 + 2, x0 + 10, band), fill=face.colour)  # the colour itself
    y = y0 + 8
    for line in face.kind:
        draw.text((x0 + INSET, y), line, font=font(KIND, bold=True), fill=INK)
        y += KIND_STEP
    y = band + 10
    for line in face.name:
        draw.text((x0 + INSET, y), line, font=font(NAME, bold=True), fill=INK)
        y += NAME_STEP
    y += 8
    for line, bold in face.body:
        draw.text((x0 + INSET, y), line, font=font(BODY, bold=bold), fill=INK)
        y += BODY_STEP
    return image
