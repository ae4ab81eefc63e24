"""Flight AI levels: easy (random), normal (step lookahead), hard (Monte-Carlo rollouts)."""

from __future__ import annotations

import random

from rules.core import Action, Rng
from rules.core.ai import GameAI, MonteCarlo, RandomPlayer, Seen, canonical_shuffle, preferred
from rules.flight import GAME
from rules.flight.data import card, hand_points, sort_cards
from rules.flight.state import FlightState

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


def policy(state: FlightState, seat: int, legal: list[Action], rng: random.Random) -> str:
    """Rules of thumb from the seat's own hand and the table only.

    Land whenever possible, play Route cards before obstacles, take the exposed discard only
    when it extends a flight, and discard the most expensive card nobody can use soon.
    """
    keys = [a.key for a in legal]
    if "draw:discard" in keys:
        wanted = state.discards and _wanted(state, state.discards[-1])
        return "draw:discard" if wanted else "draw:pack"
    plays = [k for k in keys if k.startswith("play:")]
    if plays:
        ranked = sorted(plays, key=lambda k: (PLAY_ORDER.get(card(k[5:]).kind, 3), k))
        best = ranked[0]
        if PLAY_ORDER.get(card(best[5:]).kind, 3) < 3 or "done" not in keys:
            return best
        return "done"
    discards = [k for k in keys if k.startswith("discard:")]
    if discards:
        return max(discards, key=lambda k: (_discard_worth(state, k[8:]), rng.random()))
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

AI = GameAI(resample=resample, players={"easy": RandomPlayer(), "normal": Normal(), "hard": HARD})
