"""First in Flight images: the public table (track, records, mats, Flight) and a seat's view."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageDraw

from bot.i18n import translate
from bot.render import alt, fif_phone
from bot.render import fif_track as phone
from bot.render.common import (
    BACKGROUND,
    INK,
    MUTED,
    PHONE_ASPECT,
    canvas,
    font,
    shrunk,
    spoken,
    text_width,
)
from bot.render.fif_board import (
    DEV_COLOURS,
    LINE,
    PANEL,
    BoardKey,
    board_key,
    dev_titles,
    seat_colour,
    seat_name,
    wrap,
)
from bot.render.fif_chart import Entry, view_entries
from bot.render.png import BAND_ROWS
from bot.render.retained import Layout
from bot.render.tiles import stamp
from rules.first_in_flight.labels import STEP_WORDS
from rules.first_in_flight.view import FlightView, GameView, PawnView, SeatView


def pawn_key() -> str:
    """What the pawns' numbers and slashes mean, in the picture's language."""
    return translate(
        spoken(), "Pawn numbers: turn order (1 acts next). Slashed: crashed, must Recover."
    )


def _status(view: GameView, names: Sequence[str]) -> str:
    """Who decides what now, or the game's end."""
    lang = spoken()
    if view.over:
        return translate(lang, "Game over")
    if view.deciding is None:
        return translate(lang, "Waiting")
    who = seat_name(names, view.deciding)
    step = STEP_WORDS.get(view.step)
    # the step's words are the rules' (first_in_flight.po): a lookup of their English
    doing = translate(lang, step) if step else view.step.replace("_", " ")
    line = f"{who}: {doing}"
    if view.pilot_offer:
        offered = ", ".join(translate(lang, name) for name in view.pilot_offer)
        line += " — " + translate(lang, "offered: {pilots}", pilots=offered)
    if view.end_trigger:
        line += " · " + translate(lang, "final Flights")
    return line


# ---------------------------------------------------------------- the whole table, in pages

PAGE_MAX_H = int(PHONE_ASPECT * phone.WIDTH)  # each page fits a phone screen (the phone rule)
PAGE_HEAD_H = 48  # the title of the pages after the first
Paint = Callable[[Image.Image, int], object]  # draws one block at y (what it returns is unused)
Block = tuple[int, Paint]  # (height, painter)


def render_table_pages(
    view: GameView, *, names: Sequence[str], odds_aid: bool = True
) -> list[Image.Image]:
    """The whole table for a phone, in pages (640 px wide, each at most 1.8 times as tall):
    the board with its key and the records, the face-up cards with their texts, every mat
    with its cards' texts, and Gustave."""
    pages = _table_layout(view, tuple(names), odds_aid)
    return [_table_page(view, names, page, i, len(pages)) for i, page in enumerate(pages)]


def table_page_count(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> int:
    """How many pages the whole table takes (laid out, not drawn)."""
    return len(_table_layout(view, tuple(names), odds_aid))


def render_table_page(
    view: GameView, *, names: Sequence[str], page: int = 0, odds_aid: bool = True
) -> Image.Image:
    """One page of the whole table (the last one when `page` is past the end)."""
    pages = _table_layout(view, tuple(names), odds_aid)
    index = min(max(page, 0), len(pages) - 1)
    return _table_page(view, names, pages[index], index, len(pages))


def _table_layout(view: GameView, names: tuple[str, ...], odds_aid: bool) -> list[list[Block]]:
    """The whole table's blocks packed into pages, in reading order."""
    pages: list[list[Block]] = [[]]
    used = phone.HEADER_H
    for block in _table_blocks(view, names, odds_aid):
        if pages[-1] and used + block[0] > PAGE_MAX_H:
            pages.append([])
            used = PAGE_HEAD_H
        pages[-1].append(block)
        used += block[0]
    return pages


def render_table(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """The whole table's pages one under the other (one picture, for a caller of one image)."""
    pages = render_table_pages(view, names=names, odds_aid=odds_aid)
    image, _ = canvas(phone.WIDTH, sum(p.height for p in pages), BACKGROUND)
    y = 0
    for page in pages:
        image.paste(page, (0, y))
        y += page.height
    return image


def _table_page(
    view: GameView, names: Sequence[str], blocks: list[Block], index: int, count: int
) -> Image.Image:
    """One page: the header (the first page) or a page title, then its blocks."""
    top = phone.HEADER_H if index == 0 else PAGE_HEAD_H
    image, draw = canvas(phone.WIDTH, top + sum(h for h, _ in blocks), BACKGROUND)
    lang = spoken()
    if index == 0:
        title = translate(lang, "Whole table")
        if count > 1:
            title = translate(lang, "Whole table (1 of {count})", count=count)
        _phone_header(image, view, title, names)
    else:
        line = translate(
            lang, "First in Flight — whole table ({number} of {count})", number=index + 1,
            count=count,
        )  # fmt: skip
        size = shrunk(line, phone.INNER, 20, bold=True, smallest=17)
        draw.text((phone.MARGIN, 12 + 20 - size), line, font=font(size, bold=True), fill=INK)
    y = top
    for height, paint in blocks:
        paint(image, y)
        y += height
    return image


def _table_blocks(view: GameView, names: tuple[str, ...], odds_aid: bool) -> list[Block]:
    """The whole table's parts in reading order, each with its height and its painter."""
    blocks: list[Block] = []
    if view.over:
        blocks.append(
            (
                fif_phone.standings_height(view) + 6,
                lambda im, y: fif_phone.draw_standings(ImageDraw.Draw(im), view, names, y),
            )
        )
    flight = view.flight
    if flight is not None:
        blocks.append(
            (
                fif_phone.flight_height(flight, names, odds_aid=odds_aid) + 4,
                lambda im, y: _flight(im, flight, names, y, odds_aid),
            )
        )
    key = board_key(view)
    track_h = phone.track_layout(key)[1]
    blocks.append((track_h + 10, lambda im, y: _paint_track(im, 0, y, key, view.pawns, view.over)))
    entries = tuple(view_entries(view))
    blocks.append(
        (
            phone.entries_height(entries, names),
            lambda im, y: _paint_records(im, 0, y, entries, names),
        )
    )
    legend = _table_legend(view)
    blocks.append((8 + 20 * len(legend), lambda im, y: _lines(im, y + 2, legend, MUTED)))
    blocks += [_display_block(view, i) for i in range(len(view.display))]
    piles = wrap(_piles(view), phone.INNER, phone.SMALL)
    blocks.append((10 + 20 * len(piles), lambda im, y: _lines(im, y + 2, piles, MUTED)))
    blocks += [_mat_block(view, seat, names) for seat in view.seats]
    if view.gustave_record is not None:
        lines = _gustave_lines(view)
        blocks.append((40 + 20 * len(lines) + 10, lambda im, y: _gustave(im, y, view, lines)))
    return blocks


def _mat_block(view: GameView, seat: SeatView, names: tuple[str, ...]) -> Block:
    """One player's mat with each card's text (the whole table is for learning the cards)."""
    acting = view.deciding == seat.seat and not view.over

    def paint(image: Image.Image, y: int) -> None:
        _mat(image, seat, names, y, acting, texts="full")

    return fif_phone.mat_height(seat, names, texts="full") + 10, paint


def _table_legend(view: GameView) -> list[str]:
    """The key to the track (unless it sits beside the track), the pawns and the data note."""
    lines = [] if phone.key_box(board_key(view)) is not None else phone.key_lines(phone.INNER)
    lines += wrap(pawn_key(), phone.INNER, phone.SMALL)
    if view.stand_in:
        lines.append(translate(spoken(), "Card data: unofficial stand-in set"))
    return lines


def _lines(image: Image.Image, y: int, lines: Sequence[str], fill: str = INK) -> None:
    """Plain lines of small text from `y`."""
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((phone.MARGIN, y + i * 20), line, font=font(phone.SMALL), fill=fill)


def _piles(view: GameView) -> str:
    """The shared piles in words."""
    glide, exp, basic = view.supply
    return translate(
        spoken(),
        "Upgrade deck {upgrades} · Design Flaws {flaws} (discard {discarded}) · Supply: Glide "
        "{glide}, Experience {experience}, Basic Flight Problem {basic}",
        upgrades=view.upgrade_deck_size, flaws=view.flaw_deck_size,
        discarded=len(view.flaw_discard), glide=glide, experience=exp, basic=basic,
    )  # fmt: skip


def _display_lines(view: GameView, kind: int) -> list[tuple[str, bool]]:
    """A display row as (line, is a card name): each face-up card, then its text."""
    texts = view.display_texts[kind] if kind < len(view.display_texts) else ()
    lang = spoken()
    out: list[tuple[str, bool]] = []
    for i, name in enumerate(view.display[kind]):
        out += [(w, True) for w in wrap(translate(lang, name), phone.INNER - 20, phone.SMALL)]
        if i < len(texts):
            said = translate(lang, texts[i])
            out += [(w, False) for w in wrap(said, phone.INNER - 20, phone.SMALL)]
    return out or [(translate(lang, "none face up"), False)]


def _display_block(view: GameView, kind: int) -> Block:
    """Face-up cards of one type: title with the deck size, each card's name and text."""
    lines = _display_lines(view, kind)
    title = translate(
        spoken(), "{cards} face up · deck {count}", cards=dev_titles()[kind],
        count=view.dev_deck_sizes[kind],
    )  # fmt: skip
    size = shrunk(title, phone.INNER - 14, 17, bold=True, smallest=phone.SMALL)

    def paint(image: Image.Image, y: int) -> None:
        draw = ImageDraw.Draw(image)
        draw.rectangle((phone.MARGIN, y + 4, phone.MARGIN + 6, y + 22), fill=DEV_COLOURS[kind])
        draw.text((phone.MARGIN + 14, y + 19 - size), title, font=font(size, bold=True), fill=INK)
        cy = y + 28
        for line, is_name in lines:
            cy += 2 if is_name else 0
            x = phone.MARGIN + (4 if is_name else 20)
            draw.text((x, cy), line, font=font(phone.SMALL, bold=is_name), fill=INK)
            cy += 20

    names = sum(1 for _, is_name in lines if is_name)
    return 28 + 20 * len(lines) + 2 * names + 10, paint


def _gustave_lines(view: GameView) -> list[str]:
    """Gustave's side and the display cards he removed, wrapped."""
    lang = spoken()
    taken = ", ".join(translate(lang, c) for c in view.gustave_cards) or translate(lang, "none")
    level = translate(lang, view.gustave_level)
    side = wrap(level, phone.INNER - 20, phone.SMALL) if view.gustave_level else []
    removed = translate(lang, "Cards removed from the display: {cards}", cards=taken)
    return side + wrap(removed, phone.INNER - 20, phone.SMALL)


def _gustave(image: Image.Image, y: int, view: GameView, lines: Sequence[str]) -> None:
    """Gustave's panel: his record, his side and the cards he removed."""
    draw = ImageDraw.Draw(image)
    height = 40 + 20 * len(lines)
    right = phone.MARGIN + phone.INNER
    draw.rounded_rectangle(
        (phone.MARGIN, y, right, y + height), radius=10, fill=PANEL, outline=LINE
    )
    phone.token(draw, phone.MARGIN + 8, y + 8, None, size=22)
    title = translate(spoken(), "Gustave (automa) · Record {record}", record=view.gustave_record)
    size = shrunk(title, phone.INNER - 40, 18, bold=True, smallest=phone.SMALL)
    draw.text((phone.MARGIN + 38, y + 27 - size), title, font=font(size, bold=True), fill=INK)
    for i, line in enumerate(lines):
        draw.text((phone.MARGIN + 10, y + 38 + i * 20), line, font=font(phone.SMALL), fill=MUTED)


def _status_colour(view: GameView) -> str:
    """The status bar's colour: the deciding seat's, grey otherwise."""
    return seat_colour(view.deciding) if view.deciding is not None and not view.over else MUTED


def _acting_seat(view: GameView) -> int:
    """The seat whose mat the turn picture shows: the flyer, the decider, else the first."""
    if view.flight is not None:
        return view.flight.seat
    return view.deciding if view.deciding is not None else 0


def _legend_lines(view: GameView) -> list[str]:
    """The key to the track's costs and pawns when it is shown (and the stand-in data note)."""
    lines = []
    if view.flight is None:
        if phone.key_box(board_key(view)) is None:  # not beside the track: under it
            lines += phone.key_lines(phone.INNER)
        lines += _pawn_key_lines(spoken())
    if view.stand_in:
        lines.append(translate(spoken(), "Card data: unofficial stand-in set"))
    return lines


@lru_cache(maxsize=8)
def _pawn_key_lines(language: str) -> tuple[str, ...]:
    """The pawns' key wrapped to the picture, in `language` (the one spoken: a key of the
    cache; every turn picture before a Flight shows it)."""
    return tuple(wrap(pawn_key(), phone.INNER, phone.SMALL))


def render_board(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """The turn picture for a phone: the Flight (while one is on) or the track, the records and
    the acting player's mat; at the end, the result. The whole table is `render_table`."""
    return _drawn(_planned(_board_plan, view, names, odds_aid))


def render_private(view: GameView, *, names: Sequence[str], odds_aid: bool = True) -> Image.Image:
    """One seat's view for a phone: its Flight (when flying), its mat and what only it sees."""
    return _drawn(_planned(_private_plan, view, names, odds_aid))


def _board_plan(view: GameView, names: tuple[str, ...], odds_aid: bool) -> Plan:
    """The turn picture's strips, top to bottom, and its height."""
    seat = view.seats[_acting_seat(view)] if view.seats else None
    legend = _legend_lines(view)
    entries = tuple(view_entries(view))
    key = board_key(view)
    parts: list[int] = [phone.HEADER_H]
    if view.over:
        parts.append(fif_phone.standings_height(view) + 6)
    if view.flight is None:
        parts.append(phone.track_layout(key)[1] + 10)
    records_h = phone.entries_height(entries, names)
    parts.append(records_h)
    fit, lean = _board_look(view, names, odds_aid, PAGE_MAX_H - sum(parts))
    mat_h = 0
    if seat is not None and not view.over:
        mat_h = fif_phone.mat_height(seat, names, lean=lean) + MAT_GAP
        parts.append(mat_h)
    if view.flight is not None:
        parts.append(fif_phone.flight_height(view.flight, names, odds_aid=odds_aid, fit=fit) + 4)
    # a full mat can crowd the legend out: the data note, then the pawn key (both also on the
    # Whole table) give way; the costs' key stays
    keep = 0 if view.flight is not None or phone.key_box(key) else len(phone.key_lines(phone.INNER))
    while len(legend) > keep and sum(parts) + 8 + 20 * len(legend) > PAGE_MAX_H:
        legend.pop()
    while legend and sum(parts) + 8 + 20 * len(legend) > PAGE_MAX_H:
        legend.pop()  # a longer key (another language) gives way too: the Whole table has it
    total = sum(parts) + 8 + 20 * len(legend)
    strips = [_header(view, translate(spoken(), "First in Flight"), names)]
    y = phone.HEADER_H
    if view.over:
        height = fif_phone.standings_height(view) + 6
        strips.append(_strip("standings", (view, names), y, y + height, _standings(view, names, y)))
        y += height
    if view.flight is not None:
        strips.append(_flight_strip(view.flight, names, y, odds_aid, fit))
        y = strips[-1].bottom
    else:
        strips.append(_track_strip(key, view.pawns, view.over, y))
        y = strips[-1].bottom
    strips.append(_records_strip(entries, names, y, records_h))
    y = strips[-1].bottom
    if seat is not None and not view.over:
        acting = view.deciding == seat.seat or view.flight is not None
        strips.append(_mat_strip(seat, names, y, acting, "", lean, mat_h))
        y = strips[-1].bottom
    strips.append(_strip("legend", tuple(legend), y, total, _legend(legend, y)))
    return Plan(("board", total, names, odds_aid), total, tuple(strips))


def _private_plan(view: GameView, names: tuple[str, ...], odds_aid: bool) -> Plan:
    """A seat's picture's strips, top to bottom, and its height."""
    me = view.viewer if view.viewer is not None else 0
    seat = view.seats[me]
    flight = view.flight if view.flight is not None and view.flight.seat == me else None
    sections = fif_phone.private_sections(view)
    private_h = fif_phone.sections_height(sections)
    rest = phone.HEADER_H + private_h + 8
    for texts, fit, lean in _private_looks(flight):  # the richest look that fits a phone
        flight_h = (
            fif_phone.flight_height(flight, names, odds_aid=odds_aid, fit=fit) + 4 if flight else 0
        )
        mat_h = fif_phone.mat_height(seat, names, texts=texts, lean=lean) + 10
        if rest + flight_h + mat_h <= PAGE_MAX_H:
            break
    height = phone.HEADER_H + flight_h + mat_h + private_h + 8
    strips = [_header(view, _private_title(seat_name(names, me)), names)]
    y = phone.HEADER_H
    if flight is not None:
        strips.append(_flight_strip(flight, names, y, odds_aid, fit))
        y = strips[-1].bottom
    strips.append(_mat_strip(seat, names, y, view.deciding == me, texts, lean, mat_h))
    y = strips[-1].bottom
    paint = _stamper((0, y), (phone.WIDTH, private_h), _paint_sections, sections)
    strips.append(_strip("private", sections, y, height, paint))
    return Plan(("private", height, names, odds_aid), height, tuple(strips))


def _private_title(name: str) -> str:
    """The private picture's title: the game and the player's name, or the name alone when
    both would not fit beside the Year tracker (the name tells a player the picture is theirs)."""
    title = translate(spoken(), "First in Flight — {player}", player=name)
    return title if text_width(title, 22, bold=True) <= phone.TITLE_W else name


# The parts of the phone pictures are cached tiles as wide as the picture (x is always 0): a
# move's board and the mover's private view share them, and most survive the next move.


def _phone_header(image: Image.Image, view: GameView, title: str, names: Sequence[str]) -> None:
    """Title, the Year tracker and the status bar, at the top of the picture."""
    _title_stamp(view.year, title)(image)
    _status_stamp(_status(view, names), _status_colour(view))(image)


def _title_stamp(year: int, title: str) -> StripPaint:
    """A painter of the header's title and Year tracker (a tile: they change once a Year)."""
    return _stamper((0, 0), (phone.WIDTH, phone.STATUS_TOP), _paint_title, year, title)


def _status_stamp(status: str, colour: str) -> StripPaint:
    """A painter of the header's status bar."""
    size = (phone.WIDTH, phone.HEADER_H - phone.STATUS_TOP)
    return _stamper((0, phone.STATUS_TOP), size, _paint_status, status, colour)


def _paint_title(image: Image.Image, x: int, y: int, year: int, title: str) -> None:
    """The header's title and Year tracker (at the top of a picture or of a tile)."""
    phone.title_bar(ImageDraw.Draw(image), year, title, y)


def _paint_status(image: Image.Image, x: int, y: int, status: str, colour: str) -> None:
    """The status bar (`y`: STATUS_TOP in a picture, 0 in a tile)."""
    phone.status_bar(ImageDraw.Draw(image), status, colour, y - phone.STATUS_TOP)


def _flight_fits(flight: FlightView) -> list[fif_phone.Fit]:
    """The Flight's looks, richest first: every card full size, shorter tiles, then fewer rows
    (the earliest cards folded into one tile; the Whole table shows them all)."""
    rows = fif_phone.full_rows(flight)
    folded = [fif_phone.Fit(compact=True, rows=r) for r in range(rows - 1, 0, -1)]
    return [fif_phone.FULL, fif_phone.Fit(compact=True), *folded]


def _board_look(
    view: GameView, names: Sequence[str], odds_aid: bool, room: int
) -> tuple[fif_phone.Fit, bool]:
    """The turn picture's richest look whose Flight and mat fit in `room` px: (how the Flight's
    cards are drawn, whether the mat gives its deck's make-up in words). A long Flight row
    gets shorter tiles first; then the mat turns lean and the row folds its earliest cards."""
    seat = view.seats[_acting_seat(view)] if view.seats and not view.over else None
    fits = _flight_fits(view.flight) if view.flight is not None else [fif_phone.FULL]
    looks = [(fits[0], False), *((fit, False) for fit in fits[1:2])]
    looks += [(fit, True) for fit in fits[1:] or fits]
    for fit, lean in looks:
        used = fif_phone.mat_height(seat, names, lean=lean) + 10 if seat is not None else 0
        if view.flight is not None:
            used += fif_phone.flight_height(view.flight, names, odds_aid=odds_aid, fit=fit) + 4
        if used <= room:
            return fit, lean
    return looks[-1]


Look = tuple[fif_phone.CardTexts, fif_phone.Fit, bool]  # card texts, Flight tiles, lean mat


def _private_looks(flight: FlightView | None) -> list[Look]:
    """The private picture's looks, richest first: each card's text in full, the Flight's
    shorter tiles, the texts run on, the deck's make-up in words, fewer Flight rows; last,
    the cards as name chips."""
    fits = _flight_fits(flight) if flight is not None else [fif_phone.FULL]
    shorter = fits[1:] or fits
    looks: list[Look] = [("full", fits[0], False), ("full", shorter[0], False)]
    looks += [("flow", shorter[0], False)]
    return [*looks, *(("flow", fit, True) for fit in shorter), ("", fits[-1], True)]


def _flight(
    image: Image.Image,
    flight: FlightView,
    names: tuple[str, ...],
    y: int,
    odds_aid: bool,
    fit: fif_phone.Fit = fif_phone.FULL,
) -> int:
    """The Flight panel at `y` (`fit`: how its cards are drawn); returns the y below it."""
    height = fif_phone.flight_height(flight, names, odds_aid=odds_aid, fit=fit)
    args = (flight, names, odds_aid, fit)
    stamp(image, (0, y), (phone.WIDTH, height), BACKGROUND, _paint_flight, *args)
    return y + height


def _paint_flight(
    image: Image.Image,
    x: int,
    y: int,
    flight: FlightView,
    names: tuple[str, ...],
    odds_aid: bool,
    fit: fif_phone.Fit,
) -> None:
    """The Flight panel: headline, card row, Problems, Distance, Descend and the odds."""
    fif_phone.draw_flight(ImageDraw.Draw(image), flight, names, y, odds_aid=odds_aid, fit=fit)


def _paint_track(
    image: Image.Image, x: int, y: int, key: BoardKey, pawns: tuple[PawnView, ...], over: bool
) -> None:
    """The Year's track with every pawn."""
    image.paste(phone.track_with_pawns(key, pawns, over), (x, y))


def _paint_records(
    image: Image.Image, x: int, y: int, entries: tuple[Entry, ...], names: tuple[str, ...]
) -> None:
    """The record track with every marker, then the records in words."""
    phone.draw_entries(ImageDraw.Draw(image), entries, names, y)


def _mat(
    image: Image.Image,
    seat: SeatView,
    names: tuple[str, ...],
    y: int,
    acting: bool,
    *,
    texts: fif_phone.CardTexts = "",
    lean: bool = False,
) -> int:
    """One player's mat across the picture at `y` (`texts`: how its cards' texts show; `lean`:
    its deck's make-up in words); returns the y below it."""
    height = fif_phone.mat_height(seat, names, texts=texts, lean=lean)
    args = (seat, names, acting, texts, lean)
    stamp(image, (0, y), (phone.WIDTH, height + 1), BACKGROUND, _paint_mat, *args)
    return y + height


def _paint_mat(
    image: Image.Image,
    x: int,
    y: int,
    seat: SeatView,
    names: tuple[str, ...],
    acting: bool,
    texts: fif_phone.CardTexts,
    lean: bool,
) -> None:
    """One player's mat: Pilot, coins, record, cards, Garage and the deck's make-up."""
    fif_phone.draw_mat(image, seat, names, y, acting=acting, texts=texts, lean=lean)


def _paint_sections(image: Image.Image, x: int, y: int, sections: fif_phone.Sections) -> None:
    """What only this seat sees: the known top of its deck and the cards it is looking at."""
    fif_phone.draw_sections(image, sections, y)


# --- repainting only what a move changed (bot/render/retained.py) -------------------------------

# A picture is a column of strips (header, Flight or track, records, mat, legend), each painting
# only its own rows over the background: a full draw paints them all on a blank canvas, a repaint
# paints the strips of the dirty parts on the background of their rows.

Part = tuple[object, int, int]  # what a part's pixels depend on, its rows [top, bottom)
StripPaint = Callable[
    [Image.Image], object
]  # paints a strip on a picture (what it returns: unused)


@dataclass(frozen=True)
class Strip:
    """Rows [top, bottom) of a picture: their parts and how a full draw paints them; `redo`
    repaints only the named parts (None: the whole strip, over the background)."""

    top: int
    bottom: int
    parts: dict[str, Part]
    paint: StripPaint
    redo: Callable[[Image.Image, Set[str]], object] | None = None


@dataclass(frozen=True)
class Plan:
    """A picture's frame, height and strips."""

    frame: Hashable
    height: int
    strips: tuple[Strip, ...]


def _drawn(plan: Plan) -> Image.Image:
    """The picture drawn in full: every strip on a blank canvas."""
    image, _ = canvas(phone.WIDTH, plan.height, BACKGROUND)
    for strip in plan.strips:
        strip.paint(image)
    return image


def _strip(name: str, key: object, top: int, bottom: int, paint: StripPaint) -> Strip:
    """A strip of one part, its key with its rows (a strip moved is a strip changed)."""
    return Strip(top, bottom, {name: ((top, bottom, key), top, bottom)}, paint)


def _stamper(
    xy: tuple[int, int], size: tuple[int, int], painter: Callable[..., None], *args: Hashable
) -> StripPaint:
    """A painter stamping a cached tile on the background (tiles.stamp)."""
    return lambda image: stamp(image, xy, size, BACKGROUND, painter, *args)


def _header(view: GameView, title: str, names: tuple[str, ...]) -> Strip:
    """The header strip: title and the Year tracker, then the status bar (a part each)."""
    status = (_status(view, names), _status_colour(view))
    parts: dict[str, Part] = {
        "title": ((view.year, title), 0, phone.STATUS_TOP),
        "status": (status, phone.STATUS_TOP, phone.HEADER_H),
    }
    title_paint, status_paint = _title_stamp(view.year, title), _status_stamp(*status)

    def paint(image: Image.Image) -> None:
        title_paint(image)
        status_paint(image)

    def redo(image: Image.Image, dirty: Set[str]) -> None:
        """The dirty ones of the two, each on its rows' background (a tile not cached is
        drawn on a crop of what lies beneath)."""
        for name, painter in (("title", title_paint), ("status", status_paint)):
            if name in dirty:
                _, top, bottom = parts[name]
                _clear(image, top, bottom)
                painter(image)

    return Strip(0, phone.HEADER_H, parts, paint, redo)


def _standings(view: GameView, names: tuple[str, ...], y: int) -> StripPaint:
    """A painter of the result panel at `y`."""
    return lambda image: fif_phone.draw_standings(ImageDraw.Draw(image), view, names, y)


def _flight_strip(
    flight: FlightView, names: tuple[str, ...], y: int, odds_aid: bool, fit: fif_phone.Fit
) -> Strip:
    """The Flight panel's strip at `y` and the gap below it."""
    height = fif_phone.flight_height(flight, names, odds_aid=odds_aid, fit=fit)
    args = (flight, names, odds_aid, fit)
    paint = _stamper((0, y), (phone.WIDTH, height), _paint_flight, *args)
    return _strip("flight", args, y, y + height + 4, paint)


def _records_strip(
    entries: tuple[Entry, ...], names: tuple[str, ...], y: int, height: int
) -> Strip:
    """The records' strip at `y`, `height` rows."""
    paint = _stamper((0, y), (phone.WIDTH, height), _paint_records, entries, names)
    return _strip("records", (entries, names), y, y + height, paint)


MAT_GAP = 10  # rows under a mat, its strip's


def _mat_strip(
    seat: SeatView,
    names: tuple[str, ...],
    y: int,
    acting: bool,
    texts: fif_phone.CardTexts,
    lean: bool,
    height: int,
) -> Strip:
    """A mat's strip at `y`, `height` rows with the gap below it (the mat's tile reaches a row
    past the mat: its outline's last), cut in stripes on the picture's bands: a coin more
    repaints the stats line's band, not the whole mat."""
    args = (seat, names, acting, texts, lean)
    size = (phone.WIDTH, height - MAT_GAP + 1)
    paint = _stamper((0, y), size, _paint_mat, *args)
    items = fif_phone.mat_items(seat, names, y, texts=texts, lean=lean)
    spans = [(key, top, end) for (key, top), (_, end) in pairwise(items)]
    spans.append((items[-1][0], items[-1][1], y + height))
    # the outline (its colour and width) runs down every row, its corners at the top and bottom
    edge = (seat.seat, acting, y, height)
    parts: dict[str, Part] = {}
    top = y
    while top < y + height:
        end = min(y + height, (top // BAND_ROWS + 1) * BAND_ROWS)
        inside = tuple((key, a, b) for key, a, b in spans if a < end and top < b)
        parts[f"mat {len(parts)}"] = ((edge, top, end, inside), top, end)
        top = end
    return Strip(y, y + height, parts, paint)


def _legend(lines: Sequence[str], y: int) -> StripPaint:
    """A painter of the legend's lines from `y`."""

    def paint(image: Image.Image) -> None:
        draw = ImageDraw.Draw(image)
        for i, line in enumerate(lines):
            draw.text((phone.MARGIN, y + 2 + 20 * i), line, font=font(phone.SMALL), fill=MUTED)

    return paint


TRACK_GAP = 10  # rows under the track, the last track row's


def _track_strip(key: BoardKey, pawns: tuple[PawnView, ...], over: bool, y: int) -> Strip:
    """The track's strip at `y`: a part per row of spaces, each keyed by the pawns in it (the
    key beside the last row is the board side's)."""
    height = phone.track_layout(key)[1]
    spans = phone.track_rows(key)
    parts: dict[str, Part] = {}
    rows = zip(spans, phone.row_pawns(key, pawns), strict=True)
    for i, ((top, bottom), inside) in enumerate(rows):
        end = bottom + (TRACK_GAP if i == len(spans) - 1 else 0)
        parts[f"track {i}"] = ((top, end, key, over, inside), y + top, y + end)
    paint = _stamper((0, y), (phone.WIDTH, height), _paint_track, key, pawns, over)

    def redo(image: Image.Image, dirty: Set[str]) -> None:
        """The dirty rows of spaces: the track's background there, then their pawns."""
        for i, (top, bottom) in enumerate(spans):
            if f"track {i}" in dirty:
                piece = phone.track_piece(key, pawns, over, (top, bottom))
                image.paste(piece, (0, y + top))
        _clear(image, y + height, y + height + TRACK_GAP)  # the last row's gap: background

    return Strip(y, y + height + TRACK_GAP, parts, paint, redo)


Planner = Callable[[GameView, tuple[str, ...], bool], Plan]


@dataclass(frozen=True)
class _Made:
    """The last plan this thread made, and what it was made of."""

    which: Planner
    view: GameView
    names: tuple[str, ...]
    odds_aid: bool
    language: str
    plan: Plan


_LAST = threading.local()


def _planned(which: Planner, view: GameView, names: Sequence[str], odds_aid: bool) -> Plan:
    """`which(view, names, odds_aid)`, made once for a layout and the drawing or repaint after
    it: the very same view object (views are frozen, and the one held here keeps its id from
    another's) with equal names in the same language has the same plan."""
    shown, language = tuple(names), spoken()
    last: _Made | None = getattr(_LAST, "made", None)
    if (
        last is None
        or last.which is not which
        or last.view is not view
        or (last.names, last.odds_aid, last.language) != (shown, odds_aid, language)
    ):
        last = _LAST.made = _Made(
            which, view, shown, odds_aid, language, which(view, shown, odds_aid)
        )
    return last.plan


def _clear(image: Image.Image, top: int, bottom: int) -> None:
    """Rows [top, bottom) of the picture back to the background."""
    ImageDraw.Draw(image).rectangle((0, top, image.width - 1, bottom - 1), fill=BACKGROUND)


def _layout(plan: Plan) -> Layout:
    """The retained layout of a plan: its frame and every strip's parts."""
    parts = {name: part for strip in plan.strips for name, part in strip.parts.items()}
    return Layout(plan.frame, parts, plan.height)


def _repaint(image: Image.Image, plan: Plan, parts: Set[str]) -> None:
    """Paint the strips of `parts` as a full draw would: each on its rows' background (a tile
    missing from the cache is drawn on a crop of what lies beneath)."""
    for strip in plan.strips:
        dirty = parts & strip.parts.keys()
        if not dirty:
            continue
        if strip.redo is not None:
            strip.redo(image, dirty)
            continue
        _clear(image, strip.top, strip.bottom)
        strip.paint(image)


class StripParts:
    """A picture in parts, as its planner lays it out in strips: each dirty strip is repainted
    on its own rows."""

    def __init__(self, planner: Planner) -> None:
        self.planner = planner

    def layout(self, view: GameView, *, names: Sequence[str]) -> Layout:
        """Where each part lies and what it depends on."""
        return _layout(_planned(self.planner, view, names, True))

    def repaint(
        self, image: Image.Image, view: GameView, *, names: Sequence[str], parts: Set[str]
    ) -> None:
        """Paint `parts` as a full draw would."""
        _repaint(image, _planned(self.planner, view, names, True), parts)


def board_parts() -> StripParts:
    """The turn picture in parts: header, each row of the track, records, mat, legend."""
    return StripParts(_board_plan)


def private_parts() -> StripParts:
    """A seat's picture in parts: header, its Flight, its mat, what only it sees."""
    return StripParts(_private_plan)


def alt_text(view: GameView, *, names: Sequence[str], last: str = "") -> str:
    """The picture in words (≤ 1,024 characters), for screen readers and images turned off."""
    return alt.first_in_flight(view, names, last)
