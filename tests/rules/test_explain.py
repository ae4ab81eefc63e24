"""Coaching texts (issue 31): every offered move of every game is explained in players' words,
and a hint is the same for two states that differ only in what the asker cannot see."""

from __future__ import annotations

import random
from functools import cache

import pytest

from rules import GAMES, get_game
from rules.core.explain import explain_options, hint, internal_words, score_changes
from tests.support.twins import Position, positions, twin_of

GAMES_PLAYED = {"takeoff": 2}  # whole random games per game (random player counts); default 6
HINT_POSITIONS = 24  # per game: positions where the asker has a real choice


def _whole_games(gid: str) -> list[tuple[object, int]]:
    """Every decision of a few random games played to their end: (state, seat)."""
    game = get_game(gid)
    found: list[tuple[object, int]] = []
    for seed in range(GAMES_PLAYED.get(gid, 6)):
        rng = random.Random(f"explain:{gid}:{seed}")
        players = rng.randint(game.min_players, game.max_players)
        state = game.new_game(seed, players, None)
        while active := game.active_players(state):
            found.append((state, active[0]))
            legal = game.legal_actions(state, active[0])
            state = game.apply(state, active[0], rng.choice(legal).key).state
        assert game.outcome(state) is not None
    return found


@pytest.mark.long
@pytest.mark.parametrize("gid", list(GAMES))
def test_every_offered_move_of_whole_games_is_explained_in_players_words(gid: str) -> None:
    """Each legal action at each decision gets its own sentence(s) naming a rules topic, and
    no explanation holds an engine word (snake_case, key strings, None, unfilled names)."""
    game = get_game(gid)
    topics = {t.lower() for t in [*game.rules_topics(), "overview"]}
    leaks: dict[str, list[str]] = {}
    explained = 0
    for state, seat in _whole_games(gid):
        for action, text in explain_options(game, state, seat):
            explained += 1
            assert text and text != f"{action.label}.", f"{action.key} is not explained"
            assert "(Rules: " in text, text
            topic = text.rsplit("(Rules: ", 1)[1].rstrip(".)").lower()
            assert topic in topics, f"{text!r} names no rules topic of {game.title}"
            if internal_words(text):
                leaks[text] = internal_words(text)
    assert explained > 500
    assert not leaks, leaks


def test_the_internal_word_scan_catches_engine_words() -> None:
    """The scan itself: step names, key strings, None and placeholders are caught."""
    for bad in ("Open menu:skill", "the any_target step", "None left", "{seat0} wins"):
        assert internal_words(bad), bad
    assert internal_words("Pay 2 Money. X=2: look at 2 Upgrade cards. (Rules: actions.)") == []


@cache
def _hint_positions(gid: str) -> list[Position]:
    """Positions with a real choice, from far-apart random games."""
    return positions(gid, first_seed=7000, count=HINT_POSITIONS, per_game=4)


@pytest.mark.long
@pytest.mark.parametrize("gid", list(GAMES))
def test_a_hint_is_the_same_for_twins_that_differ_only_in_hidden_facts(gid: str) -> None:
    """The hard AI's move and its numbers come from what the asker sees: a twin that redraws
    every hidden fact (tests/support/twins.py) gets the very same hint text."""
    game = get_game(gid)
    differ = []
    for position in _hint_positions(gid):
        twin = twin_of(position)
        seed, version = position.seed, position.step
        mine = hint(game, position.state, position.seat, seed, version)
        theirs = hint(game, twin, position.seat, seed, version)
        assert mine.key in {a.key for a in game.legal_actions(position.state, position.seat)}
        assert mine.text.startswith("💡") and "Expected" in mine.text
        if mine != theirs:
            differ.append((position, mine.text, theirs.text))
    assert not differ, differ


def test_the_twin_check_would_catch_a_hint_that_peeks() -> None:
    """Control: numbers read from the true state differ between twins somewhere."""
    from rules.core.explain import explainer

    game = get_game("flight")
    ex = explainer("flight")
    seen_differently = False
    for position in _hint_positions("flight"):
        twin = twin_of(position)
        rival = (position.seat + 1) % position.players
        if ex.points(position.state, rival) != ex.points(twin, rival):
            seen_differently = True
            break
    assert seen_differently, "twins never differ in a rival's hidden hand: the check is blind"
    assert game.id == "flight"


def test_the_last_move_names_each_score_change_and_its_rule() -> None:
    """Takeoff!: seating a passenger shows '{seatN}: +k points — … (Rules: scoring.)'."""
    game = get_game("takeoff")
    rng = random.Random(3)
    state = game.new_game(3, 2, None)
    for _ in range(400):
        seat = game.active_players(state)[0]
        after = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).key).state
        lines = score_changes(game, state, after)
        if lines:
            assert all(line.startswith("{seat") for line in lines), lines
            assert all("(Rules: scoring.)" in line for line in lines), lines
            assert not any(internal_words(line.split(": ", 1)[1]) for line in lines), lines
            return
        state = after
    raise AssertionError("no move scored in 400 random moves")
