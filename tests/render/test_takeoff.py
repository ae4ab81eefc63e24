"""Takeoff! renderer: the airplane board and the private hand image."""

from __future__ import annotations

from PIL import ImageColor

from bot.render import takeoff as render
from bot.render.common import HIGHLIGHT, SEAT_COLOURS, to_png
from rules.takeoff import GAME, TakeoffState, TakeoffView
from tests.rules.takeoff.helpers import BL, Y, fill_row, play, rig

NAMES = ("Alice", "Bob")
MIB = 1024 * 1024


def _mid() -> TakeoffState:
    """A game in progress: stones, a protected row, a move just made, a half-built play."""
    stones = {**fill_row(2, Y, "ABC"), "5D": BL, "7A": Y, "9F": BL}
    state = rig(stones=stones, hands=(("window", "aisle", "drunk"), ("middle",)), pass_number=2)
    state, _ = play(state, Y, "play:window", "seat:6F", "play:aisle")
    return state


def _final() -> TakeoffState:
    """A finished game."""
    state = rig(stones={**fill_row(1, Y), **fill_row(8, BL, "DEF")}, over=True, end_reason="done")
    return state


def _view(state: TakeoffState, viewer: int | None) -> TakeoffView:
    """The engine's view, typed."""
    view = GAME.view(state, viewer)
    assert isinstance(view, TakeoffView)
    return view


def _pixel(image_bytes_state: TakeoffState, label: str, dx: int, dy: int) -> tuple[int, ...]:
    """Colour of the public image at an offset inside a seat square."""
    image = render.render_board(_view(image_bytes_state, None), names=NAMES)
    x, y = render._seat_xy(int(label[:-1]), label[-1])
    pixel = image.getpixel((x + dx, render.HEADER_H + y + dy))
    assert isinstance(pixel, tuple)
    return pixel


def test_initial_mid_and_final_boards_render_within_budget() -> None:
    """Each stage renders to a PNG well under 1 MiB at the phone width."""
    for state in (GAME.new_game(3, 2, None), _mid(), _final()):
        for image in (
            render.render_board(_view(state, None), names=NAMES),
            render.render_private(_view(state, 0), names=NAMES),
        ):
            assert image.width == render.WIDTH
            assert len(to_png(image)) < MIB


def test_same_input_gives_same_bytes() -> None:
    """Rendering is pure: equal views give byte-identical PNGs."""
    view = _view(_mid(), None)
    first = to_png(render.render_board(view, names=NAMES))
    assert to_png(render.render_board(view, names=NAMES)) == first
    private = _view(_mid(), Y)
    assert to_png(render.render_private(private, names=NAMES)) == to_png(
        render.render_private(private, names=NAMES)
    )


def test_stones_show_their_owners_colour_and_the_last_move_is_ringed() -> None:
    """Players see their stones in their colours and the seat just taken highlighted."""
    state = _mid()
    assert _pixel(state, "7A", 9, 21) == ImageColor.getrgb(SEAT_COLOURS[Y])
    assert _pixel(state, "9F", 9, 21) == ImageColor.getrgb(SEAT_COLOURS[BL])
    assert _pixel(state, "6F", -1, 21) == ImageColor.getrgb(HIGHLIGHT)
    assert _pixel(state, "7A", -1, 21) != ImageColor.getrgb(HIGHLIGHT)


def test_hidden_cards_change_only_the_private_image() -> None:
    """Swapping hidden hand cards leaves the public board identical but changes the hand image."""
    one = rig(hands=(("window", "drunk"), ("aisle",)))
    other = rig(hands=(("middle", "pinch"), ("aisle",)))
    public = [to_png(render.render_board(_view(s, None), names=NAMES)) for s in (one, other)]
    assert public[0] == public[1]
    private = [to_png(render.render_private(_view(s, Y), names=NAMES)) for s in (one, other)]
    assert private[0] != private[1]


def test_pinch_shows_the_opponents_hand_in_the_private_image() -> None:
    """During Pinch the pincher's image adds the opponent's cards; the opponent sees no change."""
    state = rig(hands=(("pinch", "window"), ("aisle", "stretcher")))
    state, _ = play(state, Y, "play:pinch")
    view = _view(state, Y)
    assert [c.id for c in view.shown_hand] == ["aisle", "stretcher"]
    during = to_png(render.render_private(view, names=NAMES))
    unseen = view.model_copy(update={"shown_hand": ()})
    assert during != to_png(render.render_private(unseen, names=NAMES))
    assert not _view(state, BL).shown_hand


def test_the_private_picture_frames_exactly_the_seats_the_card_can_take() -> None:
    """While a seat card is being placed, its player's view lists (and the picture frames) the
    seats the engine offers; the opponent's view lists none and their picture has no frames."""
    state = rig(hands=(("window", "aisle"), ("middle",)))
    state, _ = play(state, Y, "play:window")
    offered = {
        a.key.removeprefix("seat:")
        for a in GAME.legal_actions(state, Y)
        if a.key.startswith("seat:")
    }
    mine, theirs = _view(state, Y), _view(state, BL)
    assert set(mine.targets) == offered and offered
    assert all(label[-1] in "AF" for label in mine.targets)  # window seats
    assert theirs.targets == ()
    framed = render.render_private(mine, names=NAMES)
    label = mine.targets[0]
    x, y = render._seat_xy(int(label[:-1]), label[-1])
    assert framed.getpixel((x + 1, render.HEADER_H + y + 21)) == ImageColor.getrgb(render.TARGET)
    unframed = render.render_private(mine.model_copy(update={"targets": ()}), names=NAMES)
    assert unframed.getpixel((x + 1, render.HEADER_H + y + 21)) != ImageColor.getrgb(render.TARGET)


def test_the_pinch_caption_mentions_no_frames_and_says_what_to_do() -> None:
    """A Pinch look draws both hands and no plane: its caption (and alt text) speak of taking
    one of the opponent's cards, never of green frames or seats (issue 28)."""
    state = rig(hands=(("pinch", "window"), ("aisle", "stretcher")))
    state, _ = play(state, Y, "play:pinch")
    view = _view(state, Y)
    caption = render._private(view, list(NAMES)).status
    assert "frame" not in caption.lower() and "Take one of your opponent's cards" in caption
    described = render.alt_text(view, names=NAMES)
    assert "can be played on" not in described and "can take" not in described
    assert "your opponent's hand is Aisle seat, Stretcher; take one" in described


def test_the_placing_caption_counts_the_framed_seats_and_explains_orange() -> None:
    """While a card is placed, the caption counts the green frames drawn; after a move the
    private picture (which has no legend) says what its orange rings are."""
    state = rig(hands=(("window", "aisle"), ("middle",)))
    state, _ = play(state, Y, "play:window")
    view = _view(state, Y)
    caption = render._private(view, list(NAMES)).status
    assert f"Green frames: the {len(view.targets)} seats it can be played on." in caption
    moved, _ = play(state, Y, f"seat:{view.targets[0]}")
    after = _view(moved, Y)
    assert after.last_seats and "Orange rings" in render._private(after, list(NAMES)).status
    assert "Orange" not in render._private(_view(rig(), Y), list(NAMES)).status, "no rings yet"


def test_seats_a_stretcher_emptied_are_called_emptied_not_taken() -> None:
    """After a Stretcher the board rings the seats it emptied; the alt text lists them as
    emptied (it used to call them the "last seats", as if taken) and the legend covers it."""
    stones = {**fill_row(7, BL, "DEF"), "3A": Y}
    state = rig(stones=stones, hands=(("stretcher", "window"), ("middle",)))
    state, _ = play(state, Y, "play:stretcher", "block:7EF")
    view = _view(state, None)
    assert view.last_seats == ("7E", "7F", "8E", "8F", "9E", "9F")  # the Stretcher's block
    described = render.alt_text(view, names=NAMES)
    assert "Seats the last move emptied: 7E, 7F, 8E, 8F, 9E, 9F." in described
    assert "Last seats" not in described and "took" not in described
    assert _pixel(state, "7E", 0, 20) == ImageColor.getrgb(HIGHLIGHT)  # the ring is drawn
    assert any("took or emptied" in words for _, words in render._keys())
