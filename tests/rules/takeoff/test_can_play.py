"""`can_play` asks whether a card has any target without listing them: it must agree with the
full target list in every position random play reaches."""

from __future__ import annotations

import random

import pytest

from rules import GAMES
from rules.takeoff.data import EVENTS, SEAT_CARDS
from rules.takeoff.targets import can_play, targets

GAME = GAMES["takeoff"]
# Pinch (it needs a rival hand) and the column card (it acts on a whole column) have no targets.
LISTED = [card for card, spec in EVENTS.items() if spec.kind != "pinch" and spec.shape != "column"]
CARDS = ["ticket", *(card for card in SEAT_CARDS if card != "business"), *LISTED]


@pytest.mark.parametrize("seeds", [range(n, 20, 5) for n in range(5)], ids=str)
def test_can_play_agrees_with_the_target_lists(seeds: range) -> None:
    """For every card and both players, in 20 random games (four per test, so that the test
    workers share them): playable ⇔ some first-step target (the column card and Pinch are
    decided without targets)."""
    checked = 0
    for seed in seeds:
        state = GAME.new_game(seed, 2, None)
        rng = random.Random(seed)
        while not state.over:
            for player in (0, 1):
                for card in CARDS:
                    expected = bool(targets(state, player, card, ()))
                    assert can_play(state, player, card) == expected, (seed, player, card)
                    checked += 1
            seat = GAME.active_players(state)[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)).key).state
    assert checked > 2_000
