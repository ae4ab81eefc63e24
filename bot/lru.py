"""A bounded least-recently-used cache: the picture and band caches, the legal actions and the
kept board logs are built on it;
`BudgetLru` bounds the drawing caches (tiles, text masks) by the bytes they hold."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most `size` values by key, least recently used dropped first; counts hits and misses.

    Locked: the render pool's thread fallback may use one cache from several threads.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        """The cached value, marked as recently used; None on a miss."""
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self.hits += 1
            self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep a value, dropping the oldest beyond the bound."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, key: K) -> None:
        """Drop one value, if kept."""
        with self._lock:
            self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


class BudgetLru(Generic[K, V]):
    """Values by key up to a budget of bytes (`weigh` tells a value's), least recently used
    dropped first; a value larger than the whole budget is not kept.

    Locked like `Lru`. The drawing caches (tiles, text masks) hold pictures of very different
    sizes, so they are bounded by what they take, not by how many they are.
    """

    def __init__(self, budget: int, weigh: Callable[[V], int]) -> None:
        self.budget = budget
        self.used = 0
        self._weigh = weigh
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value, marked as recently used; None on a miss."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep a value (the first one given for a key), dropping the oldest beyond the budget."""
        size = self._weigh(value)
        with self._lock:
            if key in self._items or size > self.budget:
                return
            self._items[key] = value
            self.used += size
            while self.used > self.budget:
                _, old = self._items.popitem(last=False)
                self.used -= self._weigh(old)

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._items.clear()
            self.used = 0

    def __len__(self) -> int:
        return len(self._items)
