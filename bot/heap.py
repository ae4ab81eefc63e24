"""The C heap of a long-lived process: few arenas, large blocks handed back when freed.

Drawing allocates and frees megabytes of pixels per picture and a move passes PNGs of 20–100 KiB
through pickle, aiohttp and the caches. With glibc's defaults a process keeps up to eight arenas
per core for its threads (the database thread, the drawing thread, aiohttp's resolver) and, once
a large block was freed, raises its mmap threshold so later ones come from the heap, where the
holes they leave are rarely given back: the bot and its render worker grew by ~20 MiB over a
soak whose caches were already full (issue 29, a 512 MB host).
"""

from __future__ import annotations

import ctypes
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # mallopt parameters (malloc.h)
M_ARENA_MAX = -8
ARENAS = 2  # the event loop's and one for every other thread: they allocate little
# Blocks from this size are mapped on their own and unmapped when freed (a PNG, a picture's
# pixels); setting it also stops glibc from raising it after each free.
MMAP_FROM = 64 * 1024
TRIM_EVERY = 16


def _libc_function(name: str) -> Callable[..., int] | None:
    """A glibc function, or None on another C library."""
    try:
        function: Callable[..., int] = getattr(ctypes.CDLL("libc.so.6"), name)
    except (OSError, AttributeError):
        return None
    return function


def tune() -> bool:
    """Fewer arenas and a fixed mmap threshold for this process; False when not glibc."""
    mallopt = _libc_function("mallopt")
    if mallopt is None:
        return False
    ok = bool(mallopt(M_ARENA_MAX, ARENAS)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_FROM))
    if not ok:
        log.debug("mallopt refused the heap settings")
    return ok


class Trim:
    """Hands the heap's freed pages back to the system every `every` calls of `done()`.

    glibc keeps what was freed at the top of its heaps; malloc_trim gives it back; at ~0.6 ms a
    call it runs once per `every` pictures or moves.
    """

    def __init__(self, every: int = TRIM_EVERY) -> None:
        self.every = every
        self.count = 0
        self._trim = _libc_function("malloc_trim")

    def done(self) -> None:
        """One more unit of work done; trim when it is time."""
        self.count += 1
        if self._trim is not None and self.count % self.every == 0:
            self._trim(0)
