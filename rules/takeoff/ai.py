"""Takeoff! AI levels: easy (random), normal (step lookahead), hard (rollouts of whole plays)."""

from __future__ import annotations

import random

from rules.core import Rng
from rules.core.ai import GameAI, Lookahead, RandomPlayer, canonical_shuffle
from rules.takeoff import GAME
from rules.takeoff.data import sort_cards
from rules.takeoff.scoring import scores
from rules.takeoff.search import TurnSearch
from rules.takeoff.state import TakeoffState

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


NORMAL = Lookahead(GAME, evaluate, samples=3, depth=3, vouch=True)
# Hard: whole plays screened by their immediate value, then valued by greedy rollouts of the
# rest of the turn and the next turns on 8 determinisations, on a fast simulator of the rules
# (rules/takeoff/search.py, rules/takeoff/fast.py). The lookahead of 16 continuations (the
# previous hard) is kept as the fallback for a step no option could be matched to.
HARD = TurnSearch(
    width=6, samples=8, turns=3, fallback=Lookahead(GAME, evaluate, samples=16, depth=3)
)

AI = GameAI(resample=resample, players={"easy": RandomPlayer(), "normal": NORMAL, "hard": HARD})
