"""Alt text of every game's pictures: whose turn, the scores, the last move, within 1,024."""

from __future__ import annotations

import random

import pytest

from bot.render import alt, alt_text
from bot.render.first_in_flight import STEP_WORDS
from bot.render.samples import after_moves, final
from rules import GAMES
from rules.core import Ending, Outcome
from rules.first_in_flight.view import GameView
from rules.flight.view import FlightGameView

NAMES = ["Alice", "Bob", "Chandrasekhar", "Dee"]
CASES = [("takeoff", 2), ("flight", 3), ("first-in-flight", 4)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_alt_text_says_whose_turn_the_scores_and_the_last_move(game_id: str, players: int) -> None:
    """Mid-game: the player to act, every player's score or record, and the last move given."""
    game = GAMES[game_id]
    state = after_moves(game_id, players, 30, seed=4)
    names = NAMES[:players]
    text = alt_text(game_id, game.view(state, None), names, "Bob took seat 7A")
    active = game.active_players(state)
    assert active and names[active[0]] in text
    assert all(name in text for name in names)
    assert ("Scores:" in text or "Records:" in text) and "Last move: Bob took seat 7A." in text
    assert len(text) <= 1024


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_alt_text_of_a_private_view_lists_what_the_picture_shows(
    game_id: str, players: int
) -> None:
    """A seat's picture is described with its own cards where the game has a hand."""
    game = GAMES[game_id]
    state = after_moves(game_id, players, 12, seed=4)
    text = alt_text(game_id, game.view(state, 0), NAMES[:players])
    if game_id != "first-in-flight":
        assert "Your hand:" in text
    assert len(text) <= 1024


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_alt_text_at_the_end_says_so(game_id: str, players: int) -> None:
    """A finished game's picture is described as over."""
    game = GAMES[game_id]
    text = alt_text(game_id, game.view(final(game_id, players), None), NAMES[:players])
    assert "over" in text.lower() and len(text) <= 1024


def test_long_names_are_cut_to_discords_limit() -> None:
    """Even absurd names keep the description within 1,024 characters."""
    game = GAMES["flight"]
    names = ["N" * 400, "M" * 400, "O" * 400]
    text = alt_text("flight", game.view(after_moves("flight", 3, 20), 0), names, "x" * 900)
    assert len(text) == 1024 and text.endswith("…")


def _fif_views(players: int, seed: int) -> list[GameView]:
    """Public views of a random First in Flight game, one per decision, to its end."""
    game = GAMES["first-in-flight"]
    state = game.new_game(seed, players, None)
    rng = random.Random(seed)
    views = []
    while game.active_players(state):
        view = game.view(state, None)
        assert isinstance(view, GameView)
        views.append(view)
        seat = game.active_players(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).key).state
    return views


def test_first_in_flight_alt_text_says_what_the_player_is_doing_in_words() -> None:
    """Issue 28: "bob is deciding (pick)", "(cleanup)" and "dave is landed" read as code. Every
    decision is described as the status bar words it, and a Flight as whose Flight did what."""
    names = ["Alice", "Bob"]
    seen_steps, seen_flights = set(), set()
    for view in _fif_views(2, seed=3):
        text = alt.first_in_flight(view, names)
        assert "(" not in text.split("Records:")[0], text  # no engine step in brackets
        assert " is landed" not in text and " is crashed" not in text, text
        if view.deciding is not None and not view.over:
            words = STEP_WORDS[view.step]
            assert f"{names[view.deciding]} is {words}." in text
            seen_steps.add(view.step)
        if view.flight is not None:
            state = "crashed" if view.flight.crashed else "has landed" if view.flight.landed else ""
            assert f"{names[view.flight.seat]}'s Flight {state or 'is in the air'}:" in text
            seen_flights.add(state)
    assert {"pick", "cleanup"} <= seen_steps and len(seen_flights) >= 2


def test_flight_alt_text_names_the_stop_the_board_frames_in_orange() -> None:
    """Each flight under way says its next stop, the one the board frames in orange."""
    game = GAMES["flight"]
    view = game.view(after_moves("flight", 2, 40, seed=4), None)
    assert isinstance(view, FlightGameView)
    under_way = [f for f in view.flights if f.started and not f.landed and not f.blocked]
    assert under_way
    text = alt.flight(view, NAMES[:2])
    for f in under_way:
        stop = next((s for s in f.stops if s.number == f.next_number), None)
        nxt = f"{stop.number} {stop.town}" if stop else "Safe Landing"
        assert f"{f.name}: {f.next_number - 1} of 5 stops, next {nxt}" in text, text


def test_replay_alt_text_says_who_won_the_final_scores_and_the_length() -> None:
    """Not only "Replay of Takeoff! game #1 — 169 turns": the winner and every final score."""
    won = Outcome(scores=(42, -3), ranks=(1, 2), winners=(0,))
    text = alt.replay_alt("Takeoff! game #1", ["alice", "bob"], 169, won)
    assert text == (
        "Animated replay of Takeoff! game #1, 169 turns from the deal to the end. alice won. "
        "Final scores: alice 42 points, bob \u22123 points."
    )
    shared = Outcome(scores=(5, 5, 1), ranks=(1, 1, 3), winners=(0, 1))
    text = alt.replay_alt("Flight game #2", ["a", "b", "c"], 1, shared)
    assert "1 turn from" in text and "a and b shared the win. Final scores: a 5 points, b 5" in text
    record = Outcome(scores=(30,), ranks=(2,), winners=(), ending=_automa_ending())
    text = alt.replay_alt("First in Flight game #3", ["wilbur"], 80, record, score_word="record")
    assert "Gustave won. Final scores: wilbur record 30." in text
    going = alt.replay_alt("Takeoff! game #4", ["a", "b"], 12, None)
    assert going.endswith("to the latest move; the game is still going.")
    dropped = alt.replay_alt("Takeoff! game #5", ["a", "b"], 12, None, abandoned=True)
    assert "abandoned" in dropped and "still going" not in dropped


def _automa_ending() -> Ending:
    """Gustave won alone."""
    return Ending(winner="automa", kind="highest_record", text="Gustave wins.")


def test_a_replay_still_is_described_as_its_own_picture() -> None:
    """One turn of a replay: which turn, then the alt text of that board."""
    game = GAMES["takeoff"]
    view = game.view(after_moves("takeoff", 2, 10), None)
    picture = alt_text("takeoff", view, ["alice", "bob"])
    text = alt.still_alt("Takeoff! game #1 at turn 3 of 40.", picture)
    assert text.startswith("Takeoff! game #1 at turn 3 of 40. Takeoff! plane,")
