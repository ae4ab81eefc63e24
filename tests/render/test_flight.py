"""Flight renderer: initial, mid-hand and final tables; determinism, size, no hidden leaks."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageColor

from bot.render.common import HIGHLIGHT, to_png
from bot.render.flight import WIDTH, _last_hand_lines, draw_board, render_board, render_private
from bot.render.samples import after_moves
from rules.flight import GAME, FlightState
from rules.flight.state import Obstacle
from tests.rules.flight.helpers import act, flight, rig

NAMES = ["Alice", "Bob", "Chandrasekhar the Magnificent", "Dee", "Eve"]
BUDGET = 1024 * 1024


def _played(players: int, steps: int, seed: int = 5) -> FlightState:
    """A state after `steps` random legal actions (or the end of the match)."""
    state = GAME.new_game(seed, players, {"match": "hands", "hands": 1})
    chooser = random.Random(seed)
    for _ in range(steps):
        active = GAME.active_players(state)
        if not active:
            break
        state = GAME.apply(
            state, active[0], chooser.choice(GAME.legal_actions(state, active[0]))
        ).state
    return state


def _mid_hand() -> FlightState:
    """A busy table: a cancelled Customs and an open one, an Alternative Route, a ready flight."""
    table = [
        flight("CAN", 5),
        flight(
            "AUS",
            2,
            obstacles=[
                Obstacle(kind="customs", beside=2, cancelled=True),
                Obstacle(kind="customs", beside=2),
            ],
        ),
        flight(
            "SAF", 4, alternative=[4], obstacles=[Obstacle(kind="fog", beside=3, cancelled=True)]
        ),
    ]
    hands = [["IND.A", "SL", "FOG", "ALT", "CUS", "PAS", "SAF.5"], ["IND.2"], [], ["SL", "AUS.3"]]
    state = rig(
        hands, flights=table, discards=("FOG", "CAN.1"), scores=(30, -12, 5, 0), first_out=2
    )
    state, _ = act(state, 0, "draw:discard", "play:IND.A")
    return state


def _finished() -> FlightState:
    """A match that has ended (one hand, landed by seat 0)."""
    state = rig(
        [["SAF.1"], ["CAN.2", "AUS.A"], ["FOG"]],
        flights=[flight("IND", 5)],
        discards=("PAS", "SL"),
        options={"match": "hands", "hands": 1},
    )
    state, _ = act(state, 0, "draw:discard", "play:SL")
    assert state.over
    return state


@pytest.mark.parametrize(
    "state",
    [
        GAME.new_game(1, 2, None),
        GAME.new_game(1, 5, None),
        _played(3, 40),
        _mid_hand(),
        _finished(),
        _played(5, 2000),
    ],
    ids=["initial-2", "initial-5", "random-mid", "mid-hand", "final", "random-final"],
)
def test_board_and_private_images_render_within_budget(state: FlightState) -> None:
    """Both images render readably wide and encode well under 1 MiB."""
    board = render_board(GAME.view(state, None), names=NAMES[: state.players])
    assert isinstance(board, Image.Image) and board.width == WIDTH
    assert len(to_png(board)) < BUDGET
    for seat in range(state.players):
        private = render_private(GAME.view(state, seat), names=NAMES[: state.players])
        assert private.width == WIDTH and len(to_png(private)) < BUDGET


def test_same_input_gives_the_same_bytes() -> None:
    """Rendering is pure: equal views give byte-identical PNGs."""
    view = GAME.view(_mid_hand(), None)
    assert to_png(render_board(view, names=NAMES)) == to_png(render_board(view, names=NAMES))
    mine = GAME.view(_mid_hand(), 0)
    assert to_png(render_private(mine, names=NAMES)) == to_png(render_private(mine, names=NAMES))


def test_public_image_does_not_depend_on_hidden_cards() -> None:
    """Different hands and pack order, same table: the same public picture."""
    one = rig([["SAF.1", "SAF.2"], ["IND.1"]], pack=("SL", "FOG"), flights=[flight("CAN", 2)])
    two = rig([["ALT", "CAN.4"], ["AUS.A"]], pack=("FOG", "CUS"), flights=[flight("CAN", 2)])
    board_one = to_png(render_board(GAME.view(one, None), names=NAMES[:2]))
    assert board_one == to_png(render_board(GAME.view(two, None), names=NAMES[:2]))
    private_one = to_png(render_private(GAME.view(one, 0), names=NAMES[:2]))
    assert private_one != to_png(render_private(GAME.view(two, 0), names=NAMES[:2]))


def test_the_table_changes_when_a_card_is_played() -> None:
    """A play shows up on the public board."""
    before = rig([["CAN.3", "CAN.4", "FOG"], ["IND.1"]], flights=[flight("CAN", 2)])
    after, _ = act(before, 0, "draw:pack", "play:CAN.3")
    old = to_png(render_board(GAME.view(before, None), names=NAMES[:2]))
    assert old != to_png(render_board(GAME.view(after, None), names=NAMES[:2]))


def test_missing_names_fall_back_to_seat_numbers() -> None:
    """A short names list still renders every seat."""
    state = GAME.new_game(2, 4, None)
    assert render_board(GAME.view(state, None), names=["Alice"]).height > 0


def test_long_names_wrap_instead_of_being_cut() -> None:
    """Issue 15: 'Jerusalem (Ly…' and 'South Afr…' — names wrap onto a second line."""
    from bot.render.common import wrap_text
    from bot.render.flight import COL_W, NUM_W, _lines

    assert wrap_text("Jerusalem (Lydda)", 84, 11) == ["Jerusalem", "(Lydda)"]
    assert wrap_text("South Africa\nJohannesburg", 84, 11) == ["South Africa", "Johannesburg"]
    assert not any("…" in line for line in wrap_text("Jerusalem (Lydda)", 84, 11))
    # on the board's route columns, a town name too wide for one line takes two
    assert _lines("Jerusalem (Lydda)", COL_W - NUM_W - 8) == ["Jerusalem", "(Lydda)"]


@pytest.mark.parametrize("moves", [0, 9, 23, 41, 77])
def test_the_cached_empty_table_gives_the_picture_drawn_from_scratch(moves: int) -> None:
    """Only what moved is drawn over the cached empty routes, with the same pixels."""
    state = after_moves("flight", 3, moves, seed=moves)
    view = GAME.view(state, None)
    names = ["Alice", "Bob", "Cy"]
    cached = render_board(view, names=names)
    assert to_png(cached) == to_png(draw_board(view, names, static=False))


def test_the_orange_frame_is_explained_on_the_board_only_when_drawn() -> None:
    """Issue 28: orange framed each flight's next stop with no word on the picture. The legend
    under the table says what it is whenever a flight shows one, and not before."""
    orange = ImageColor.getrgb(HIGHLIGHT)
    before = GAME.new_game(5, 2, {"match": "hands", "hands": 1})
    for state, shown in ((before, False), (_mid_hand(), True)):
        view = GAME.view(state, None)
        legend = " ".join(_last_hand_lines(view, NAMES[:2]))
        assert ("orange frame: each flight's next stop" in legend) is shown, legend
        image = render_board(view, names=NAMES[: len(view.seats)]).convert("RGB")
        assert (orange in {c for _, c in image.getcolors(1 << 20) or []}) is shown
