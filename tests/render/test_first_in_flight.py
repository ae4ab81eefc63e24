"""First in Flight renderer: states reached by the real engine, size, determinism, no leaks."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any
from unittest.mock import patch

import pytest
from PIL import Image, ImageDraw

from bot.render import fif_track, first_in_flight
from bot.render.common import to_png
from bot.render.fif_chart import won_by
from bot.render.fif_flight import problem_odds
from bot.render.first_in_flight import render_board, render_private, render_table
from bot.render.tiles import drawn_in_place
from rules.core import Rng
from rules.first_in_flight import GAME
from rules.first_in_flight.auto import choose
from rules.first_in_flight.state import State
from rules.first_in_flight.view import GameView

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


def _play(players: int, seed: int) -> dict[str, State]:
    """The first state of each kind in one game between automatic players, and the final state."""
    state = GAME.new_game(seed, players, {"odds_aid": True})
    rng = random.Random(seed)
    found: dict[str, State] = {}
    for _ in range(STEP_LIMIT):
        if not GAME.active_players(state):
            break
        seat = GAME.active_players(state)[0]
        key = choose(state, seat, GAME.legal_actions(state, seat), rng)
        state = GAME.apply(state, seat, key).state
        for name, check in MOMENTS.items():
            if name not in found and check(state):
                found[name] = state
    assert state.over, "the automatic players finish the game"
    found["final"] = state
    return found


@cache
def moments(players: int) -> dict[str, State]:
    """Every moment, from the first seeded game that reaches it (the automatic player's tuning
    may change which game crashes or goes Famous)."""
    found: dict[str, State] = {}
    for seed in range(1, 13):
        for name, state in _play(players, seed).items():
            found.setdefault(name, state)
        if set(found) >= {*MOMENTS, "final"}:
            break
    return found


def _png_board(state: State, **kwargs: bool) -> bytes:
    """The public image of a state as PNG bytes."""
    players = state.players
    return to_png(render_board(GAME.view(state, None), names=NAMES[:players], **kwargs))


def _png_table(state: State) -> bytes:
    """The whole table (every mat) as PNG bytes."""
    return to_png(render_table(GAME.view(state, None), names=NAMES[: state.players]))


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
    """Board and every seat's view render at phone-friendly width, well under 1 MiB.

    (Speed is measured by bench/render.py, not asserted here.)
    """
    state = moments(players)[moment]
    board = render_board(GAME.view(state, None), names=NAMES[:players])
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
    """A crashed pawn looks different from the same pawn standing (once the Flight panel has
    given way to the track again)."""
    state = moments(2)["crash"].model_copy(update={"flight": None})
    assert any(not p.standing for p in state.pawns)
    standing = tuple(p.model_copy(update={"standing": True}) for p in state.pawns)
    assert _png_board(state) != _png_board(state.model_copy(update={"pawns": standing}))


def test_famous_pilot_is_marked() -> None:
    """Flipping a pilot to its Famous side changes the mat."""
    state = moments(4)["famous"]
    seat = next(i for i, m in enumerate(state.seats) if m.famous)
    plain = state.seats[seat].model_copy(update={"famous": False})
    seats = tuple(plain if i == seat else m for i, m in enumerate(state.seats))
    assert _png_table(state) != _png_table(state.model_copy(update={"seats": seats}))


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
    assert _png_table(state) != _png_table(state.model_copy(update={"seats": seats}))


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


def test_final_state_names_the_engine_winner() -> None:
    """The standings take their winners from the view, which agrees with the engine's outcome."""
    for players in (1, 2, 4):
        state = moments(players)["final"]
        outcome = GAME.outcome(state)
        assert outcome is not None
        won = won_by(GAME.view(state, None))
        assert won == ({None} if not outcome.winners else set(outcome.winners))


def _png_view(view: GameView) -> bytes:
    """The public image of a (possibly edited) view."""
    return to_png(render_board(view, names=NAMES[: view.players]))


@pytest.mark.parametrize("players", [1, 2, 4])
def test_game_over_shows_every_record_per_year(players: int) -> None:
    """The final picture charts each record per Year: changing one Year's value changes it."""
    view = GAME.view(moments(players)["final"], None)
    seat = view.seats[0]
    assert len(seat.record_by_year) == view.year
    bumped = (seat.record_by_year[0] + 7, *seat.record_by_year[1:])
    other = view.model_copy(
        update={"seats": (seat.model_copy(update={"record_by_year": bumped}), *view.seats[1:])}
    )
    assert _png_view(view) != _png_view(other)
    if view.gustave_record is not None:
        history = view.gustave_record_by_year
        changed = view.model_copy(update={"gustave_record_by_year": (history[0] + 5, *history[1:])})
        assert _png_view(view) != _png_view(changed)


def test_the_chart_is_only_drawn_at_game_over() -> None:
    """Mid-game boards carry no standings: a Year's record does not change the picture."""
    view = GAME.view(moments(2)["year-end"], None)
    seat = view.seats[0]
    other = view.model_copy(
        update={"seats": (seat.model_copy(update={"record_by_year": (33, 33)}), *view.seats[1:])}
    )
    assert _png_view(view) == _png_view(other)


def test_a_gustave_win_is_drawn_as_his_win() -> None:
    """When Gustave wins, the standings crown him and no player."""
    state = moments(2)["final"]
    best = max(m.record for m in state.seats)
    won = state.model_copy(update={"gustave_record": best + 6, "end_trigger": 2})
    view = GAME.view(won, None)
    assert view.gustave_won and view.winners == () and won_by(view) == {None}
    lost = GAME.view(state.model_copy(update={"gustave_record": 0}), None)
    assert not lost.gustave_won and won_by(lost) == set(lost.winners)
    assert _png_view(view) != _png_view(view.model_copy(update={"gustave_won": False}))
    assert len(_png_view(view)) < BUDGET and render_board(view, names=NAMES[:2]).width <= MAX_WIDTH


def test_descend_is_drawn_where_it_was_played_with_its_value() -> None:
    """The Descend card sits at its place in the row and shows what it counts."""
    state = moments(4)["mid-flight"]
    view = GAME.view(state, None)
    assert view.flight is not None
    flight = view.flight.model_copy(
        update={"descended": True, "descend_at": 1, "descend_value": 5, "landed": True}
    )
    at_one = view.model_copy(update={"flight": flight})
    at_end = view.model_copy(
        update={"flight": flight.model_copy(update={"descend_at": len(flight.row)})}
    )
    crashed = view.model_copy(update={"flight": flight.model_copy(update={"descend_value": 2})})
    assert len({_png_view(at_one), _png_view(at_end), _png_view(crashed)}) == 3


def test_card_colours_follow_the_card_kind() -> None:
    """Row cards are coloured by their kind from the view, not guessed from the name."""
    view = GAME.view(moments(4)["mid-flight"], None)
    assert view.flight is not None
    first = view.flight.row[0]
    other_kind = "upgrade" if first.kind != "upgrade" else "glide"
    row = (first.model_copy(update={"kind": other_kind}), *view.flight.row[1:])
    recoloured = view.model_copy(update={"flight": view.flight.model_copy(update={"row": row})})
    assert _png_view(view) != _png_view(recoloured)


def test_action_space_icons_come_from_the_options() -> None:
    """Each Action Space is drawn from its (action, cost) options."""
    view = GAME.view(moments(4)["start"], None)
    i = next(k for k, s in enumerate(view.board) if s.options and s.options[0][0] == "funding")
    space = view.board[i].model_copy(update={"options": (("repair", "9M"),)})
    board = (*view.board[:i], space, *view.board[i + 1 :])
    assert _png_view(view) != _png_view(view.model_copy(update={"board": board}))


def test_pilot_ability_and_its_use_show_on_the_mat() -> None:
    """The mat prints the Pilot's ability and greys it once used."""
    view = GAME.view(moments(4)["start"], None)
    at = view.deciding or 0
    seat = view.seats[at]
    assert seat.pilot_text
    used = seat.model_copy(update={"pilot_exhausted": not seat.pilot_exhausted})
    blank = seat.model_copy(update={"pilot_text": ""})
    images = {
        _png_view(view.model_copy(update={"seats": (*view.seats[:at], s, *view.seats[at + 1 :])}))
        for s in (seat, used, blank)
    }
    assert len(images) == 3


def test_missing_names_fall_back_to_seat_numbers() -> None:
    """A short names list still renders every seat."""
    state = moments(4)["start"]
    assert render_board(GAME.view(state, None), names=["Alice"]).height > 0
    assert render_private(GAME.view(state, 3), names=[]).height > 0


@pytest.mark.parametrize("players", [2, 4])
def test_turn_picture_shows_the_acting_mat_and_the_table_shows_every_mat(players: int) -> None:
    """Another player's coins change the whole table but not the turn picture (its mat is one
    tap away); the table ignores hidden order and stays in budget."""
    state = moments(players)["start"]
    view = GAME.view(state, None)
    acting = view.deciding if view.deciding is not None else 0
    other = (acting + 1) % players
    seats = tuple(
        s.model_copy(update={"coins": s.coins + 7}) if s.seat == other else s for s in view.seats
    )
    richer = view.model_copy(update={"seats": seats})
    table = to_png(render_table(view, names=NAMES[:players]))
    assert table != to_png(render_table(richer, names=NAMES[:players]))
    assert _png_view(view) == _png_view(richer)
    assert len(table) < BUDGET
    hidden = GAME.view(_shuffled_hidden(state), None)
    assert table == to_png(render_table(hidden, names=NAMES[:players]))


# ---------------------------------------------------------------- plain words (issue 28.1, 28.2)


@contextmanager
def texts_drawn() -> Iterator[list[str]]:
    """Every text drawn inside the block (caches off, so cached tiles are drawn again)."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(text))
        original(self, xy, text, *args, **kwargs)

    fif_track._background.cache_clear()
    with patch.object(ImageDraw.ImageDraw, "text", spy), drawn_in_place():
        yield seen
    fif_track._background.cache_clear()


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_board_has_a_key_and_no_cut_words(players: int) -> None:
    """The turn picture says what M, t, X≥2 and +2 mean, and no space's words are cut."""
    state = moments(players)["start"]
    with texts_drawn() as seen:
        render_board(GAME.view(state, None), names=NAMES[:players])
    words = " ".join(seen)
    assert "3 Money or 2 Time" in words, "the costs' key is on the picture"
    assert "take 2 coins" in words and "2 or more" in words and "1 Money more" in words
    assert not [t for t in seen if t.endswith("…") and t.split()[0] in ("Friend", "Tech.")]
    assert "Funding" in seen and "Upgrade" in seen, "whole words where they fit"
    assert "Fund." not in seen and "Upgr." not in seen


def test_the_private_panel_shows_each_owned_cards_text() -> None:
    """A player's own panel prints what each of their cards does, not just its name."""
    state = next(s for s in moments(2).values() if any(m.cards for m in s.seats))
    seat = next(i for i, m in enumerate(state.seats) if m.cards)
    view = GAME.view(state, seat)
    with texts_drawn() as seen:
        render_private(view, names=NAMES[:2])
    for card in view.seats[seat].cards:
        first_words = " ".join(card.text.split()[:3])
        assert any(t.startswith(first_words) for t in seen), f"{card.name}: no text shown"


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_whole_table_pages_read_on_a_phone(players: int) -> None:
    """The whole table is paged: each page 640 px wide and at most 1.8 times as tall, and
    together they show every mat and every face-up card with its text."""
    state = moments(players)["year-end"]
    view = GAME.view(state, None)
    with texts_drawn() as seen:
        pages = first_in_flight.render_table_pages(view, names=NAMES[:players])
    assert all(p.width == 640 and p.height <= 1.8 * p.width for p in pages)
    assert first_in_flight.table_page_count(view, names=NAMES[:players]) == len(pages)
    for seat in range(players):
        assert NAMES[seat] in seen
    shown = " ".join(seen)
    for row in view.display_texts:
        for text in row:
            assert " ".join(text.split()[:3]) in shown


def _every_flight_card(rows: int) -> State:
    """A real Flight whose row holds every kind of Flight card, `rows` times over."""
    from rules.first_in_flight.data import load_data
    from rules.first_in_flight.state import RowCard

    state = moments(2)["mid-flight"]
    assert state.flight is not None
    kinds = [RowCard(card=c.id) for c in load_data().flight_cards]
    row = tuple(kinds * rows)
    return state.model_copy(update={"flight": state.flight.model_copy(update={"row": row})})


@pytest.mark.parametrize("rows", [1, 2])
def test_flight_card_names_are_cut_only_at_a_word(rows: int) -> None:
    """Each Flight card's name on its tile is whole words ("Experience", not "Experien…"), on
    the full-size tiles of a short row and the shorter tiles of a long one; a name too long
    for its tile ends with an ellipsis after a whole word."""
    from rules.first_in_flight.data import load_data

    state = _every_flight_card(rows)
    words = {w for c in load_data().flight_cards for w in c.name.split()} | {"Problem"}
    seat = state.flight.seat if state.flight is not None else 0
    with texts_drawn() as seen:
        render_board(GAME.view(state, None), names=NAMES[:2])
        render_private(GAME.view(state, seat), names=NAMES[:2])
    tiles = [t for t in seen if t.rstrip("…") and set(t.rstrip("…").split()) <= words]
    assert "Experience" in tiles
    stems = [t.rstrip("…").split() for t in seen if t.endswith("…")]  # what an ellipsis ends
    cut = [
        s[-1] for s in stems if s and s[-1] not in words and any(w.startswith(s[-1]) for w in words)
    ]
    assert not cut, f"names cut mid-word: {cut}"


def test_a_long_name_is_cut_at_a_word() -> None:
    """A title, status or mat line too long for its place ends after a whole word with an
    ellipsis: "Chandrasekhar the…", never "First in Flight — Chandrasek…"."""
    state = moments(4)["start"]
    with texts_drawn() as seen:
        render_private(GAME.view(state, 2), names=NAMES)
        render_board(GAME.view(state, None), names=NAMES)
    cut = [t for t in seen if t.endswith("…")]
    assert any(t.startswith("Chandrasekhar the") for t in cut), cut
    whole = set(" ".join(NAMES).split())
    halves = [t for t in cut if t.rstrip("…").split()[-1] not in whole]
    names = [t for t in halves if any(w.startswith(t.rstrip("…").split()[-1]) for w in whole)]
    assert not names, f"names cut mid-word: {names}"
