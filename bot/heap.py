"""The C heap of a long-lived process: few arenas, large blocks handed back when freed.

Drawing allocates and frees megabytes of pixels per picture and a move passes PNGs of 20–100 KiB
through pickle, aiohttp and the caches. With glibc's defaults a process keeps up to eight arenas
per core for its threads (the database thread, the drawing thread, aiohttp's resolver) and, once
a large block was freed, raises its mmap threshold so later ones come from the heap, where the
holes they leave are rarely given back: the bot and its render worker grew by ~20 MiB over a
soak whose caches were already full (issue 29, a 512 MB host).

Mapping every block from 64 KiB on its own was tried against that, and cost a page fault per 4 KiB
of every picture drawn: the kernel zeroes each new page, and a worker's system time was a third
of its drawing (First in Flight 3.5 ms a picture against 2.3 with the pages kept). So pictures'
pixels come from the heap, whose pages the next picture reuses, and the heap is handed back
when the process has had nothing to do for a moment (`IdleTrim`): a busy process keeps its pages
and a quiet one gives them back.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
from collections.abc import Callable
from functools import cache
from typing import Any

log = logging.getLogger(__name__)

M_TRIM_THRESHOLD = -1  # mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
ARENAS = 2  # the event loop's and one for every other thread: they allocate little
# Blocks from this size are mapped on their own and unmapped when freed: above a picture's
# pixels (a First in Flight board is 2.9 MiB), which come from the heap and reuse its pages.
# Setting it also stops glibc from moving it after each free.
MMAP_FROM = 8 * 1024 * 1024
# Free memory at the heap's top that glibc gives back at once, on the free that leaves it: above
# a few pictures, so that a busy process does not hand back pages its next picture faults in
# again; IdleTrim gives the rest back.
TRIM_FROM = 8 * 1024 * 1024
IDLE_SECONDS = 1.0  # quiet this long after work, a process gives its free heap back
# A process that is never quiet looks at its free heap every TRIM_EVERY pieces of work (pictures,
# clicks) and trims when it holds more than BUSY_FREE free. Each trim makes the next pictures fault
# their pages in again (~2.2 µs a page here): trimming every 16 pieces whatever the heap held cost
# a Takeoff! move ~220 more page faults than never, a First in Flight move more still (issue 29),
# while a busy worker holds 20-30 MiB free between pictures and would fill it again at once.
TRIM_EVERY = 16
BUSY_FREE = 32 * 1024 * 1024


def _libc_function(name: str) -> Callable[..., int] | None:
    """A glibc function, or None on another C library."""
    try:
        function: Callable[..., int] = getattr(ctypes.CDLL("libc.so.6"), name)
    except (OSError, AttributeError):
        return None
    return function


class _MallInfo2(ctypes.Structure):
    """glibc's struct mallinfo2 (malloc.h): the heap's totals, in bytes."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def free_heap() -> int | None:
    """Bytes the heap holds free (glibc's mallinfo2), or None on a C library without it."""
    mallinfo2 = _mallinfo2()
    return None if mallinfo2 is None else int(mallinfo2().fordblks)


@cache
def _mallinfo2() -> Any:
    """glibc's mallinfo2 (2.33 and later) returning the structure, or None."""
    function: Any = _libc_function("mallinfo2")
    if function is not None:
        function.restype = _MallInfo2
    return function


def tune() -> bool:
    """Fewer arenas and fixed mmap and trim thresholds for this process; False when not glibc."""
    mallopt = _libc_function("mallopt")
    if mallopt is None:
        return False
    settings = ((M_ARENA_MAX, ARENAS), (M_MMAP_THRESHOLD, MMAP_FROM), (M_TRIM_THRESHOLD, TRIM_FROM))
    ok = all([mallopt(parameter, value) for parameter, value in settings])  # each one tried
    if not ok:
        log.debug("mallopt refused the heap settings")
    return ok


class IdleTrim:
    """Hands the heap's free pages back to the system once the process is quiet after work.

    malloc_trim (~0.6 ms) gives back every free page, at the heap's top and between the blocks
    in use. Run after each piece of work it would make the next one fault its pages in again;
    run when nothing has happened for IDLE_SECONDS, it costs a busy process little and leaves a
    quiet one (most of a play-by-post bot's life) at its smallest. A process that is never
    quiet still trims once its free heap grows past BUSY_FREE.
    """

    def __init__(self) -> None:
        self._trim = _libc_function("malloc_trim")
        self.trims = 0
        self.unquiet = 0  # pieces of work since the last trim
        self.since_look = 0  # pieces of work since the free heap was last looked at
        self._last_work = 0.0  # the loop's time of the last armed work
        self._timer: asyncio.TimerHandle | None = None
        self._timer_loop: asyncio.AbstractEventLoop | None = None  # tests run a loop each

    def worked(self) -> None:
        """Some work was done: there may be free pages to give back once quiet (or now, when
        the heap holds more than BUSY_FREE free after TRIM_EVERY pieces of work without a
        quiet moment)."""
        self.unquiet += 1
        self.since_look += 1
        if self.since_look >= TRIM_EVERY:
            self.since_look = 0
            free = free_heap()
            if free is None or free > BUSY_FREE:
                self.idle()

    def idle(self) -> None:
        """Give the free pages back now, if work was done since the last time."""
        if self.unquiet and self._trim is not None:
            self._trim(0)
            self.trims += 1
        self.unquiet = self.since_look = 0

    def arm(self) -> None:
        """Work was done on this event loop: trim once it has been quiet for IDLE_SECONDS (each
        call puts the trim off again; one timer, not one per click)."""
        self.worked()
        loop = asyncio.get_running_loop()
        self._last_work = loop.time()
        if self._timer is None or self._timer_loop is not loop:  # none yet, or a closed loop's
            self._timer, self._timer_loop = loop.call_later(IDLE_SECONDS, self._quiet), loop

    def _quiet(self) -> None:
        """The timer: trim if the loop has been quiet for IDLE_SECONDS, else wait the rest."""
        loop = asyncio.get_running_loop()
        left = self._last_work + IDLE_SECONDS - loop.time()
        if left > 0:
            self._timer = loop.call_later(left, self._quiet)
            return
        self._timer = None
        self.idle()


# This process's: a worker's after its jobs, the bot's after its clicks and its own drawing.
TRIM = IdleTrim()
