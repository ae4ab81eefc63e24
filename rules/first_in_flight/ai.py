"""First in Flight AI levels: easy (random), normal (the automatic player), hard (rollouts).

`normal` is the simulator's automatic player (auto.py), now fed a determinisation instead of
the true state, so it can no longer read its own deck order or face-down flaws. `hard` tries the
automatic player's top candidates with short Monte-Carlo rollouts on fresh determinisations.
"""

from __future__ import annotations

import random
from collections import Counter

from rules.core import Action, Rng
from rules.core.ai import GameAI, RandomPlayer, Seen, canonical_shuffle
from rules.first_in_flight import GAME
from rules.first_in_flight.auto import choose as auto_choose
from rules.first_in_flight.state import Player, State

WIN_BONUS = 30.0


FACE_DOWN = "*"  # an unrevealed flaw as every seat sees it: a flaw, name unknown


def resample(state: State, seat: int, rng: random.Random) -> State:
    """Redraw what `seat` cannot see: deck orders, unrevealed flaws, the draw decks, the RNG.

    The seat keeps the top cards it has looked at (`known_top`); every other deck is shuffled,
    and the other seats forget what they looked at (`seat` did not see it). Every shuffle starts
    from what the seat sees: a deck's cards with unrevealed flaws masked (the public
    composition), and the names of the flaws nobody has seen as a multiset; those names are then
    dealt to the masked flaws in any deck or Garage.
    """
    kept = len(state.seats[seat].known_top)
    flaws = canonical_shuffle(_unseen_flaws(state, seat, kept), rng)
    seats = []
    for s, mat in enumerate(state.seats):
        keep = kept if s == seat else 0
        # The true names must not order the shuffle: sorting "power_failure*" before
        # "upgrade_2" put the seat's known cards in places that depended on hidden names.
        rest = canonical_shuffle([_masked(c) for c in mat.deck[keep:]], rng)
        deck, flaws = _rename(list(mat.deck[:keep]), rest, flaws)
        garage, flaws = _rename([], [_masked(c) for c in mat.garage], flaws)
        known = mat.known_top if s == seat else ()
        update = {"deck": tuple(deck), "garage": (garage[0], garage[1]), "known_top": known}
        seats.append(mat.model_copy(update=update))
    return state.model_copy(
        update={
            "seats": tuple(seats),
            "flaw_deck": tuple(flaws),
            "upgrade_deck": tuple(canonical_shuffle(state.upgrade_deck, rng)),
            "dev_decks": tuple(tuple(canonical_shuffle(d, rng)) for d in state.dev_decks),
            "rng": Rng(seed=rng.getrandbits(62)),
        }
    )


def _masked(card: str) -> str:
    """A card as the table sees it: an unrevealed flaw loses its name."""
    return FACE_DOWN if card.endswith("*") else card


def _unseen_flaws(state: State, seat: int, kept: int) -> list[str]:
    """Names of the flaws `seat` has not seen: face down in a deck or Garage (but its own
    looked-at top) or in the flaw deck. As a multiset it follows from what the seat sees (every
    flaw less the revealed ones and those it looked at), so sorting it leaks nothing."""
    names = [
        c[:-1]
        for s, m in enumerate(state.seats)
        for c in (*m.deck[kept if s == seat else 0 :], *m.garage)
        if c.endswith("*")
    ]
    return [*names, *state.flaw_deck]


def _rename(head: list[str], cards: list[str], flaws: list[str]) -> tuple[list[str], list[str]]:
    """`head` + `cards` with each unrevealed flaw renamed from the front of `flaws`."""
    out = list(head)
    for card in cards:
        if card.endswith("*"):
            out.append(flaws[0] + "*")
            flaws = flaws[1:]
        else:
            out.append(card)
    return out, flaws


def _record(mat: Player) -> int:
    """A seat's record so far."""
    return mat.record


def evaluate(state: State, seat: int) -> float:
    """Own record against the best rival's (Gustave included); the result once over."""
    rivals = [m.record for s, m in enumerate(state.seats) if s != seat]
    if state.gustave:
        rivals.append(state.gustave_record)
    margin = float(state.seats[seat].record - max(rivals, default=0))
    if state.over:
        outcome = GAME.outcome(state)
        won = outcome is not None and seat in outcome.winners
        margin += WIN_BONUS if won else -WIN_BONUS
    return margin


def policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> str:
    """The automatic player on a (determinised) state."""
    return auto_choose(state, seat, legal, rng)


class Normal:
    """Level normal: the automatic player on one determinisation."""

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """The automatic player's pick."""
        return policy(seen.sample(rng), seen.seat, list(seen.legal), rng)


LYING_COST = 2.0  # a crash lays the pawn down: Recover costs Time later


class Hard:
    """Level hard: the automatic player, improved where it guesses.

    In its own Flight (push your luck) each choice is played out to the end of the Flight on
    `iterations` fresh determinisations and the best mean record wins; elsewhere the automatic
    player's choice is taken by a vote over `votes` determinisations, so it plays on what the
    seat may expect rather than on one guess at its face-down flaws.
    """

    iterations = 16
    votes = 5
    horizon = 40

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """A rollout choice in a Flight, else the vote."""
        keys = [a.key for a in seen.legal]
        first = seen.sample(rng)
        flying = first.flight is not None and first.flight.seat == seen.seat
        if flying and _deciding_in_flight(first, keys):
            return self._push_luck(seen, keys, rng)
        votes = Counter(
            policy(seen.sample(rng), seen.seat, list(seen.legal), rng) for _ in range(self.votes)
        )
        return max(keys, key=lambda k: (votes[k], -keys.index(k)))

    def _push_luck(self, seen: Seen, keys: list[str], rng: random.Random) -> str:
        """The Flight choice with the best mean outcome over played-out Flights."""
        totals = dict.fromkeys(keys, 0.0)
        for _ in range(self.iterations):
            state = seen.sample(rng)
            record = state.seats[seen.seat].record
            for key in keys:
                end = self._fly_out(GAME.apply(state, seen.seat, key).state, seen.seat, rng)
                totals[key] += _flight_value(end, seen.seat, record)
        return max(keys, key=lambda k: (totals[k], -keys.index(k)))

    def _fly_out(self, state: State, seat: int, rng: random.Random) -> State:
        """Let the automatic player finish this Flight."""
        for _ in range(self.horizon):
            f = state.flight
            if f is None or f.seat != seat or f.done:
                break
            key = policy(state, seat, GAME.legal_actions(state, seat), rng)
            state = GAME.apply(state, seat, key).state
        return state


def _deciding_in_flight(state: State, keys: list[str]) -> bool:
    """True at a push-your-luck choice of the seat's own Flight: the flight step itself, or an
    ability menu opened from it. The menu is judged by the same rollouts that chose to open it;
    a vote there (the automatic player's other guesses) backed out of it again and again, so the
    Flight went round menu → back → menu (306 times in one 4-player game)."""
    if not state.steps:
        return False
    last = state.steps[-1]
    if last.kind == "flight":
        return "draw" in keys
    return last.kind == "abilities" and any(step.kind == "flight" for step in state.steps[:-1])


def _flight_value(state: State, seat: int, record: int) -> float:
    """The Flight's Distance as the automatic player weighs it, less the cost of a crash.

    Distance beyond the record counts in full; short of it, half (the record stands, but a
    longer Flight still ranks better), as in the automatic player's own lookahead.
    """
    f = state.flight
    distance = float(f.distance if f is not None and f.done else state.seats[seat].record)
    lying = not state.pawns[seat].standing
    worth = max(distance, record + 0.5 * (distance - record))
    return worth - (LYING_COST if lying else 0.0)


AI = GameAI(resample=resample, players={"easy": RandomPlayer(), "normal": Normal(), "hard": Hard()})
