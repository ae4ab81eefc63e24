"""Alt text of every game's pictures: whose turn, the scores, the last move, within 1,024."""

from __future__ import annotations

import pytest

from bot.render import alt_text
from bot.render.samples import after_moves, final
from rules import GAMES

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
