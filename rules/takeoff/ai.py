"""Takeoff! AI levels: easy (random), normal (step lookahead), hard (lookahead, richer value)."""

from __future__ import annotations

import random
from typing import Any

from rules.core import Rng
from rules.core.ai import GameAI, Lookahead, RandomPlayer, canonical_shuffle
from rules.takeoff import GAME
from rules.takeoff.data import BUSINESS_CARD, sort_cards
from rules.takeoff.keys import End, format_key
from rules.takeoff.scoring import scores
from rules.takeoff.state import TakeoffState
from rules.takeoff.turns import PASSES

WIN_BONUS = 40.0  # a finished game counts its result far above any point margin


def resample(state: TakeoffState, seat: int, rng: random.Random) -> TakeoffState:
    """Redraw what `seat` cannot see: the rival's hand, the deck, the discard under its top card."""
    other = 1 - seat
    pinch_look = state.pending is not None and state.pending.card == "pinch" and state.turn == seat
    rival = () if pinch_look else state.hands[other]
    under = state.discard[:-1]
    pool = canonical_shuffle([*rival, *state.deck, *under], rng)
    if not pinch_look:
        rival, pool = tuple(pool[: len(rival)]), pool[len(rival) :]
    deck, pool = tuple(pool[: len(state.deck)]), pool[len(state.deck) :]
    discard = (*pool, *state.discard[-1:])
    hands = list(state.hands)
    hands[other] = state.hands[other] if pinch_look else sort_cards(rival)
    return state.model_copy(
        update={
            "hands": (hands[0], hands[1]),
            "deck": deck,
            "discard": discard,
            "rng": Rng(seed=rng.getrandbits(62)),
        }
    )


def evaluate(state: TakeoffState, seat: int) -> float:
    """Point margin for `seat`, plus the result once the game is over."""
    points = scores(state.board, state.options.scoring, state.options.business_rows)
    margin = float(points[seat] - points[1 - seat])
    if state.over:
        margin += WIN_BONUS if margin > 0 else -WIN_BONUS if margin < 0 else 0.0
    return margin


NORMAL = Lookahead(GAME, evaluate, samples=3, depth=3)

# Hard values what the point margin misses: resources kept for later. Measured in the arena
# (docs/AI.md): these terms lifted hard over normal, while board-shape terms (own open rows,
# protected rows) measured worse and were dropped.
RED_CARD = 2.0  # a Business-Class card kept: a Business aisle seat earns 5 points, not 2
TICKET = 1.5  # a captain's ticket kept: spent only on a seat worth more than that
FADE = 30.0  # kept resources lose their value over the game's last 30 draws
PASS_CARDS = 50  # about the cards each later pass of the draw pile holds
END = format_key(End())


def fade(state: TakeoffState) -> float:
    """1 while much of the game is left, falling to 0 over the last draws and in the last turns."""
    if state.final_round:
        return 0.0
    left = len(state.deck) + PASS_CARDS * (PASSES - state.pass_number)
    return min(1.0, left / FADE)


def evaluate_hard(state: TakeoffState, seat: int) -> float:
    """The margin plus the seat's kept Business-Class cards and captain's tickets."""
    value = evaluate(state, seat)
    if state.over:
        return value
    kept = RED_CARD * state.hands[seat].count(BUSINESS_CARD) + TICKET * state.tickets[seat]
    return value + fade(state) * kept


class HardLookahead(Lookahead):
    """The lookahead, except that a plain end of turn is valued as the state before it."""

    def value(self, state: Any, seat: int, key: str, base: float, rng: random.Random) -> float:
        """Lookahead.value, but ending the turn outside the last round scores `base`."""
        # Ending draws a card, and valuing a sampled draw would favour ending whenever the
        # determinisation happens to put a Business-Class card on top of the pile.
        if key == END and not state.final_round:
            return base
        return super().value(state, seat, key, base, rng)


# Hard: the wide lookahead (16 continuations per candidate) with the richer value.
HARD = HardLookahead(GAME, evaluate_hard, samples=16, depth=3)

AI = GameAI(resample=resample, players={"easy": RandomPlayer(), "normal": NORMAL, "hard": HARD})
