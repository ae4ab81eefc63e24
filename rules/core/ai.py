"""AI players: one small interface, three levels per game, and shared search helpers.

An AI never reads the true game state. It gets a `Seen`: the seat's view, its legal actions and
`sample(rng)`, a determinisation — a full state in which every fact the seat cannot see (others'
hands, deck order, face-down cards, the game's future random draws) has been redrawn from the
pool of unseen things. Each game's `resample` builds that pool only from what the seat may know,
so the choice cannot depend on hidden facts (tests shuffle hidden facts and compare choices).
Search budgets are fixed counts, never wall time, so a choice replays exactly.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol

from pydantic import BaseModel

from rules.core.game import Game
from rules.core.model import Action

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "hard")
LEVEL_NAMES = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}

Resample = Callable[[Any, int, random.Random], Any]
Evaluate = Callable[[Any, int], float]


@dataclass(frozen=True)
class Seen:
    """What one seat knows when it must act: its view, its legal actions, determinisations."""

    game: Game
    seat: int
    legal: tuple[Action, ...]
    _state: Any = field(repr=False)
    _resample: Resample = field(repr=False)

    @cached_property
    def view(self) -> BaseModel:
        """The seat's view (built on first use: some views are costly)."""
        view: BaseModel = self.game.view(self._state, self.seat)
        return view

    def sample(self, rng: random.Random) -> Any:
        """A full state consistent with this seat's view; hidden facts drawn from `rng`."""
        return self._resample(self._state, self.seat, rng)


class Player(Protocol):
    """An AI level: picks the key of one legal action."""

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """The key of the chosen action (one of `seen.legal`)."""
        ...


@dataclass(frozen=True)
class GameAI:
    """What a game's `rules/<game>/ai.py` exports as `AI`."""

    resample: Resample
    players: Mapping[str, Player]


class RandomPlayer:
    """Level easy: a uniformly random legal action."""

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """Any legal key."""
        return rng.choice(seen.legal).key


def game_ai(game_id: str) -> GameAI:
    """The AI module of a game (rules/<game>/ai.py)."""
    module = importlib.import_module(f"rules.{game_id.replace('-', '_')}.ai")
    ai: GameAI = module.AI
    return ai


def for_level(game_id: str, level: str) -> Player:
    """The player of one level for one game; ValueError for an unknown level."""
    players = game_ai(game_id).players
    if level not in players:
        raise ValueError(f"Unknown AI level {level!r} (levels: {', '.join(LEVELS)}).")
    return players[level]


def ai_rng(seed: int, actions: int, seat: int) -> random.Random:
    """The AI's generator for one decision: fixed by game seed, action count and seat."""
    return random.Random(f"ai:{seed}:{actions}:{seat}")


def seen_by(game: Game, state: Any, seat: int) -> Seen:
    """What `seat` knows now (its view and legal actions)."""
    return Seen(
        game=game,
        seat=seat,
        legal=tuple(game.legal_actions(state, seat)),
        _state=state,
        _resample=game_ai(game.id).resample,
    )


# A level that fails (an exception, or a key that is not legal) hands the decision down: an AI
# seat whose turn it is must never stall the table. Still deterministic: the same inputs fail the
# same way.
FALLBACK = {"hard": "normal", "normal": "easy"}


def decide(game: Game, state: Any, seat: int, level: str, seed: int, actions: int) -> str:
    """The key the AI of `level` plays for `seat` (deterministic for the same inputs)."""
    seen = seen_by(game, state, seat)
    if len(seen.legal) == 1:
        return seen.legal[0].key
    legal = {a.key for a in seen.legal}
    tried: str | None = level
    while tried is not None:
        player = for_level(game.id, tried)
        try:
            key = player.choose(seen, ai_rng(seed, actions, seat))
        except Exception:  # a bug in one level must not stop the game: the next level plays
            log.exception(
                "AI %s of %s failed at move %s; trying a simpler level", tried, game.id, actions
            )
            key = None
        if key in legal:
            assert key is not None
            return key
        if key is not None:
            log.error(
                "AI %s of %s chose an illegal key %r at move %s", tried, game.id, key, actions
            )
        tried = FALLBACK.get(tried)
    raise RuntimeError(f"No AI level found a legal move for seat {seat} of {game.id}")


def canonical_shuffle(items: Sequence[str], rng: random.Random) -> list[str]:
    """A random order of `items` that depends only on the multiset, not the given order.

    Blind only if the multiset itself is something the seat can know: mask every hidden name
    first (First in Flight passes an unrevealed flaw as "*", not "power_failure*"), since the
    sort puts each known card in a place that depends on all the names it is sorted among.
    """
    out = sorted(items)
    rng.shuffle(out)
    return out


# --- shared search -------------------------------------------------------------------------


def only_active(game: Game, state: Any, seat: int) -> bool:
    """True while `seat` is the one seat to act."""
    return tuple(game.active_players(state)) == (seat,)


def preferred(legal: Sequence[Action], avoid: frozenset[str]) -> list[Action]:
    """Legal actions minus the undo-like ones (cancel/back), unless nothing else is left."""
    kept = [a for a in legal if a.key not in avoid]
    return kept or list(legal)


# --- every game ends -----------------------------------------------------------------------

Stalls = Callable[[Any, int, Sequence[str]], frozenset[str]]


@dataclass(frozen=True)
class Guarded:
    """A level that never makes a move that leaves the game where it was while another is legal.

    `stalls(state, seat, keys)` names such keys (Flight: taking the exposed discard when nothing
    can be played after it; Takeoff!: ending a turn that played and draws nothing while a change
    is allowed). A table of AIs repeating them never ends; without them every turn brings the
    game nearer its own end. `watch` lists the keys that can stall, so the guard costs nothing
    when none is legal.
    """

    player: Player
    stalls: Stalls
    watch: frozenset[str]

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """The wrapped level's choice among the legal keys that make progress."""
        keys = [a.key for a in seen.legal]
        if not self.watch.intersection(keys):
            return self.player.choose(seen, rng)
        # The facts a stall depends on (the seat's own hand, the table) are the same in every
        # determinisation; a generator of its own leaves the level's choices elsewhere unchanged.
        stalled = self.stalls(seen.sample(random.Random(GUARD_SEED)), seen.seat, keys)
        kept = tuple(a for a in seen.legal if a.key not in stalled)
        if kept and len(kept) < len(seen.legal):
            seen = replace(seen, legal=kept)
        return self.player.choose(seen, rng)


GUARD_SEED = 0


def guarded(
    players: Mapping[str, Player], stalls: Stalls, watch: frozenset[str]
) -> dict[str, Player]:
    """Each of these levels behind the same progress guard."""
    return {level: Guarded(player, stalls, watch) for level, player in players.items()}


@dataclass
class Lookahead:
    """Level normal: try each action and a few random ways to finish the step it starts.

    Each candidate is applied to one determinisation, then followed by random non-undo actions
    of the same seat until the evaluation moves or `depth` steps pass; the best of `samples`
    such lines is the candidate's value.
    """

    game: Any  # a Game (engines satisfy the protocol structurally, not nominally for mypy)
    evaluate: Evaluate
    avoid: frozenset[str] = frozenset({"cancel", "back"})
    samples: int = 3
    depth: int = 3
    # Hand each step's legal actions to the engine's `vouch` so `apply` need not derive them again
    # (the same choices, cheaper; for engines derived from BaseGame).
    vouch: bool = False

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """The best-valued candidate on one determinisation."""
        return self.choose_in(seen.sample(rng), seen.seat, list(seen.legal), rng)

    def choose_in(self, state: Any, seat: int, legal: list[Action], rng: random.Random) -> str:
        """The same choice on a full (already determinised) state."""
        candidates = preferred(legal, self.avoid)
        if len(candidates) == 1:
            return candidates[0].key
        base = self.evaluate(state, seat)
        best_key, best = candidates[0].key, float("-inf")
        for action in candidates:
            given = legal if self.vouch else None
            value = self.value(state, seat, action.key, base, rng, given) + rng.random() * 1e-6
            if value > best:
                best_key, best = action.key, value
        return best_key

    def value(
        self,
        state: Any,
        seat: int,
        key: str,
        base: float,
        rng: random.Random,
        legal: Sequence[Action] | None = None,
    ) -> float:
        """The best evaluation reached by `samples` random continuations after `key`.

        `legal`, when given, are the legal actions of `state` (vouched to the engine).
        """
        if legal is not None:
            self.game.vouch(state, seat, legal)
        start = self.game.apply(state, seat, key).state
        best = float("-inf")
        for _ in range(self.samples):
            now = start
            for _step in range(self.depth):
                if self.evaluate(now, seat) != base or not only_active(self.game, now, seat):
                    break
                legal = self.game.legal_actions(now, seat)
                options = preferred(legal, self.avoid)
                if self.vouch:
                    self.game.vouch(now, seat, legal)
                now = self.game.apply(now, seat, rng.choice(options).key).state
            best = max(best, self.evaluate(now, seat))
            if start is now:
                break
        return best


RolloutPolicy = Callable[[Any, int, list[Action], random.Random], str]


@dataclass
class MonteCarlo:
    """Level hard: determinised Monte-Carlo — each candidate is played out `iterations` times.

    Every iteration draws a fresh determinisation, applies the candidate and lets `policy` play
    every seat for `horizon` steps (or to the end); the mean evaluation ranks the candidates.
    Candidates are first narrowed to the `width` best by the cheap `prior` player.
    """

    game: Any  # a Game
    evaluate: Evaluate
    policy: RolloutPolicy
    iterations: int = 8
    horizon: int = 40
    avoid: frozenset[str] = frozenset({"cancel", "back"})
    prior: Lookahead | None = None
    width: int = 6

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """The candidate with the best mean over its rollouts."""
        candidates = [a.key for a in preferred(seen.legal, self.avoid)]
        if len(candidates) == 1:
            return candidates[0]
        if self.prior is not None and len(candidates) > self.width:
            candidates = self._narrow(seen, candidates, rng)
        totals = dict.fromkeys(candidates, 0.0)
        for _ in range(self.iterations):
            state = seen.sample(rng)
            for key in candidates:
                end = self.rollout(self.game.apply(state, seen.seat, key).state, rng)
                totals[key] += self.evaluate(end, seen.seat)
        return max(candidates, key=lambda k: (totals[k], -candidates.index(k)))

    def _narrow(self, seen: Seen, candidates: list[str], rng: random.Random) -> list[str]:
        """The `width` candidates the prior values most, on one determinisation."""
        assert self.prior is not None
        state = seen.sample(rng)
        base = self.evaluate(state, seen.seat)
        scored = sorted(
            candidates,
            key=lambda k: -self.prior.value(state, seen.seat, k, base, rng),  # type: ignore[union-attr]
        )
        return scored[: self.width]

    def rollout(self, state: Any, rng: random.Random) -> Any:
        """Play on with `policy` for every seat for up to `horizon` steps."""
        for _ in range(self.horizon):
            active = self.game.active_players(state)
            if not active:
                break
            seat = active[0]
            key = self.policy(state, seat, self.game.legal_actions(state, seat), rng)
            state = self.game.apply(state, seat, key).state
        return state


def random_policy(avoid: frozenset[str] = frozenset({"cancel", "back"})) -> RolloutPolicy:
    """A rollout policy: random non-undo actions."""

    def pick(state: Any, seat: int, legal: list[Action], rng: random.Random) -> str:
        """Any preferred key."""
        return rng.choice(preferred(legal, avoid)).key

    return pick


__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "GameAI",
    "Guarded",
    "Lookahead",
    "MonteCarlo",
    "Player",
    "RandomPlayer",
    "Seen",
    "ai_rng",
    "canonical_shuffle",
    "decide",
    "for_level",
    "game_ai",
    "guarded",
    "plan_ai_turn",
    "random_policy",
    "seen_by",
]


def plan_ai_turn(game: Game, state: Any, seat: int, level: str = "normal") -> list[str] | None:
    """The keys an AI of `level` plays for `seat` until its turn passes (a timeout policy).

    Planned on the pure rules, one decision at a time from what the seat sees at that point;
    seeded from the state's own generator so the same state gives the same plan.
    """
    rng_state = getattr(state, "rng", None)
    seed = int(getattr(rng_state, "seed", 0))
    counter = int(getattr(rng_state, "counter", 0))
    keys: list[str] = []
    for step in range(PLAN_LIMIT):
        if seat not in game.active_players(state):
            break
        key = decide(game, state, seat, level, seed, counter + step)
        keys.append(key)
        state = game.apply(state, seat, key).state
        if tuple(game.active_players(state)) != (seat,):
            break
    return keys or None


PLAN_LIMIT = 80  # decisions in one planned turn (a Takeoff! turn takes well under 30)
