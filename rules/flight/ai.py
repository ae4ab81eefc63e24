"""Flight AI levels: easy (random), normal (step lookahead), hard (Monte-Carlo rollouts)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.core import Action, Rng
from rules.core.ai import (
    GameAI,
    MonteCarlo,
    RandomPlayer,
    Seen,
    canonical_shuffle,
    guarded,
    preferred,
)
from rules.flight import GAME
from rules.flight.data import card, hand_points, sort_cards
from rules.flight.keys import Discard, Done, Draw, Play, format_key, parse_key
from rules.flight.state import FlightState
from rules.flight.turn import do_draw

WIN_BONUS = 200.0  # a decided match outweighs any margin


def resample(state: FlightState, seat: int, rng: random.Random) -> FlightState:
    """Redraw what `seat` cannot see: the others' hands, the pack, the discards under the top."""
    others = [s for s in range(state.players) if s != seat]
    under = state.discards[:-1]
    pool = canonical_shuffle(
        [*(c for s in others for c in state.hands[s]), *state.pack, *under], rng
    )
    hands = list(state.hands)
    for s in others:
        size = len(state.hands[s])
        hands[s], pool = sort_cards(pool[:size]), pool[size:]
    pack, pool = tuple(pool[: len(state.pack)]), pool[len(state.pack) :]
    return state.model_copy(
        update={
            "hands": tuple(hands),
            "pack": pack,
            "discards": (*pool, *state.discards[-1:]),
            "rng": Rng(seed=rng.getrandbits(62)),
        }
    )


def evaluate(state: FlightState, seat: int) -> float:
    """Score minus cards held, against the best rival; the match result once decided."""
    worth = [state.scores[s] - hand_points(state.hands[s]) for s in range(state.players)]
    margin = float(worth[seat] - max(w for s, w in enumerate(worth) if s != seat))
    if state.over:
        margin += WIN_BONUS if seat in state.winners else -WIN_BONUS
    return margin


PLAY_ORDER = {"landing": 0, "route": 1, "aeroplane": 1, "alt": 2, "passport": 2}


def _wanted(state: FlightState, code: str) -> bool:
    """True when the card would extend a flight now (the next Route card, a new Aeroplane)."""
    info = card(code)
    if info.kind == "landing":
        return True
    if info.route is None:
        return False
    flight = state.flight(info.route)
    if info.kind == "aeroplane":
        return not flight.started
    return flight.started and flight.next_number == info.number


TAKE, PACK = format_key(Draw("discard")), format_key(Draw("pack"))
DONE = format_key(Done())


def stalls(state: FlightState, seat: int, keys: Sequence[str]) -> frozenset[str]:
    """The keys that would leave the game where it was: a take that nothing can be played after."""
    # Such a turn can only discard again: AIs doing that passed the same cards round for ever
    # (issue 26). With it barred, every turn plays a card or draws from the pack, so a card the
    # table needs soon reaches a hand and is played: each hand ends with a Safe Landing.
    if TAKE in keys and PACK in keys and do_draw(state, seat, "discard")[0].step.phase != "play":
        return frozenset({TAKE})
    return frozenset()


def policy(state: FlightState, seat: int, legal: list[Action], rng: random.Random) -> str:
    """Rules of thumb from the seat's own hand and the table only.

    Land whenever possible, play Route cards before obstacles, take the exposed discard only
    when it extends a flight and something can be played after it, and discard the most
    expensive card nobody can use soon.
    """
    keys = [a.key for a in legal]
    if TAKE in keys or PACK in keys:  # (the guard may have taken the take away)
        take = TAKE in keys and _wanted(state, state.discards[-1])
        take = take and not stalls(state, seat, keys)
        return TAKE if take or PACK not in keys else PACK
    parsed = {k: parse_key(k) for k in keys}
    plays = {k: p.card for k, p in parsed.items() if isinstance(p, Play)}
    if plays:
        ranked = sorted(plays, key=lambda k: (PLAY_ORDER.get(card(plays[k]).kind, 3), k))
        best = ranked[0]
        if PLAY_ORDER.get(card(plays[best]).kind, 3) < 3 or DONE not in keys:
            return best
        return DONE
    discards = {k: p.card for k, p in parsed.items() if isinstance(p, Discard)}
    if discards:
        return max(discards, key=lambda k: (_discard_worth(state, discards[k]), rng.random()))
    return rng.choice(preferred(legal, frozenset({"cancel"}))).key


def _discard_worth(state: FlightState, code: str) -> float:
    """How glad we are to be rid of a card: its points, less if it may be played soon."""
    info = card(code)
    if info.kind == "landing":
        return -100.0
    worth = float(info.points)
    if _wanted(state, code):
        worth -= 20.0
    return worth


class Normal:
    """Level normal: the rules of thumb, applied to one determinisation."""

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """The policy's pick."""
        return policy(seen.sample(rng), seen.seat, list(seen.legal), rng)


HARD = MonteCarlo(GAME, evaluate, policy=policy, iterations=6, horizon=45, width=6)

# Normal and hard never stall (issue 26). Easy stays uniformly random: a random stall is
# followed by a move that makes progress with a chance bounded away from zero, so its games
# end with probability 1 (and in the lengths measured), and the benchmarks against easy stand.
GUARDED = guarded({"normal": Normal(), "hard": HARD}, stalls, frozenset({TAKE}))
AI = GameAI(resample=resample, players={"easy": RandomPlayer(), **GUARDED})
