"""One registry: every game is one (engine, renderer) entry; optional pictures are typed."""

from __future__ import annotations

from bot.render import REGISTRY, Pictures, private_png, public_png, renderer_for
from bot.render.first_in_flight import STEP_WORDS
from rules import GAMES
from rules.first_in_flight.data import load_data as fif_data
from rules.first_in_flight.keys import STEP_KINDS
from rules.flight.data import load_data as flight_data
from tests.rules.first_in_flight.helpers import act, flying, table

NAMES = ("Ann", "Bob", "Cy", "Di")


def test_every_engine_has_exactly_one_entry_with_a_renderer() -> None:
    """The registry pairs each engine with its renderer, in the engines' menu order."""
    assert list(REGISTRY) == list(GAMES)
    for game_id, entry in REGISTRY.items():
        assert entry.engine is GAMES[game_id]
        assert renderer_for(game_id) is entry.renderer
    assert renderer_for("no-such-game") is None


def test_live_picture_is_the_renderers_own_or_else_the_board() -> None:
    """Without a `live` picture the board is used: First in Flight's turn picture is already the
    compact one (the Flight, the records and the flyer's mat), so live and board agree."""
    takeoff = GAMES["takeoff"]
    state = takeoff.new_game(4, 2, None)
    view = takeoff.view(state, None)
    assert public_png("takeoff", view, NAMES[:2], live=True) == public_png(
        "takeoff", view, NAMES[:2]
    )
    fif = GAMES["first-in-flight"]
    assert REGISTRY["first-in-flight"].renderer.live is None
    flying_state = flying(table(players=2), 0, ("glide", "glide", "experience"))
    flying_state, _ = act(flying_state, 0, "draw")
    view = fif.view(flying_state, None)
    live = public_png("first-in-flight", view, NAMES[:2], live=True)
    assert live == public_png("first-in-flight", view, NAMES[:2])
    assert private_png("first-in-flight", fif.view(flying_state, 0), NAMES[:2]) != live


def test_a_renderer_without_a_live_picture_needs_no_hook() -> None:
    """`live` is an optional member (None), not an attribute looked up by name."""
    takeoff = REGISTRY["takeoff"].renderer
    assert isinstance(takeoff, Pictures) and takeoff.live is None


def test_data_note_comes_from_the_engine() -> None:
    """The stand-in provenance line is part of the engine contract, not a view attribute."""
    fif = GAMES["first-in-flight"]
    state = fif.new_game(1, 2, None)
    expected = "Card data: unofficial stand-in set." if fif_data().stand_in else ""
    assert fif.data_note(state) == expected
    flight = GAMES["flight"]
    assert flight.data_note(flight.new_game(1, 3, None)) == flight_data().stand_in_note
    assert GAMES["takeoff"].data_note(GAMES["takeoff"].new_game(1, 2, None)) == ""


def test_the_board_names_every_first_in_flight_step() -> None:
    """Each StepKind has its own words in the board's status line (no raw kind shown)."""
    assert set(STEP_WORDS) == set(STEP_KINDS)
