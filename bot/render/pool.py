"""Drawing and PNG encoding off the event loop: a small process pool behind a bounded queue,
with a cache so an unchanged view is never drawn or encoded twice.

`render(draw, *args)` runs `draw(*args)` (a module-level function returning PNG bytes, e.g.
`public_png`) in one of `HANGAR_RENDER_WORKERS` processes (default 2: both cores; 0 = a thread).
At most `2 × workers` jobs are in the pool at once; later callers wait their turn (backpressure
instead of a queue that grows without limit). If the pool breaks, rendering falls back to a thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from pydantic import BaseModel

log = logging.getLogger(__name__)

Draw = Callable[..., bytes]
CACHE_SIZE = 96  # PNGs of ≤ ~150 KiB each: at most ~14 MiB


def view_key(draw: Draw, *args: Any, **kwargs: Any) -> str:
    """A digest of everything the picture depends on: renderer, game, view, names, options."""

    def plain(value: Any) -> Any:
        if isinstance(value, BaseModel):  # pydantic's own JSON: several times cheaper than dicts
            return value.model_dump_json()
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value

    blob = json.dumps(
        [draw.__module__, draw.__qualname__, plain(list(args)), plain(sorted(kwargs.items()))],
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(blob.encode()).hexdigest()


class PngCache:
    """PNG bytes by view key, least recently used dropped first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> bytes | None:
        """The cached PNG, marked as recently used; None on a miss."""
        png = self._items.get(key)
        if png is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return png

    def put(self, key: str, png: bytes) -> None:
        """Store a PNG, dropping the oldest beyond the bound."""
        self._items[key] = png
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class RenderPool:
    """Worker processes for drawing and encoding, with a bounded number of jobs in flight."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._broken = workers <= 0
        self._slots: asyncio.Semaphore | None = None
        self.cache = PngCache()
        self._drawing: dict[str, asyncio.Future[bytes]] = {}

    def _pool(self) -> ProcessPoolExecutor | None:
        """The executor, started on first use (spawned: forking a threaded process is unsafe)."""
        if self._broken:
            return None
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    async def _run(self, draw: Draw, *args: Any, **kwargs: Any) -> bytes:
        """One job in a worker process, or in a thread once the pool is unusable."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(max(1, 2 * self.workers))
        async with self._slots:
            executor = self._pool() if _importable(draw) else None
            if executor is not None:
                loop = asyncio.get_running_loop()
                try:
                    return await loop.run_in_executor(executor, _call, draw, args, kwargs)
                except (BrokenProcessPool, OSError) as exc:
                    log.warning("Render pool broke (%s); drawing in a thread from now on", exc)
                    self._broken = True
                    executor.shutdown(wait=False, cancel_futures=True)
            return await asyncio.to_thread(draw, *args, **kwargs)

    async def render(self, draw: Draw, *args: Any, **kwargs: Any) -> bytes:
        """PNG bytes of `draw(*args, **kwargs)`, from the cache when the same view was drawn,
        or from the job already drawing it (the board and a panel may ask at the same time)."""
        key = view_key(draw, *args, **kwargs)
        png = self.cache.get(key)
        if png is not None:
            return png
        job = self._drawing.get(key)
        if job is None or job.get_loop() is not asyncio.get_running_loop():
            job = asyncio.ensure_future(self._run(draw, *args, **kwargs))
            self._drawing[key] = job
            job.add_done_callback(lambda done: self._finish(key, done))
        # shielded: one caller giving up (a cancelled panel) does not cancel the others' picture
        return await asyncio.shield(job)

    def _finish(self, key: str, job: asyncio.Future[bytes]) -> None:
        """A drawing job ended: keep its picture, forget the job."""
        self._drawing.pop(key, None)
        if not job.cancelled() and job.exception() is None:
            self.cache.put(key, job.result())

    def close(self) -> None:
        """Stop the worker processes (pending jobs are cancelled)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _importable(draw: Draw) -> bool:
    """Whether a worker process can import `draw` (lambdas and local functions stay local)."""
    return "<" not in getattr(draw, "__qualname__", "<")


def _call(draw: Draw, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """Run in a worker: draw and encode."""
    return draw(*args, **kwargs)


def _workers() -> int:
    """Worker processes from HANGAR_RENDER_WORKERS (default 2; 0 renders in a thread)."""
    try:
        return max(0, int(os.environ.get("HANGAR_RENDER_WORKERS", "2")))
    except ValueError:
        return 2


POOL = RenderPool(_workers())


async def render(draw: Draw, *args: Any, **kwargs: Any) -> bytes:
    """Render through the shared pool and cache (see RenderPool.render)."""
    return await POOL.render(draw, *args, **kwargs)


class ShownImages:
    """Which image (PNG digest) each private message shows, so an unchanged one is not re-sent."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._shown: OrderedDict[int, str] = OrderedDict()

    def same(self, message_id: int | None, png: bytes) -> bool:
        """True when `message_id` already shows exactly this image."""
        return message_id is not None and self._shown.get(message_id) == digest(png)

    def remember(self, message_id: int, png: bytes) -> None:
        """Record the image a message now shows."""
        self._shown[message_id] = digest(png)
        self._shown.move_to_end(message_id)
        while len(self._shown) > self.size:
            self._shown.popitem(last=False)


def digest(png: bytes) -> str:
    """A short digest of PNG bytes (encoding is deterministic: same picture, same bytes)."""
    return hashlib.blake2b(png, digest_size=16).hexdigest()


SHOWN = ShownImages()
