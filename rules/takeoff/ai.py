"""Takeoff! AI levels: easy (random), normal (step lookahead), hard (rollouts of whole plays)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.core import Rng
from rules.core.ai import GameAI, Lookahead, RandomPlayer, canonical_shuffle, guarded
from rules.takeoff import GAME
from rules.takeoff.data import sort_cards
from rules.takeoff.keys import Change, End, format_key, parse_key
from rules.takeoff.scoring import scores
from rules.takeoff.search import TurnSearch
from rules.takeoff.state import TakeoffState
from rules.takeoff.turns import HAND_LIMIT

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


END = format_key(End())


def stalls(state: TakeoffState, seat: int, keys: Sequence[str]) -> frozenset[str]:
    """The keys that would leave the game where it was: an idle end of turn with a full hand."""
    # Nothing played and nothing drawn: two AIs doing that while a change is allowed passed the
    # turn back and forth for ever (issue 26); the rulebook's way on is to change a card.
    idle = END in keys and not state.final_round and not state.played
    full = len(state.hands[seat]) >= HAND_LIMIT
    if idle and full and any(isinstance(parse_key(k), Change) for k in keys):
        return frozenset({END})
    return frozenset()


# Normal and hard never stall (issue 26). Easy stays uniformly random: a random stall is
# followed by a move that makes progress with a chance bounded away from zero, so its games
# end with probability 1 (and in the lengths measured), and the benchmarks against easy stand.
GUARDED = guarded({"normal": NORMAL, "hard": HARD}, stalls, frozenset({"end"}))
AI = GameAI(resample=resample, players={"easy": RandomPlayer(), **GUARDED})
