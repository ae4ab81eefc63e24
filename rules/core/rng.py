"""A seeded random generator that lives inside the game state, so `apply` stays pure."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T")


class Rng(BaseModel):
    """Seed plus a draw counter; each use derives a fresh `random.Random` and bumps the counter."""

    model_config = ConfigDict(frozen=True)

    seed: int
    counter: int = 0

    def _source(self) -> random.Random:
        """A generator that depends only on (seed, counter): replays give the same numbers."""
        return random.Random(f"{self.seed}:{self.counter}")

    def _next(self) -> Rng:
        """The generator state after one use."""
        return Rng(seed=self.seed, counter=self.counter + 1)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """Return the items in a random order and the advanced generator."""
        out = list(items)
        self._source().shuffle(out)
        return tuple(out), self._next()

    def randint(self, low: int, high: int) -> tuple[int, Rng]:
        """Return a random integer in [low, high] and the advanced generator."""
        return self._source().randint(low, high), self._next()

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """Return one random item and the advanced generator."""
        if not items:
            raise ValueError("choice from an empty sequence")
        return self._source().choice(list(items)), self._next()
