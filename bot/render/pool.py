"""Drawing and PNG encoding off the event loop: worker processes, each drawing one job at a time,
with a cache so an unchanged view is never drawn or encoded twice.

`render(draw, *args)` runs `draw(*args)` (a module-level function returning PNG bytes, e.g.
`public_png`) in one of `HANGAR_RENDER_WORKERS` processes, by default one fewer than the CPUs this
process may use, at most 2 (so none on a 1-CPU host: 0 = one drawing thread in the bot itself).
A job goes to an idle worker, else it may wait in the socket of a worker drawing its only job
(the clicker's panel behind the board: drawn as soon as the board is, not when the loop next hands
the worker over); beyond that, callers wait their turn in order (backpressure instead of a queue
that grows without limit). If a worker dies, rendering falls back to the thread.

The event loop talks to each worker over its own socket pair (the job written, the reply read
when it is readable). concurrent.futures' process pool hands every job through a manager thread
and a feeder thread instead, and each hand-off made the loop wait for the GIL (issue 14).

A worker is a plain `python -m bot.render.pool` subprocess, not a multiprocessing one: a spawned
multiprocessing child imports the bot's own `__main__` (discord.py, the store: ~30 MiB it never
uses) and starts multiprocessing's resource-tracker process beside it (issue 29).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import pickle
import socket
import subprocess
import sys
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from pydantic import BaseModel

from bot.heap import IDLE_SECONDS, TRIM, tune
from bot.lru import Lru

log = logging.getLogger(__name__)

Draw = Callable[..., bytes]
WORKER_NICE = 5  # above the bot's: 5 beat 0 (SCHED_BATCH alone) in 4 of 4 paired runs, 10 no better
CACHE_SIZE = 48  # PNGs of ≤ ~110 KiB each: at most ~5 MiB (a move needs the last few only)


@dataclass(frozen=True)
class AsJson:
    """A pydantic model on its way to a worker, as its JSON: the key is made of that JSON anyway,
    and pickling the model cost more than its JSON (0.34 ms for a First in Flight view)."""

    model: type[BaseModel]
    json: str

    def load(self) -> BaseModel:
        """The model again (in the worker)."""
        return self.model.model_validate_json(self.json)


def wired(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The arguments as sent to a worker: pydantic models as their JSON."""
    return tuple(AsJson(type(a), JSONS.of(a)) if isinstance(a, BaseModel) else a for a in args)


class ModelJson:
    """The JSON of the last few models, by object: a move's board view is sent to the pool up to
    three times (drawn ahead of the transaction, before COMMIT, then asked for by the board
    message), and views are frozen and shared by the callers of one state
    (bot/services/loading.py, ViewCache), so it is serialised once (issue 29, target 6). Each
    entry keeps its model alive, so an id is never reused while it is kept."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[BaseModel, str]] = OrderedDict()

    def of(self, model: BaseModel) -> str:
        """`model.model_dump_json()`, once per model object while it is kept."""
        found = self._items.get(id(model))
        if found is not None and found[0] is model:
            return found[1]
        text = model.model_dump_json()
        self._items[id(model)] = (model, text)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return text


JSONS = ModelJson()


def view_key(draw: Draw, *args: Any, **kwargs: Any) -> str:
    """A digest of everything the picture depends on: renderer, game, view, names, options
    (`args` as `wired` gives them). Each value is hashed as its own JSON, tagged by kind, so a
    view's JSON is not escaped into another JSON document first."""
    key = hashlib.sha256(f"{draw.__module__}.{draw.__qualname__}".encode())
    for value in (*args, *sorted(kwargs.items())):
        key.update(b"\x1e" + _canonical(value).encode())
    return key.hexdigest()


def _canonical(value: Any) -> str:
    """One argument as tagged JSON: "m" a pydantic model's own JSON, "l" a list or tuple of
    such values, "j" anything else (JSON escapes the control characters that separate them)."""
    if isinstance(value, AsJson):
        return "m" + value.json
    if isinstance(value, BaseModel):
        return "m" + JSONS.of(value)
    if isinstance(value, list | tuple) and any(isinstance(v, AsJson | BaseModel) for v in value):
        return "l" + "\x1f".join(_canonical(v) for v in value)
    return "j" + json.dumps(value, separators=(",", ":"), default=str)


class PngCache(Lru[str, bytes]):
    """PNG bytes by view key."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        super().__init__(size)


class WorkerGone(RuntimeError):
    """A worker process ended (killed, crashed) while it held a job."""


class Worker:
    """One drawing process and the socket to it. It draws one job at a time; a second may wait
    in its socket (`RenderPool._dispatch`), and replies come back in the order jobs were sent."""

    def __init__(self, on_idle: Callable[[Worker], None] = lambda _worker: None) -> None:
        ours, theirs = socket.socketpair()
        # the worker finds the bot's modules where the bot found them
        path = os.pathsep.join(p for p in sys.path if p)
        env = {**os.environ, "PYTHONPATH": path}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.render.pool", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            env=env,
        )
        theirs.close()
        self.conn: Connection = Connection(ours.detach())
        self._replies: deque[asyncio.Future[bytes]] = deque()  # one per job sent, in order
        self._on_idle = on_idle  # told when the last reply came: the worker is free again
        self._watching: asyncio.AbstractEventLoop | None = None  # the loop reading the pipe
        self.last = ""  # the kind of picture it drew last: its caches hold that kind's pieces

    def send(
        self, draw: Draw, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> asyncio.Future[bytes]:
        """Send one job now; its reply comes to the future returned."""
        loop = asyncio.get_running_loop()
        self.conn.send_bytes(pickle.dumps((draw, args, kwargs), pickle.HIGHEST_PROTOCOL))
        reply: asyncio.Future[bytes] = loop.create_future()
        if self._watching is None:
            loop.add_reader(self.conn.fileno(), self._answer)
            self._watching = loop
        self._replies.append(reply)
        return reply

    def _answer(self) -> None:
        """The pipe is readable: each reply that has come (read whole) to its job, oldest first,
        or the worker's end to every job it holds."""
        while self._replies:
            try:
                ok, value = pickle.loads(self.conn.recv_bytes())
            except (EOFError, OSError) as exc:
                self._fail(WorkerGone(f"render worker ended: {exc!r}"))
                return
            reply = self._replies.popleft()
            if not reply.done():  # a caller that gave up leaves its reply unread
                if ok:
                    reply.set_result(bytes(value))
                else:
                    reply.set_exception(value)
            if not self._replies or not self.conn.poll(0):
                break
        if not self._replies:
            self._unwatch()
            self._on_idle(self)

    @property
    def busy(self) -> bool:
        """True while a job is in flight."""
        return bool(self._replies)

    @property
    def jobs(self) -> int:
        """Jobs sent and not yet answered."""
        return len(self._replies)

    def holds_only(self, reply: asyncio.Future[bytes]) -> bool:
        """True when `reply`'s job is the only one sent and not yet answered."""
        return len(self._replies) == 1 and self._replies[0] is reply

    def _unwatch(self) -> None:
        """Stop watching the pipe (no reply is awaited)."""
        loop, self._watching = self._watching, None
        if loop is not None and not loop.is_closed() and not self.conn.closed:
            loop.remove_reader(self.conn.fileno())

    def _fail(self, error: Exception) -> None:
        """Every job in flight fails with `error`; the pipe is no longer watched."""
        replies, self._replies = self._replies, deque()
        self._unwatch()
        for reply in replies:
            if not reply.done() and not reply.get_loop().is_closed():
                reply.set_exception(error)
                reply.exception()  # marked retrieved: a caller that gave up logs nothing

    def stop(self) -> None:
        """End the process now; jobs in flight fail with WorkerGone."""
        self._fail(WorkerGone("the render pool was closed"))
        self.conn.close()
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _serve(conn: Connection) -> None:
    """A worker's loop: read a job, draw and encode, send back the bytes (or the exception)."""
    _yield_to_the_loop()
    while True:
        try:
            draw, args, kwargs = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return  # the bot closed the pipe or exited
        try:
            reply: tuple[bool, Any] = (True, _call(draw, args, kwargs))
        except Exception as exc:  # the caller logs it and shows a placeholder picture
            reply = (False, exc)
        try:
            _send(conn, reply)
        except OSError:
            return  # the bot exited while this job was drawn: nobody is left to answer
        # Drawing allocates and frees megabytes of pixels, which glibc keeps for the next
        # picture (bot/heap.py): given back once no job came for a moment (or now and then,
        # after the reply, when jobs never stop coming).
        TRIM.worked()
        if not conn.poll(IDLE_SECONDS):
            TRIM.idle()


def _send(conn: Connection, reply: tuple[bool, Any]) -> None:
    """Send a job's reply; an exception that cannot be pickled goes back as its repr."""
    try:
        blob = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        blob = pickle.dumps((False, RuntimeError(repr(reply[1]))))
    conn.send_bytes(blob)


def _yield_to_the_loop() -> None:
    """Let the bot's event loop go first when both cores are busy: a picture can wait a moment,
    acknowledging clicks, committing moves and sending what is drawn cannot.

    SCHED_BATCH: a worker woken by a job does not preempt the loop that sent it (the loop's
    thread was descheduled for 1–3 ms per click on two cores); a lower priority on top.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
        os.nice(WORKER_NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: run as before
        pass


def _call(draw: Draw, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """`draw` on the arguments as `wired` sent them."""
    return draw(*(a.load() if isinstance(a, AsJson) else a for a in args), **kwargs)


class RenderPool:
    """Worker processes for drawing and encoding, one job each at a time."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._started: list[Worker] = []
        self._idle: deque[Worker] = deque()
        self._waiting: deque[asyncio.Future[Worker]] = deque()
        self._broken = workers <= 0
        self.cache = PngCache()
        self._drawing: dict[str, asyncio.Future[bytes]] = {}
        self._discarded: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _start(self) -> bool:
        """Start the workers on first use (new processes: forking a threaded one is unsafe);
        False once rendering runs in the thread."""
        if self._broken:
            return False
        if not self._started:
            self._started = [Worker(self._freed) for _ in range(self.workers)]
            self._idle.extend(self._started)
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._adopt(loop)
        return True

    def _adopt(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve a new event loop (tests run one per test): a job left in flight by the old loop
        would answer the wrong caller, so its worker is replaced; the old waiters are gone."""
        self._loop = loop
        self._waiting.clear()
        for worker in [w for w in self._started if w.busy]:
            self._respawn(worker)
        self._idle = deque(self._started)  # nothing of the new loop runs yet: all are free

    def idle(self) -> bool:
        """True when a job would start at once (a worker is free, or none has started yet)."""
        return self._broken or not self._started or bool(self._idle)

    async def _acquire(self, kind: str) -> Worker:
        """An idle worker, preferably the one that drew this kind of picture last (its band and
        tile caches hold that picture's pieces); callers wait in order while all are busy."""
        if self._idle:
            return self._take_idle(kind)
        waiter: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed over just as the caller gave up
            raise

    def _take_idle(self, kind: str) -> Worker:
        """An idle worker (there is one), preferably the one that drew `kind` last."""
        worker = _preferring(self._idle, kind)
        assert worker is not None  # the caller saw one idle
        self._idle.remove(worker)
        return worker

    def _release(self, worker: Worker) -> None:
        """Give a worker to the longest waiting caller, else mark it idle."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _freed(self, worker: Worker) -> None:
        """A worker answered the last job it held: free for the next (unless replaced)."""
        if worker in self._started and not self._broken:
            self._release(worker)

    def _dispatch(self, draw: Draw, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Sent | None:
        """Send a job to a worker at once, before the caller goes on: an idle one, else one
        drawing its only job (None when neither, callers already wait, or jobs run in threads:
        the job's task then waits its turn).

        A job started in a task reaches its worker only when the loop next waits, and a move's
        transaction runs on the loop's thread up to its COMMIT: a board drawn ahead of the move
        waited for the whole transaction before its worker could begin (issue 29). Likewise the
        clicker's panel, sent second, waited for the loop to hand it the worker once the board
        was back; queued in the worker's socket, it is drawn straight after the board."""
        if not _importable(draw) or not self._start() or self._waiting:
            return None
        kind = _kind(draw, args)
        worker = self._take_idle(kind) if self._idle else self._drawing_one(kind)
        if worker is None:
            return None
        worker.last = kind
        try:
            return Sent(worker, self._send(worker, draw, args, kwargs))
        except Exception:  # gone, or a job it cannot take: its task meets it as it always did
            return None

    def _drawing_one(self, kind: str) -> Worker | None:
        """A worker drawing one job and holding no other, preferably one that draws `kind`."""
        return _preferring([worker for worker in self._started if worker.jobs == 1], kind)

    async def _run(
        self, draw: Draw, args: tuple[Any, ...], kwargs: dict[str, Any], sent: Sent | None = None
    ) -> bytes:
        """One job in a worker process (already `sent` to one, or sent when one is free), or in a
        thread once the workers are unusable."""
        worker = sent.worker if sent is not None else None
        if worker is None and _importable(draw):
            kind = _kind(draw, args)
            worker = await self._worker(kind)
            if worker is not None:
                worker.last = kind
        if worker is not None:
            try:
                reply = sent.reply if sent is not None else self._send(worker, draw, args, kwargs)
                return await self._answered(worker, reply)
            except (WorkerGone, OSError) as exc:
                if not self._broken:
                    log.warning("Render worker failed (%s); drawing in threads from now on", exc)
                    self._break()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(_drawing_thread(), _call, draw, args, kwargs)
        finally:
            TRIM.arm()  # drawn in this process: its heap is given back once the loop is quiet

    def _send(
        self, worker: Worker, draw: Draw, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> asyncio.Future[bytes]:
        """Send a job to the worker handed to it; a job not sent (it does not pickle, or the
        worker is gone) leaves a worker holding no other job free again."""
        try:
            return worker.send(draw, args, kwargs)
        except Exception:
            if not worker.busy:
                self._release(worker)
            raise

    async def _answered(self, worker: Worker, reply: asyncio.Future[bytes]) -> bytes:
        """The reply to a job sent to `worker` (which frees itself once it has answered)."""
        try:
            return await reply
        except asyncio.CancelledError:
            # Cancelled mid-job: a worker drawing only this job is stopped (the drawing may
            # never end); one holding others answers them in order, this reply left unread.
            if worker.holds_only(reply):
                self._replace(worker)
            raise

    async def _worker(self, kind: str) -> Worker | None:
        """A worker for the next job; None when jobs must run in threads."""
        if not self._start():
            return None
        try:
            return await self._acquire(kind)
        except WorkerGone:  # the workers stopped while this caller waited
            return None

    def _replace(self, worker: Worker) -> None:
        """Stop a worker and give a new process in its place to the next job."""
        if worker in self._started and not self._broken:
            self._release(self._respawn(worker))
        else:
            worker.stop()

    def _respawn(self, worker: Worker) -> Worker:
        """Stop a started worker and start a new process in its slot."""
        worker.stop()
        fresh = Worker(self._freed)
        self._started[self._started.index(worker)] = fresh
        return fresh

    def _break(self) -> None:
        """Stop every worker; later jobs use threads."""
        self._broken = True
        self.close()

    async def render(self, draw: Draw, *args: Any, **kwargs: Any) -> bytes:
        """PNG bytes of `draw(*args, **kwargs)`, from the cache when the same view was drawn,
        or from the job already drawing it (the board and a panel may ask at the same time)."""
        return await self.start(draw, *args, **kwargs)

    def start(self, draw: Draw, *args: Any, **kwargs: Any) -> asyncio.Future[bytes]:
        """`render` as a future, the job started: a caller that yields once (`asyncio.sleep(0)`)
        has its picture with a worker while it builds the rest of its message."""
        sent = wired(args)
        key = view_key(draw, *sent, **kwargs)
        loop = asyncio.get_running_loop()
        png = self.cache.get(key)
        if png is not None:
            cached: asyncio.Future[bytes] = loop.create_future()
            cached.set_result(png)
            return cached
        # shielded: one caller giving up (a cancelled panel) does not cancel the others' picture
        return asyncio.shield(self._job(key, draw, sent, kwargs))

    def ahead(self, draw: Draw, *args: Any, **kwargs: Any) -> Callable[[], None]:
        """Start drawing a picture nobody waits for yet (a move's board before its COMMIT: the
        caller that asks after the commit joins it or finds it cached); returns the discard to
        call when that picture will not be wanted after all (the commit failed)."""
        sent = wired(args)
        key = view_key(draw, *sent, **kwargs)
        if self.cache.get(key) is None:
            self._job(key, draw, sent, kwargs)
        return lambda: self._discard(key)

    def _job(
        self, key: str, draw: Draw, sent: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> asyncio.Future[bytes]:
        """The job drawing `key`, started unless one of this loop already is."""
        loop = asyncio.get_running_loop()
        job = self._drawing.get(key)
        if job is None or job.get_loop() is not loop:
            dispatched = self._dispatch(draw, sent, kwargs)
            job = asyncio.ensure_future(self._run(draw, sent, kwargs, dispatched))
            self._drawing[key] = job
            job.add_done_callback(lambda done: self._finish(key, done))
        return job

    def _discard(self, key: str) -> None:
        """Forget a picture drawn ahead in vain: the job's result is not kept, nor the picture."""
        job = self._drawing.get(key)
        if job is not None:
            self._discarded.add(key)
        self.cache.forget(key)

    def _finish(self, key: str, job: asyncio.Future[bytes]) -> None:
        """A drawing job ended: keep its picture (unless discarded), forget the job."""
        self._drawing.pop(key, None)
        if job.cancelled() or job.exception() is not None:
            self._discarded.discard(key)  # retrieved: a failed job drawn ahead logs nothing
            return
        if key in self._discarded:
            self._discarded.discard(key)
            return
        self.cache.put(key, job.result())

    def close(self) -> None:
        """Stop the worker processes (jobs in flight fail; the next job starts new ones)."""
        for worker in self._started:
            worker.stop()
        self._started.clear()
        self._idle.clear()
        while self._waiting:  # callers waiting for a worker draw in threads instead
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_exception(WorkerGone("the render workers were stopped"))


@dataclass(frozen=True)
class Sent:
    """A job already written to its worker, and the future its reply comes to."""

    worker: Worker
    reply: asyncio.Future[bytes]


def _preferring(workers: Iterable[Worker], kind: str) -> Worker | None:
    """The first of `workers` that drew `kind` last, else the first (None when there is none)."""
    candidates = list(workers)
    return next((w for w in candidates if w.last == kind), candidates[0] if candidates else None)


def _kind(draw: Draw, args: tuple[Any, ...]) -> str:
    """What a job draws, e.g. public_png('takeoff',): a worker's caches hold that kind's pieces."""
    return f"{draw.__module__}.{draw.__qualname__}{args[:1]!r}"


def _importable(draw: Draw) -> bool:
    """Whether a worker process can import `draw` (lambdas and local functions stay local)."""
    return "<" not in getattr(draw, "__qualname__", "<")


def _drawing_thread() -> ThreadPoolExecutor:
    """The one thread that draws when no worker does: one, not asyncio's default pool of up to
    32, because each drawing thread keeps its own pictures to repaint (retained.py, ~2 MB each)
    and on one core more threads only take turns."""
    global _THREAD
    if _THREAD is None:
        _THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
    return _THREAD


_THREAD: ThreadPoolExecutor | None = None


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity: `taskset`, a container's cpuset)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def default_workers(cpus: int) -> int:
    """Worker processes for a machine of `cpus` CPUs: one fewer, at most 2 — the bot's own
    process keeps a core; on one CPU a worker only takes turns with the loop and costs a process
    (bench, issue 29: on one core 0 workers answered faster than 1)."""
    return max(0, min(2, cpus - 1))


def _workers() -> int:
    """Worker processes from HANGAR_RENDER_WORKERS (unset: sized to the machine; 0 draws in a
    thread of the bot's own process)."""
    fallback = default_workers(usable_cpus())
    try:
        return max(0, int(os.environ.get("HANGAR_RENDER_WORKERS", str(fallback))))
    except ValueError:
        return fallback


POOL = RenderPool(_workers())


async def render(draw: Draw, *args: Any, **kwargs: Any) -> bytes:
    """Render through the shared pool and cache (see RenderPool.render)."""
    return await POOL.render(draw, *args, **kwargs)


def start(draw: Draw, *args: Any, **kwargs: Any) -> asyncio.Future[bytes]:
    """Start rendering through the shared pool (see RenderPool.start)."""
    return POOL.start(draw, *args, **kwargs)


class ShownImages:
    """Which image each private message shows, so an unchanged one is not re-sent.

    An image is known by Python's hash of its PNG bytes (64-bit SipHash, keyed per process: no
    one can aim a collision at it, and this map lives in one process). A bytes object keeps its
    hash once computed, so checking a panel and then recording it hashes the picture once, even
    with fifty panels in flight (a blake2b digest each time was 7 % of the loop in a burst).
    """

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._shown: OrderedDict[int, int] = OrderedDict()

    def same(self, message_id: int | None, png: bytes) -> bool:
        """True when `message_id` already shows exactly this image."""
        return message_id is not None and self._shown.get(message_id) == hash(png)

    def remember(self, message_id: int, png: bytes) -> None:
        """Record the image a message now shows."""
        self._shown[message_id] = hash(png)
        self._shown.move_to_end(message_id)
        while len(self._shown) > self.size:
            self._shown.popitem(last=False)


SHOWN = ShownImages()


def _serve_socket(fd: int) -> None:
    """A worker process's entry: serve jobs on the socket the bot passed as `fd`."""
    tune()
    _serve(Connection(fd))


if __name__ == "__main__":
    # through the module's own name: jobs carry bot.render.pool.AsJson, not __main__.AsJson
    from bot.render.pool import _serve_socket as serve

    serve(int(sys.argv[1]))
