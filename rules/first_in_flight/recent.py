"""The last few results of a pure function of a frozen state, kept by the state's identity."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from rules.first_in_flight.state import State

T = TypeVar("T")


class RecentByState(Generic[T]):
    """Results of `compute(state, key)` for the last few (state, key): the same state object
    always gives the same answer, and keeping it alive keeps its id unique."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, Hashable], tuple[State, T]] = OrderedDict()
        self._lock = threading.Lock()  # AI players may think in threads

    def get_or_compute(self, state: State, key: Hashable, compute: Callable[[State], T]) -> T:
        """The kept result for this very state and key, or `compute(state)`'s, kept."""
        slot = (id(state), key)
        with self._lock:
            kept = self._items.get(slot)
            if kept is not None and kept[0] is state:
                return kept[1]
        result = compute(state)
        with self._lock:
            self._items[slot] = (state, result)
            self._items.move_to_end(slot)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return result
