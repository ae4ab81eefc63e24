"""First in Flight renderer: states reached by the real engine, size, determinism, no leaks."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import cache

import pytest
from PIL import Image

from bot.render.common import to_png
from bot.render.fif_chart import winners
from bot.render.fif_flight import problem_odds
from bot.render.first_in_flight import render_board, render_flight, render_private
from rules.core import Rng
from rules.first_in_flight import GAME
from rules.first_in_flight.auto import choose
from rules.first_in_flight.state import State

NAMES = ["Alice", "Bob", "Chandrasekhar the Magnificent", "Dee"]
BUDGET = 1024 * 1024
MAX_WIDTH = 1100
STEP_LIMIT = 5000

Check = Callable[[State], bool]
MOMENTS: dict[str, Check] = {
    "start": lambda s: bool(s.steps) and s.steps[-1].kind == "turn",
    "mid-flight": lambda s: s.flight is not None and len(s.flight.row) >= 3 and not s.flight.done,
    "crash": lambda s: s.flight is not None and s.flight.crashed,
    "famous": lambda s: any(m.famous for m in s.seats),
    "year-end": lambda s: s.year == 2,
    "looked-at": lambda s: bool(s.steps) and s.steps[-1].kind in ("look", "pick"),
}


@cache
def moments(players: int, seed: int = 1) -> dict[str, State]:
    """The first state of each kind in one game between automatic players, and the final state."""
    state = GAME.new_game(seed, players, {"odds_aid": True})
    rng = random.Random(seed)
    found: dict[str, State] = {}
    for _ in range(STEP_LIMIT):
        if not GAME.active_players(state):
            break
        seat = GAME.active_players(state)[0]
        key = choose(state, seat, GAME.legal_actions(state, seat), rng)
        state = GAME.apply(state, seat, key).state  # type: ignore[assignment]
        for name, check in MOMENTS.items():
            if name not in found and check(state):
                found[name] = state
    assert state.over, "the automatic players finish the game"
    found["final"] = state
    return found


def _png_board(state: State, **kwargs: bool) -> bytes:
    """The public image of a state as PNG bytes."""
    players = state.players
    return to_png(render_board(GAME.view(state, None), names=NAMES[:players], **kwargs))


def _png_private(state: State, seat: int) -> bytes:
    """One seat's image of a state as PNG bytes."""
    return to_png(render_private(GAME.view(state, seat), names=NAMES[: state.players]))


CASES = [
    (players, moment)
    for players in (1, 2, 4)
    for moment in ("start", "mid-flight", "crash", "famous", "year-end", "final")
]


@pytest.mark.parametrize(("players", "moment"), CASES, ids=[f"{p}p-{m}" for p, m in CASES])
def test_every_moment_renders_within_budget(players: int, moment: str) -> None:
    """Board and every seat's view render at phone-friendly width, well under 1 MiB, fast."""
    state = moments(players)[moment]
    started = time.perf_counter()
    board = render_board(GAME.view(state, None), names=NAMES[:players])
    assert time.perf_counter() - started < 2.0
    assert isinstance(board, Image.Image) and board.width <= MAX_WIDTH
    assert len(to_png(board)) < BUDGET
    for seat in range(players):
        private = render_private(GAME.view(state, seat), names=NAMES[:players])
        assert private.width <= MAX_WIDTH and len(to_png(private)) < BUDGET


@pytest.mark.parametrize("players", [1, 2, 4])
def test_same_input_gives_the_same_bytes(players: int) -> None:
    """Rendering is pure: equal views give byte-identical PNGs (cached layers are not mutated)."""
    state = moments(players)["mid-flight"]
    assert _png_board(state) == _png_board(state)
    seat = state.flight.seat if state.flight else 0
    assert _png_private(state, seat) == _png_private(state, seat)


def _shuffled_hidden(state: State) -> State:
    """The same table with every hidden order changed: decks, Upgrade and flaw decks, RNG."""
    seats = tuple(m.model_copy(update={"deck": m.deck[::-1]}) for m in state.seats)
    return state.model_copy(
        update={
            "seats": seats,
            "upgrade_deck": state.upgrade_deck[::-1],
            "flaw_deck": state.flaw_deck[::-1],
            "rng": Rng(seed=987654),
        }
    )


@pytest.mark.parametrize("players", [1, 2, 4])
def test_public_image_ignores_hidden_order(players: int) -> None:
    """Two states differing only in deck order give the same public picture."""
    state = moments(players)["start"]
    other = _shuffled_hidden(state)
    assert other.seats[0].deck != state.seats[0].deck
    assert _png_board(state) == _png_board(other)


def test_private_view_shows_looked_at_cards() -> None:
    """A seat looking at cards sees them in its own image; the public board does not change."""
    state = moments(1)["looked-at"]
    seat = state.steps[-1].seat
    assert GAME.view(state, seat).looking_at
    steps = (*state.steps[:-1], state.steps[-1].model_copy(update={"cards": ()}))
    unseen = state.model_copy(update={"steps": steps})
    assert _png_private(state, seat) != _png_board(state)
    assert _png_private(state, seat) != _png_private(unseen, seat)
    assert _png_board(state) == _png_board(unseen)


def test_known_top_of_deck_is_private() -> None:
    """Cards a seat arranged on top of its deck show only in that seat's image."""
    state = moments(1)["start"]
    seat = 0
    mat = state.seats[seat]
    known = state.model_copy(
        update={"seats": (mat.model_copy(update={"known_top": mat.deck[:2]}), *state.seats[1:])}
    )
    assert _png_private(known, seat) != _png_private(state, seat)
    assert _png_board(known) == _png_board(state)


def test_crashed_pawn_is_drawn_lying() -> None:
    """A crashed pawn looks different from the same pawn standing."""
    state = moments(2)["crash"]
    assert any(not p.standing for p in state.pawns)
    standing = tuple(p.model_copy(update={"standing": True}) for p in state.pawns)
    assert _png_board(state) != _png_board(state.model_copy(update={"pawns": standing}))


def test_famous_pilot_is_marked() -> None:
    """Flipping a pilot to its Famous side changes the mat."""
    state = moments(4)["famous"]
    seat = next(i for i, m in enumerate(state.seats) if m.famous)
    plain = state.seats[seat].model_copy(update={"famous": False})
    seats = tuple(plain if i == seat else m for i, m in enumerate(state.seats))
    assert _png_board(state) != _png_board(state.model_copy(update={"seats": seats}))


def test_used_cards_look_different_from_ready_ones() -> None:
    """Exhausting a Development card changes its owner's mat."""
    state = moments(4)["famous"]
    seat = next(i for i, m in enumerate(state.seats) if m.cards)
    mat = state.seats[seat]
    flipped = tuple(c.model_copy(update={"exhausted": not c.exhausted}) for c in mat.cards)
    seats = tuple(
        mat.model_copy(update={"cards": flipped}) if i == seat else m
        for i, m in enumerate(state.seats)
    )
    assert _png_board(state) != _png_board(state.model_copy(update={"seats": seats}))


def test_odds_aid_shows_only_when_switched_on() -> None:
    """The Problem odds come from the known deck and appear only with the option on."""
    state = moments(2)["mid-flight"]
    flight = GAME.view(state, None).flight
    assert flight is not None
    deck = state.seats[flight.seat].deck
    assert problem_odds(flight) == (flight.problem_cards_left, len(deck))
    assert _png_board(state, odds_aid=True) != _png_board(state, odds_aid=False)
    off = state.model_copy(update={"options": state.options.model_copy(update={"odds_aid": False})})
    off_view = GAME.view(off, None).flight
    assert off_view is not None and problem_odds(off_view) is None
    assert _png_board(off, odds_aid=True) == _png_board(off, odds_aid=False)


def test_stand_in_note_follows_the_data_set() -> None:
    """The 'unofficial stand-in set' note disappears when real card data is in use."""
    view = GAME.view(moments(2)["final"], None)
    real = view.model_copy(update={"stand_in": False})
    stand_in = to_png(render_board(view, names=NAMES[:2]))
    assert stand_in != to_png(render_board(real, names=NAMES[:2]))


def test_winners_follow_the_tie_rules() -> None:
    """Highest record wins; a tie goes to whoever reached 40, otherwise the victory is shared."""
    rows = [(0, 41, 3), (1, 41, 3), (None, 30, 0)]
    assert winners(rows, "seat1") == {1}
    assert winners(rows, "year4") == {0, 1}
    assert winners([(0, 38, 4), (None, 40, 0)], "gustave") == {None}


def test_final_state_names_the_engine_winner() -> None:
    """The standings agree with the engine's outcome."""
    for players in (1, 2, 4):
        state = moments(players)["final"]
        outcome = GAME.outcome(state)
        assert outcome is not None
        view = GAME.view(state, None)
        rows = [(s.seat, s.record, s.record_year) for s in view.seats]
        if view.gustave_record is not None:
            rows.append((None, view.gustave_record, 0))
        won = winners(rows, view.end_trigger)
        if outcome.reason.startswith("Gustave won"):
            assert won == {None}
        else:
            assert set(outcome.winners) <= won


def test_missing_names_fall_back_to_seat_numbers() -> None:
    """A short names list still renders every seat."""
    state = moments(4)["start"]
    assert render_board(GAME.view(state, None), names=["Alice"]).height > 0
    assert render_private(GAME.view(state, 3), names=[]).height > 0


@pytest.mark.parametrize("players", [1, 2, 4])
def test_live_flight_picture_is_compact_and_public(players: int) -> None:
    """The live-Flight image is smaller than the board, in budget, and ignores hidden order."""
    state = moments(players)["mid-flight"]
    view = GAME.view(state, None)
    live = render_flight(view, names=NAMES[:players])
    board = render_board(view, names=NAMES[:players])
    assert live.width <= MAX_WIDTH and live.height < board.height
    assert len(to_png(live)) < BUDGET
    hidden = GAME.view(_shuffled_hidden(state), None)
    assert to_png(live) == to_png(render_flight(hidden, names=NAMES[:players]))
