"""Game time: the clock every turn limit is measured on (sped up in tests)."""

from __future__ import annotations

import time
from collections.abc import Callable


class Clock:
    """Wall time plus a scale: HANGAR_TIME_SCALE=3600 makes one game hour last one second."""

    def __init__(self, scale: float = 1.0, source: Callable[[], float] = time.time) -> None:
        self.scale = scale
        self.source = source

    def now(self) -> float:
        """Seconds since the epoch (real time: Discord shows these as timestamps)."""
        return self.source()

    def __call__(self) -> float:
        return self.now()

    def hours(self, hours: float) -> float:
        """Real seconds that `hours` of game time last."""
        return hours * 3600 / self.scale
