"""Twin states for AI blindness tests: the same seat's view, different hidden facts.

A twin of a state, for one seat, redraws everything that seat cannot see (the deck orders,
the other hands, face-down cards and their names, the game's future random draws) and keeps
everything it can. An AI that is blind to hidden facts must choose the same key in both.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules import get_game
from rules.core import Game, Rng
from rules.core.ai import Resample, decide

Twin = Callable[[Any, int, random.Random], Any]


def _future(state: Any, rng: random.Random) -> Rng:
    """Other future random draws (the counter of draws so far is kept)."""
    return Rng(seed=rng.getrandbits(62), counter=state.rng.counter)


def takeoff_twin(state: Any, seat: int, rng: random.Random) -> Any:
    """Deal the rival's hand (unless a Pinch shows it), the deck and the discards under the top
    card afresh from their pooled cards."""
    from rules.takeoff.data import sort_cards

    rival = 1 - seat
    shown = state.pending is not None and state.pending.card == "pinch" and state.turn == seat
    hand = () if shown else state.hands[rival]
    pool = [*hand, *state.deck, *state.discard[:-1]]
    rng.shuffle(pool)
    hands = list(state.hands)
    if not shown:
        hands[rival], pool = sort_cards(pool[: len(hand)]), pool[len(hand) :]
    deck, pool = tuple(pool[: len(state.deck)]), pool[len(state.deck) :]
    return state.model_copy(
        update={
            "hands": tuple(hands),
            "deck": deck,
            "discard": (*pool, *state.discard[-1:]),
            "rng": _future(state, rng),
        }
    )


def flight_twin(state: Any, seat: int, rng: random.Random) -> Any:
    """Deal the other hands, the pack and the discards under the exposed one afresh."""
    from rules.flight.data import sort_cards

    others = [s for s in range(state.players) if s != seat]
    pool = [*(c for s in others for c in state.hands[s]), *state.pack, *state.discards[:-1]]
    rng.shuffle(pool)
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
            "rng": _future(state, rng),
        }
    )


def fif_twin(state: Any, seat: int, rng: random.Random) -> Any:
    """Reorder every deck (but the top the seat has looked at), rename the face-down flaws
    ("name*") from the face-down flaw deck, reorder the Upgrade and Development decks, and
    give the other seats the tops of their new decks as what they have looked at. The
    Development discards stay: they were discarded face up."""
    decks = []
    for s, mat in enumerate(state.seats):
        keep = len(mat.known_top) if s == seat else 0
        rest = list(mat.deck[keep:])
        rng.shuffle(rest)
        decks.append((list(mat.deck[:keep]), rest, list(mat.garage)))
    unseen = [c for _, rest, garage in decks for c in (*rest, *garage) if c.endswith("*")]
    names = [c[:-1] for c in unseen] + list(state.flaw_deck)
    rng.shuffle(names)
    seats = []
    for s, (head, rest, garage) in enumerate(decks):
        rest = [names.pop() + "*" if c.endswith("*") else c for c in rest]
        garage = [names.pop() + "*" if c.endswith("*") else c for c in garage]
        mat = state.seats[s]
        deck = (*head, *rest)
        known = mat.known_top if s == seat else deck[: len(mat.known_top)]
        seats.append(
            mat.model_copy(update={"deck": deck, "garage": tuple(garage), "known_top": known})
        )
    upgrades = list(state.upgrade_deck)
    rng.shuffle(upgrades)
    return state.model_copy(
        update={
            "seats": tuple(seats),
            "flaw_deck": tuple(names),
            "upgrade_deck": tuple(upgrades),
            "dev_decks": tuple(tuple(rng.sample(d, len(d))) for d in state.dev_decks),
            "rng": _future(state, rng),
        }
    )


TWINS: dict[str, Twin] = {
    "takeoff": takeoff_twin,
    "flight": flight_twin,
    "first-in-flight": fif_twin,
}


@dataclass(frozen=True)
class Position:
    """A state reached by random play, the seat to act, and the AI seed of its decision."""

    game_id: str
    seed: int
    players: int
    step: int
    state: Any = field(repr=False)
    seat: int


def _choices(game: Game, seed: int, players: int) -> Iterator[tuple[int, Any]]:
    """The states of one game played at random to its end where the seat to act has a choice
    (two or more legal actions), with their step numbers."""
    rng = random.Random(f"twins:{seed}")
    state = game.new_game(seed, players, None)
    step = 0
    while active := game.active_players(state):
        legal = game.legal_actions(state, active[0])
        if len(legal) > 1:
            yield step, state
        state = game.apply(state, active[0], rng.choice(legal).key).state
        step += 1


def positions(game_id: str, first_seed: int, count: int, per_game: int = 10) -> list[Position]:
    """`count` random positions with a real choice (two or more legal actions), `per_game` from
    each of the random games seeded `first_seed`, `first_seed + 1`, … with random player counts."""
    game = get_game(game_id)
    found: list[Position] = []
    seed = first_seed
    while len(found) < count:
        pick = random.Random(f"positions:{game_id}:{seed}")
        players = pick.randint(game.min_players, game.max_players)
        choices = list(_choices(game, seed, players))
        for step, state in sorted(pick.sample(choices, min(per_game, len(choices)))):
            seat = game.active_players(state)[0]
            found.append(Position(game_id, seed, players, step, state, seat))
        seed += 1
    return found[:count]


@dataclass(frozen=True)
class Mismatch:
    """A position where the AI chose differently in the twin."""

    position: Position
    real: str
    twin: str

    def __str__(self) -> str:
        """Where, and the two choices."""
        p = self.position
        return (
            f"{p.game_id} seed {p.seed} ({p.players} p) step {p.step} seat {p.seat}: "
            f"{self.real!r} vs {self.twin!r} in the twin"
        )


def twin_of(position: Position, which: int = 0) -> Any:
    """The `which`-th twin of the position's state: its cards differ in some hidden fact, and
    it looks the same to the seat (same view, same legal actions)."""
    game = get_game(position.game_id)
    state, seat = position.state, position.seat
    for attempt in range(5):
        rng = random.Random(f"twin:{position.seed}:{position.step}:{which}:{attempt}")
        twin = TWINS[position.game_id](state, seat, rng)
        if twin.model_copy(update={"rng": state.rng}) != state:
            break
    assert twin.model_copy(update={"rng": state.rng}) != state, f"nothing hidden: {position}"
    assert game.view(twin, seat) == game.view(state, seat), "the seat must not see the twin"
    assert game.legal_actions(twin, seat) == game.legal_actions(state, seat)
    return twin


def twin_mismatches(level: str, found: list[Position], twins: int = 1) -> list[Mismatch]:
    """The positions where `decide` at `level` chose differently in one of `twins` twins of
    the state (the first such twin is reported).

    Every decision gets the same AI inputs — view, legal actions, AI seed (the position's game
    seed), action count and seat — so only the hidden facts differ.
    """
    out: list[Mismatch] = []
    for position in found:
        game = get_game(position.game_id)
        args = (position.seat, level, position.seed, position.step)
        real = decide(game, position.state, *args)
        for which in range(twins):
            other = decide(game, twin_of(position, which), *args)
            if real != other:
                out.append(Mismatch(position, real, other))
                break
    return out


def sample_mismatches(found: list[Position], resample: Resample) -> list[Position]:
    """The positions where a determinisation drawn with the same generator differs between the
    state and its twin (a blind one is a function of the seat's view and the generator alone)."""
    out: list[Position] = []
    for position in found:
        twin = twin_of(position)
        for k in range(3):
            real = resample(position.state, position.seat, random.Random(k))
            other = resample(twin, position.seat, random.Random(k))
            if real != other:
                out.append(position)
                break
    return out
