"""Fault injection: make chosen API routes answer with an error, as an unwell Discord does."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Fault:
    """Answer `status` to requests whose "METHOD path" matches `pattern`, `times` times (or
    until cleared when None); with `delay`, answer that many seconds late (status 0: then
    answer normally, as a slow Discord does)."""

    pattern: re.Pattern[str]
    status: int
    times: int | None = None
    hits: int = 0
    delay: float = 0.0


@dataclass
class Faults:
    """The active faults of one fake Discord."""

    active: list[Fault] = field(default_factory=list)

    def fail(self, pattern: str, status: int = 500, *, times: int | None = None) -> Fault:
        """Make matching requests ("POST /api/v10/channels/1/messages") fail with `status`."""
        fault = Fault(re.compile(pattern), status, times)
        self.active.append(fault)
        return fault

    def slow(self, pattern: str, seconds: float, *, times: int | None = None) -> Fault:
        """Make matching requests take `seconds` longer, then succeed."""
        fault = Fault(re.compile(pattern), 0, times, delay=seconds)
        self.active.append(fault)
        return fault

    def clear(self) -> None:
        """Discord is well again."""
        self.active.clear()

    def match(self, method: str, path: str) -> Fault | None:
        """The fault this request runs into, counting the hit; None when it goes through."""
        for fault in self.active:
            if fault.pattern.search(f"{method} {path}"):
                fault.hits += 1
                if fault.times is not None and fault.hits >= fault.times:
                    self.active.remove(fault)
                return fault
        return None
