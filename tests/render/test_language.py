"""Pictures in the reader's language (issue 30, point 4): every word drawn comes from the
catalogue, longer words wrap or shrink and never leave their picture or run into each other, and
two languages never share a cached picture.

The checks watch every text a picture draws (ImageDraw.text, with the tile cache off so each
text lands on the picture itself): its ink box must lie inside the image, must not overlap
another text's box, and a text cut with "…" must end in a whole word.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw

from bot.i18n import LOCALES, catalogue, pseudo, translate
from bot.render import (
    alt_text,
    flight,
    private_png,
    public_png,
    renderer_for,
    replay,
    retained,
    table_page_count,
    table_png,
)
from bot.render.card import card_image, card_png
from bot.render.charts import scores_chart, skill_png
from bot.render.common import (
    PHONE_ASPECT,
    PHONE_GLYPH_PX,
    PHONE_WIDTH,
    glyph_height,
    speaking,
    trace_fonts,
)
from bot.render.pool import RenderPool
from bot.render.samples import after_moves, final, play_until
from bot.render.tiles import CACHE, drawn_in_place
from rules import GAMES
from rules.catalogue import catalogue as cards

NAMES = ["Alice", "Bob", "Carol", "Dee"]
LANGUAGES = ("de", "pseudo")


@dataclass(frozen=True)
class Drawn:
    """One text drawn: the words, their ink box and the size of the image they went on."""

    text: str
    box: tuple[int, int, int, int]
    image: tuple[int, int]
    canvas: int  # which image (texts on different images never overlap)


@contextmanager
def texts_drawn() -> Iterator[list[Drawn]]:
    """Every text drawn inside the block, with its box (tile cache off: drawn in place)."""
    seen: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        words = str(text)
        if words.strip():
            options = {k: v for k, v in kwargs.items() if k in ("font", "anchor", "stroke_width")}
            box = self.textbbox(xy, words, **options)
            size = self.im.size
            seen.append(Drawn(words, tuple(round(v) for v in box), size, id(self.im)))  # type: ignore[arg-type]
        original(self, xy, text, *args, **kwargs)

    _clear_caches()
    with patch.object(ImageDraw.ImageDraw, "text", spy), drawn_in_place():
        yield seen
    _clear_caches()


def _clear_caches() -> None:
    """Backgrounds drawn once per language are drawn again, so their texts are seen."""
    from bot.render import fif_track

    fif_track._background.cache_clear()
    flight._empty_table.cache_clear()
    retained.forget()
    CACHE.clear()


@pytest.fixture(scope="module")
def known_words() -> dict[str, set[str]]:
    """Every whole word a picture may end on before a "…" (see `whole_words`)."""
    return whole_words()


def whole_words() -> dict[str, set[str]]:
    """Every whole word a picture may end on before a "…", per language: the catalogue's words
    (English msgids, their translations and pseudo forms) and the players' names."""
    words: dict[str, set[str]] = {}
    english: set[str] = set()
    for template in LOCALES.glob("*.pot"):
        with template.open("rb") as handle:
            for message in read_po(handle):
                ids = [str(i) for i in _strings(message.id)]  # a plural's forms too
                english.update(w for i in ids for w in _words(i))
                english.update(w for i in ids for w in _words(pseudo(i)))
    for data in (LOCALES.parent / "assets" / "cards").glob("*.json"):  # card names, towns
        english.update(w for text in _strings(json.loads(data.read_text())) for w in _words(text))
    for language in ("en", *LANGUAGES):
        found = set(english) | {w for name in NAMES for w in _words(name)}
        if language == "de":
            book = catalogue("de")
            found |= {w for text in book.singles.values() for w in _words(text)}
            found |= {w for forms in book.plurals.values() for t in forms for w in _words(t)}
        words[language] = found
    return words


def _words(text: str) -> list[str]:
    """The words of a text as a picture cuts them (split at spaces, brackets and parentheses
    left off: a pseudo word nested in another keeps a bracket of each)."""
    return [w.strip("[]()") for w in re.split(r"\s+", text) if w.strip("[]()")]


def _strings(data: Any) -> Iterator[str]:
    """Every string in a data file."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from _strings(value)


# --- the pictures ---------------------------------------------------------------------------


def _fif_flying(state: Any) -> bool:
    """A Flight with a few cards in its row."""
    return state.flight is not None and len(state.flight.row) >= 4


def _takeoff_pending(state: Any) -> bool:
    """A card is being placed (the private picture frames its seats)."""
    return state.pending is not None and not state.over


MOMENTS: dict[str, list[tuple[str, Callable[[], Any]]]] = {
    "takeoff": [
        ("placing", lambda: play_until("takeoff", 2, 5, _takeoff_pending)),
        ("middle", lambda: after_moves("takeoff", 2, 40)),
        ("final", lambda: final("takeoff", 2)),
    ],
    "flight": [
        ("middle", lambda: after_moves("flight", 4, 60, seed=2)),
        ("final", lambda: final("flight", 4)),
    ],
    "first-in-flight": [
        ("start", lambda: after_moves("first-in-flight", 4, 10)),
        ("flying", lambda: play_until("first-in-flight", 4, 3, _fif_flying)),
        ("late", lambda: after_moves("first-in-flight", 4, 400)),
        ("final", lambda: final("first-in-flight", 4)),
    ],
}
CASES = [(g, m, make) for g, moments in MOMENTS.items() for m, make in moments]
IDS = [f"{g}-{m}" for g, m, _ in CASES]


def pictures(game_id: str, state: Any, language: str) -> Iterator[tuple[str, Image.Image]]:
    """Every picture of a state the bot posts, drawn in `language`: the board, each seat's
    view, each page of the whole table and the replay frame."""
    game = GAMES[game_id]
    renderer = renderer_for(game_id)
    assert renderer is not None
    names = NAMES[: getattr(state, "players", 2)]
    public = game.view(state, None)
    with speaking(language):
        yield "board", renderer.board(public, names=names)
        if renderer.table_page is not None and renderer.table_pages is not None:
            for page in range(renderer.table_pages(public, names=names)):
                yield f"table page {page + 1}", renderer.table_page(public, names=names, page=page)
        for seat in range(len(names)):
            yield f"seat {seat}", renderer.private(game.view(state, seat), names=names)
    yield "replay frame", replay.frames(game_id, [public], names, language=language)[0]


def assert_laid_out(label: str, seen: list[Drawn], known: set[str]) -> None:
    """Every text inside its image, no two texts on top of each other, no word cut."""
    assert seen, f"{label}: no text drawn"
    for drawn in seen:
        x0, y0, x1, y1 = drawn.box
        width, height = drawn.image
        assert x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height, (
            f"{label}: {drawn.text!r} at {drawn.box} leaves its {drawn.image} picture"
        )
        if drawn.text.endswith("…") and not drawn.text.endswith(" …"):
            last = (_words(drawn.text[:-1])[-1:] or [""])[0].strip("[]()")
            whole = last in known or last.rstrip(".,:;·—|(") in known
            # a number ("(50%)") or a compound cut at its hyphen is a whole word too
            whole = whole or any(c.isdigit() for c in last) or last.endswith("-")
            assert whole, f"{label}: {drawn.text!r} is cut in the middle of a word"
    by_canvas: dict[int, list[Drawn]] = {}
    for drawn in seen:
        by_canvas.setdefault(drawn.canvas, []).append(drawn)
    for texts in by_canvas.values():
        for i, first in enumerate(texts):
            for second in texts[i + 1 :]:
                assert not _overlap(first.box, second.box), (
                    f"{label}: {first.text!r} {first.box} overlaps {second.text!r} {second.box}"
                )


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """True when two boxes share more than a pixel's edge (anti-aliasing may touch)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def assert_phone_sized(label: str, image: Image.Image, sizes: set[tuple[int, bool]]) -> None:
    """The phone rule (tests/render/test_phone.py): text ≥ 9 px tall at 400 px wide, and the
    picture at most 1.8 times as tall as wide."""
    scale = PHONE_WIDTH / image.width
    smallest = min(glyph_height(size, bold=bold) for size, bold in sizes) * scale
    assert smallest >= PHONE_GLYPH_PX, f"{label}: text {smallest:.1f} px tall at 400 px"
    assert image.height <= PHONE_ASPECT * image.width, f"{label}: {image.size} too tall"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game_id", "moment", "make"), CASES, ids=IDS)
def test_every_picture_fits_in_a_longer_language(
    game_id: str, moment: str, make: Callable[[], Any], language: str, known_words: Any
) -> None:
    """German and the pseudo-locale (40 % longer): no text leaves its picture, none overlaps
    another, no word is cut, and the phone rule holds."""
    state = make()
    drawing = pictures(game_id, state, language)
    while True:
        with texts_drawn() as seen, trace_fonts() as sizes:
            found = next(drawing, None)
        if found is None:
            break
        label, image = found
        if label != "replay frame":  # a frame is the board shrunk: its texts are the board's
            assert_laid_out(f"{game_id} {moment} {label} ({language})", seen, known_words[language])
            assert_phone_sized(f"{game_id} {moment} {label} ({language})", image, sizes)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_face_fits(language: str, known_words: Any) -> None:
    """Every /card face in the longer languages: inside the picture, no overlap, no cut word,
    and every text at least 9 px tall on a phone (the face is as tall as its text needs)."""
    for entry in cards():
        with texts_drawn() as seen, trace_fonts() as sizes:
            image = card_image(entry, language=language)
        label = f"card {entry.game}/{entry.card} ({language})"
        assert_laid_out(label, seen, known_words[language])
        assert_font_sizes(label, image, sizes)  # a long card may be taller than a screen


def assert_font_sizes(label: str, image: Image.Image, sizes: set[tuple[int, bool]]) -> None:
    """Only the text-size half of the phone rule (a long card may be taller than a screen)."""
    scale = PHONE_WIDTH / image.width
    smallest = min(glyph_height(size, bold=bold) for size, bold in sizes) * scale
    assert smallest >= PHONE_GLYPH_PX, f"{label}: text {smallest:.1f} px tall at 400 px"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_charts_fit(language: str, known_words: Any) -> None:
    """The end chart and the /stats chart in a longer language stay inside their picture."""
    with speaking(language) as lang:
        title = translate(lang, "Skill estimate after each game")
        with texts_drawn() as seen:
            chart = scores_chart(
                title, [f"{translate(lang, 'Year')} {n}" for n in range(1, 5)],
                [[3, 5], [8, 9], [12, 20], [30, 31]], NAMES[:2], y_title=title,
            )  # fmt: skip
        assert_laid_out(f"end chart ({language})", seen, known_words[language])
        assert chart.width == 600
    with texts_drawn() as seen:
        skill_png([("Takeoff!", [20.0, 22.0, 25.0]), ("Flight", [18.0, 19.0])], language=language)
    assert_laid_out(f"skill chart ({language})", seen, known_words[language])


# --- the words are the reader's -----------------------------------------------------------------


def _texts(draw: Callable[[], object]) -> list[str]:
    """The texts a drawing draws."""
    with texts_drawn() as seen:
        draw()
    return [d.text for d in seen]


def test_the_german_board_says_german_words() -> None:
    """A German board draws German words (from pictures.po), not the English ones."""
    state = after_moves("takeoff", 2, 40)
    view = GAMES["takeoff"].view(state, None)
    english = " ".join(_texts(lambda: public_png("takeoff", view, NAMES[:2])))
    german = " ".join(_texts(lambda: public_png("takeoff", view, NAMES[:2], language="de")))
    assert "points" in english and "Punkte" not in english
    assert "Punkte" in german and "points" not in german
    assert translate("de", "Black frame: a single row of one colour (protected)") != (
        "Black frame: a single row of one colour (protected)"
    )


@pytest.mark.parametrize("game_id", ["takeoff", "flight", "first-in-flight"])
def test_each_game_draws_a_different_picture_in_german(game_id: str) -> None:
    """The same view in German is another picture than in English, for the board and a seat's
    view alike; the English one is the picture drawn without a language (today's)."""
    state = MOMENTS[game_id][0][1]()
    game = GAMES[game_id]
    names = NAMES[: getattr(state, "players", 2)]
    public, mine = game.view(state, None), game.view(state, 0)
    assert public_png(game_id, public, names) == public_png(game_id, public, names, language="en")
    assert public_png(game_id, public, names) != public_png(game_id, public, names, language="de")
    assert private_png(game_id, mine, names) != private_png(game_id, mine, names, language="de")


def test_the_whole_table_and_its_pages_are_german() -> None:
    """The First in Flight whole table: every page in German, with the German title."""
    state = after_moves("first-in-flight", 4, 10)
    view = GAMES["first-in-flight"].view(state, None)
    count = table_page_count("first-in-flight", view, NAMES, language="de")
    texts = _texts(lambda: table_png("first-in-flight", view, NAMES, 0, language="de"))
    title = (
        translate("de", "Whole table (1 of {count})", count=count)
        if count > 1
        else (translate("de", "Whole table"))
    )
    assert title != "Whole table" and title in texts


def test_a_card_face_is_in_the_reader_language() -> None:
    """/card in German: its band names the kind in German ("Nebel" for a Fog card)."""
    ticket = next(e for e in cards() if e.game == "flight" and e.kind == "Fog")
    assert card_png(ticket, language="de") != card_png(ticket)
    texts = _texts(lambda: card_image(ticket, language="de"))
    assert translate("de", "Fog") in texts and "Fog" not in texts


def test_alt_text_follows_the_language() -> None:
    """The words a screen reader reads are in the picture's language too."""
    state = after_moves("flight", 4, 60, seed=2)
    view = GAMES["flight"].view(state, None)
    english = alt_text("flight", view, NAMES)
    german = alt_text("flight", view, NAMES, language="de")
    assert english.startswith("Flight table, hand")
    assert german.startswith(translate("de", "Flight table, hand {number}.", number=0)[:10])
    assert german != english


# --- caches ---------------------------------------------------------------------------------


def test_two_languages_never_share_a_cached_picture() -> None:
    """The render pool keys a picture by its language: German after English is drawn anew, and
    asking English again gives the English bytes from the cache."""
    state = after_moves("takeoff", 2, 40)
    view = GAMES["takeoff"].view(state, None)

    async def run() -> tuple[bytes, bytes, bytes]:
        pool = RenderPool(0)  # the thread: same cache, no processes
        try:
            english = await pool.render(public_png, "takeoff", view, NAMES[:2], language="en")
            german = await pool.render(public_png, "takeoff", view, NAMES[:2], language="de")
            again = await pool.render(public_png, "takeoff", view, NAMES[:2], language="en")
            return english, german, again
        finally:
            pool.close()

    english, german, again = asyncio.run(run())
    assert english != german
    assert again == english
    assert german == public_png("takeoff", view, NAMES[:2], language="de")


def test_kept_pictures_and_tiles_are_kept_per_language() -> None:
    """A board repainted on a kept picture (retained.py) or from cached tiles in one language
    never shows the other language's words: each language's picture equals its full drawing."""
    game = GAMES["takeoff"]
    early, late = after_moves("takeoff", 2, 39), after_moves("takeoff", 2, 40)
    _clear_caches()
    public_png("takeoff", game.view(early, None), NAMES[:2])  # English kept, tiles cached
    german = public_png("takeoff", game.view(late, None), NAMES[:2], language="de")
    _clear_caches()
    with drawn_in_place():
        fresh = public_png("takeoff", game.view(late, None), NAMES[:2], language="de")
    assert german == fresh


def test_pictures_po_is_complete() -> None:
    """Every word the pictures draw has a German, French and Spanish translation."""
    for language in ("de", "fr", "es"):
        with Path(LOCALES / language / "LC_MESSAGES" / "pictures.po").open("rb") as handle:
            missing = [m.id for m in read_po(handle) if m.id and (not m.string or m.fuzzy)]
        assert not missing, f"{language}: {missing[:5]}"
