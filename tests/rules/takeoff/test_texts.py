"""Texts, options and the Discord limits of every step (DESIGN.md §2 and §4)."""

from __future__ import annotations

import random

import pytest

from rules.core import IllegalActionError, InvalidOptionsError
from rules.takeoff import GAME, Options

from .helpers import BL, Y, keys, play, rig


def test_rules_topics_fit_one_discord_message() -> None:
    """Every topic is ≤ 1800 characters; the overview labels the stand-in data."""
    topics = GAME.rules_topics()
    assert {"overview", "turn", "tickets", "events", "scoring", "end"} <= set(topics)
    for topic in topics:
        assert 0 < len(GAME.rules_text(topic)) <= 1800
    assert "stand-in" in GAME.rules_text(None)
    assert "Topics" in GAME.rules_text("nonsense")


def test_options_have_descriptions_defaults_and_bounds() -> None:
    """The bot builds slash-command options from the model: each field is described."""
    for name in ("scoring", "business_rows", "row_rule"):
        assert Options.model_fields[name].description
    assert Options() == Options(scoring="B", business_rows=3, row_rule="numbered")
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(1, 2, {"business_rows": 7})


def test_business_rows_option_moves_the_red_carpet() -> None:
    """Option business_rows: rows 1..n are Business, so Economy events avoid them."""
    state = rig(hands=(("family",), ()), options={"business_rows": 5})
    assert [r.business for r in GAME.view(state, None).rows][4:6] == [True, False]
    state, _ = play(state, Y, "play:family")
    assert "side:5ABC" not in keys(state) and "side:6ABC" in keys(state)


def test_new_game_deals_three_cards_and_four_tickets() -> None:
    """Preparation: 54 cards, three in each hand, four tickets each."""
    state = GAME.new_game(5, 2, None)
    assert [len(h) for h in state.hands] == [3, 3] and len(state.deck) == 48
    assert state.tickets == (4, 4) and state.pass_number == 1
    view = GAME.view(state, None)
    assert view.players == 2 and view.hand == () and view.hand_sizes == (3, 3)
    assert len(GAME.view(state, state.turn).hand) == 3


@pytest.mark.parametrize("seed", range(4))
def test_every_step_fits_discord_components(seed: int) -> None:
    """≤ 25 actions a step, ≤ 5 buttons, labels ≤ 80, descriptions ≤ 100, prompts non-empty."""
    state = GAME.new_game(seed, 2, {"row_rule": "single"} if seed % 2 else None)
    chooser = random.Random(seed)
    while not state.over:
        actions = GAME.legal_actions(state, state.turn)
        assert len(actions) <= 25
        assert len([a for a in actions if not a.group]) <= 5
        assert all(len(a.label) <= 80 and len(a.description) <= 100 for a in actions)
        assert GAME.prompt(state, state.turn) and GAME.prompt(state, 1 - state.turn)
        state = GAME.apply(state, state.turn, chooser.choice(actions)).state
    assert "over" in GAME.prompt(state, Y)


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("play:stretcher", "do not hold"),
        ("play:nonsense", "no card called"),
        ("seat:4A", "No play is in progress"),
        ("decline", "only possible in the last turns"),
        ("change:window", "exactly 5"),
    ],
)
def test_refusals_say_why(key: str, reason: str) -> None:
    """explain_illegal gives the precise reason a player needs."""
    state = rig(hands=(("window",), ("aisle",)))
    with pytest.raises(IllegalActionError, match=reason):
        GAME.apply(state, Y, key)
    assert GAME.explain_illegal(state, Y, key)
    assert keys(state, BL) == []
