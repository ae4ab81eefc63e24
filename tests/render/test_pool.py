"""The render pool and cache: same picture as drawing directly, drawn once per view, bounded,
surviving a broken worker; and the private picture is re-sent when, and only when, it changed."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import socket
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.render import private_png, public_png
from bot.render.pool import AsJson, PngCache, RenderPool, ShownImages, default_workers, wired
from bot.render.samples import after_moves
from rules import GAMES

NAMES = ["Alice", "Bob"]
TAKEOFF = GAMES["takeoff"]


def _views(moves: int, seat: int | None) -> BaseModel:
    """The Takeoff! view of a seat (None = public) after `moves` random moves."""
    return TAKEOFF.view(after_moves("takeoff", 2, moves), seat)


def test_cache_draws_each_view_once_and_matches_direct_drawing() -> None:
    """The second request for an equal view is a cache hit with the same bytes; a changed view
    is drawn again."""
    pool = RenderPool(0)  # a thread: the cache logic without processes
    view, later = _views(4, None), _views(5, None)

    async def run() -> list[bytes]:
        return [
            await pool.render(public_png, "takeoff", view, NAMES),
            await pool.render(public_png, "takeoff", view.model_copy(), NAMES),
            await pool.render(public_png, "takeoff", later, NAMES),
        ]

    first, again, changed = asyncio.run(run())
    assert first == again == public_png("takeoff", view, NAMES)
    assert changed != first
    assert (pool.cache.hits, pool.cache.misses) == (1, 2)


def test_two_requests_for_one_view_at_once_draw_it_once() -> None:
    """The board and a panel asking for the same picture at the same time share one drawing;
    a caller that gives up does not cost the other its picture."""
    pool = RenderPool(0)
    view = _views(7, None)
    drawn: list[str] = []

    def counting(game_id: str, view: BaseModel, names: list[str]) -> bytes:
        drawn.append(game_id)
        return public_png(game_id, view, names)

    async def run() -> tuple[bytes, bytes]:
        quitter = asyncio.ensure_future(pool.render(counting, "takeoff", view, NAMES))
        stayer = asyncio.ensure_future(pool.render(counting, "takeoff", view, NAMES))
        await asyncio.sleep(0)
        quitter.cancel()
        again = await stayer
        return again, await pool.render(counting, "takeoff", view, NAMES)

    shared, cached = asyncio.run(run())
    assert shared == cached == public_png("takeoff", view, NAMES)
    assert drawn == ["takeoff"], "one drawing for the three requests"


def test_cache_is_bounded_and_drops_the_oldest() -> None:
    """Beyond its size the cache forgets the least recently used picture."""
    cache = PngCache(size=2)
    cache.put("a", b"1")
    cache.put("b", b"2")
    assert cache.get("a") == b"1"  # a is now the most recent
    cache.put("c", b"3")
    assert len(cache) == 2 and cache.get("b") is None and cache.get("a") == b"1"


def test_worker_process_draws_the_same_bytes_and_a_broken_pool_falls_back() -> None:
    """A worker process gives the bytes of a direct call; when its process dies, rendering
    carries on in a thread."""
    pool = RenderPool(1)
    view, other = _views(3, 0), _views(6, 0)

    async def run() -> tuple[bytes, bytes]:
        first = await pool.render(private_png, "takeoff", view, NAMES)
        for worker in pool._started:  # kill the worker: the pool is now broken
            assert worker.process.pid is not None
            os.kill(worker.process.pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        return first, await pool.render(private_png, "takeoff", other, NAMES)

    try:
        first, second = asyncio.run(run())
    finally:
        pool.close()
    assert first == private_png("takeoff", view, NAMES)
    assert second == private_png("takeoff", other, NAMES)
    assert pool._broken


def test_workers_run_behind_the_event_loop() -> None:
    """Drawing yields the CPU to the bot's own process: a woken worker does not preempt it
    (SCHED_BATCH) and runs at a lower priority."""
    pool = RenderPool(1)
    try:
        asyncio.run(pool.render(private_png, "takeoff", _views(3, 0), NAMES))
        pid = pool._started[0].process.pid
        assert pid is not None
        assert os.sched_getscheduler(pid) == os.SCHED_BATCH
        assert os.getpriority(os.PRIO_PROCESS, pid) > os.getpriority(os.PRIO_PROCESS, 0)
    finally:
        pool.close()


def test_private_picture_is_resent_when_and_only_when_it_changed() -> None:
    """A panel showing a seat's picture keeps it while the seat's view is unchanged (even when
    the board moved on for the other seat's hidden cards) and gets a new one after a change."""
    shown = ShownImages()
    state = after_moves("takeoff", 2, 6)
    seat = 1 - state.turn
    picture = private_png("takeoff", TAKEOFF.view(state, seat), NAMES)
    shown.remember(42, picture)
    hands = (state.hands[0], state.hands[1])
    reshuffled_other = state.model_copy(
        update={"hands": tuple(h[::-1] if i != seat else h for i, h in enumerate(hands))}
    )
    unchanged = private_png("takeoff", TAKEOFF.view(reshuffled_other, seat), NAMES)
    assert shown.same(42, unchanged), "the other hand is hidden: same picture, not re-sent"
    active = state.turn
    moved = TAKEOFF.apply(state, active, TAKEOFF.legal_actions(state, active)[0]).state
    changed = private_png("takeoff", TAKEOFF.view(moved, seat), NAMES)
    assert not shown.same(42, changed) and not shown.same(43, picture)


def fails(game_id: str) -> bytes:
    """A drawing that raises (in the worker process)."""
    raise ValueError(f"no picture for {game_id}")


def slow_public(game_id: str, view: BaseModel, names: list[str], pause: float) -> bytes:
    """`public_png` after a pause (a long job to wait behind or to cancel)."""
    time.sleep(pause)
    return public_png(game_id, view, names)


def test_more_jobs_than_workers_each_get_their_own_picture_and_errors_come_back() -> None:
    """Six different views through two workers: every caller gets the picture of its own view,
    in any order of completion; a drawing that raises raises in the caller, and the workers
    carry on."""
    pool = RenderPool(2)
    views = [_views(2 + moves, None) for moves in range(6)]

    async def run() -> list[bytes]:
        jobs = [
            pool.render(slow_public, "takeoff", v, NAMES, 0.05 * (i % 3))
            for i, v in enumerate(views)
        ]
        pictures = await asyncio.gather(*jobs)
        with pytest.raises(ValueError, match="no picture for takeoff"):
            await pool.render(fails, "takeoff")
        return [*pictures, await pool.render(public_png, "takeoff", views[0], NAMES)]

    try:
        pictures = asyncio.run(run())
    finally:
        pool.close()
    assert pictures[:6] == [public_png("takeoff", v, NAMES) for v in views]
    assert pictures[6] == pictures[0]
    assert not pool._broken


def started_at(game_id: str) -> bytes:
    """When the worker began this job (the monotonic clock every process shares)."""
    return repr(time.perf_counter()).encode()


def test_a_job_reaches_an_idle_worker_before_the_loop_goes_on() -> None:
    """A picture started just before a move's transaction is drawn while the transaction runs
    on the loop (which does not wait until its COMMIT), not after it; a second job waits in the
    busy worker and is drawn right after the first, still while the loop is busy; a third waits
    its turn in the pool and is drawn once the loop hands it the worker."""
    pool = RenderPool(1)
    busy_loop = 0.3  # seconds the loop runs without waiting, like a transaction up to COMMIT

    async def run() -> tuple[float, list[float]]:
        await pool.render(started_at, "warm-up")  # the worker process is up
        begun = time.perf_counter()
        jobs = [pool.start(started_at, name) for name in ("board", "panel", "third")]
        time.sleep(busy_loop)
        return begun, [float(await job) for job in jobs]

    try:
        begun, (first, second, third) = asyncio.run(run())
    finally:
        pool.close()
    assert begun < first < begun + busy_loop, "the worker began while the loop was busy"
    assert first < second < begun + busy_loop, "the second job followed the first at once"
    assert third > begun + busy_loop, "the third job waited for the loop to hand it over"


def test_a_queued_job_given_up_leaves_the_worker_and_the_others_right() -> None:
    """Two jobs sent to one worker at once: the first job's caller gives up mid-job; the
    second still gets its own picture, and the worker stays in service for the next."""
    pool = RenderPool(1)
    slow, queued, later = _views(3, None), _views(6, None), _views(9, None)

    async def run() -> tuple[bytes, bytes, int]:
        await pool.render(started_at, "warm-up")
        first = asyncio.ensure_future(
            pool._run(slow_public, wired(("takeoff", slow, NAMES, 0.3)), {})
        )
        await asyncio.sleep(0)  # the first job is in the worker
        second = pool.start(public_png, "takeoff", queued, NAMES)
        pid = pool._started[0].process.pid
        await asyncio.sleep(0.1)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        mine = await asyncio.wait_for(second, 30)
        after = await asyncio.wait_for(pool.render(public_png, "takeoff", later, NAMES), 30)
        assert pool._started[0].process.pid == pid, "the worker was kept"
        return mine, after, len(pool._idle)

    try:
        mine, after, idle = asyncio.run(run())
    finally:
        pool.close()
    assert mine == public_png("takeoff", queued, NAMES)
    assert after == public_png("takeoff", later, NAMES)
    assert idle == 1 and not pool._broken


def test_a_job_the_worker_cannot_take_fails_alone() -> None:
    """A job whose arguments cannot be sent to a worker fails for its caller; the worker stays
    in service and the next picture comes from it."""
    pool = RenderPool(1)
    view = _views(3, None)

    async def run() -> bytes:
        await pool.render(public_png, "takeoff", view, NAMES)  # the worker process is up
        with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
            await pool.render(public_png, "takeoff", view, NAMES, unsendable=lambda: None)
        return await asyncio.wait_for(
            pool.render(public_png, "takeoff", _views(5, None), NAMES), 30
        )

    try:
        picture = asyncio.run(run())
    finally:
        pool.close()
    assert picture == public_png("takeoff", _views(5, None), NAMES)
    assert not pool._broken


def test_a_job_cancelled_in_a_worker_never_answers_the_next_one() -> None:
    """Closing the pool mid-job stops that worker; the next picture is the right one."""
    pool = RenderPool(1)
    slow, quick = _views(3, None), _views(9, None)

    async def run() -> bytes:
        job = asyncio.ensure_future(pool._run(slow_public, ("takeoff", slow, NAMES, 0.5), {}))
        await asyncio.sleep(0.2)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        return await pool.render(public_png, "takeoff", quick, NAMES)

    try:
        picture = asyncio.run(run())
    finally:
        pool.close()
    assert picture == public_png("takeoff", quick, NAMES)


def test_a_job_left_in_flight_by_a_closed_loop_does_not_hold_its_worker() -> None:
    """Tests run one event loop each: a job abandoned when its loop closed must neither keep the
    worker busy for ever nor answer the next loop's job."""
    pool = RenderPool(1)
    slow, quick = _views(3, None), _views(9, None)

    left: list[asyncio.Future[bytes]] = []

    async def abandon() -> None:
        left.append(asyncio.ensure_future(pool.render(slow_public, "takeoff", slow, NAMES, 0.5)))
        await asyncio.sleep(0.2)  # the job is in the worker when this loop ends

    async def next_loop() -> bytes:
        return await asyncio.wait_for(pool.render(public_png, "takeoff", quick, NAMES), 30)

    old = asyncio.new_event_loop()
    try:
        old.run_until_complete(abandon())
        old.close()  # closed without cancelling: the job's task is simply dropped
        picture = asyncio.run(next_loop())
    finally:
        pool.close()
    assert picture == public_png("takeoff", quick, NAMES)


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("takeoff", 2), ("flight", 3), ("flight", 5), ("first-in-flight", 4), ("first-in-flight", 1)],
)
def test_a_view_sent_as_json_comes_back_equal(game_id: str, players: int) -> None:
    """Workers get views as their JSON: every public and private view of a game, at many moves,
    is equal to the original after the trip (so the picture is the same)."""
    game = GAMES[game_id]
    checked = 0
    for moves in range(0, 120, 7):
        state = after_moves(game_id, players, moves, seed=moves)
        for seat in (None, *range(players)):
            view = game.view(state, seat)
            (sent,) = wired((view,))
            assert isinstance(sent, AsJson)
            assert sent.load() == view, (game_id, moves, seat)
            checked += 1
    assert checked > 30


def test_workers_are_sized_to_the_cpus_the_bot_may_use() -> None:
    """A 1-CPU host draws in the bot's own process (a worker there only takes turns with the
    loop and costs a process); bigger hosts keep one CPU for the bot, at most two workers."""
    assert [default_workers(cpus) for cpus in (1, 2, 3, 4, 16)] == [0, 1, 2, 2, 2]


def test_a_worker_is_a_lean_process_without_a_multiprocessing_helper() -> None:
    """A worker runs the render pool's own entry point, not a copy of the bot's main module, and
    no multiprocessing helper process (resource tracker, fork server) starts beside it."""
    pool = RenderPool(1)
    try:
        view = _views(3, None)
        assert asyncio.run(pool.render(public_png, "takeoff", view, NAMES)) == public_png(
            "takeoff", view, NAMES
        )
        worker = pool._started[0].process.pid
        children = _children(os.getpid())
        commands = {pid: _cmdline(pid) for pid in children}
        assert b"bot.render.pool" in commands[worker]
        assert not [c for c in commands.values() if b"resource_tracker" in c or b"forkserver" in c]
    finally:
        pool.close()


def _children(parent: int) -> list[int]:
    """The pids whose parent is `parent`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _cmdline(pid: int) -> bytes:
    """A process's command line (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_a_board_drawn_ahead_is_joined_and_a_discarded_one_is_not_kept() -> None:
    """A board started before its move commits is the picture asked for after the commit (drawn
    once); when the commit fails it is discarded, and never served from the cache."""
    pool = RenderPool(0)
    view, other = _views(4, None), _views(8, None)
    drawn: list[int] = []

    def counting(game_id: str, view: BaseModel, names: list[str]) -> bytes:
        drawn.append(1)
        return public_png(game_id, view, names)

    async def run() -> tuple[bytes, bytes]:
        pool.ahead(counting, "takeoff", view, NAMES)
        joined = await pool.render(counting, "takeoff", view, NAMES)
        discard = pool.ahead(counting, "takeoff", other, NAMES)
        await asyncio.sleep(0)
        discard()
        while pool._drawing:  # the discarded job ends unseen
            await asyncio.sleep(0.01)
        return joined, await pool.render(counting, "takeoff", other, NAMES)

    joined, again = asyncio.run(run())
    assert joined == public_png("takeoff", view, NAMES)
    assert again == public_png("takeoff", other, NAMES)
    assert len(drawn) == 3  # the first once, the discarded one drawn again when asked for


def test_a_worker_whose_bot_exited_mid_job_ends_without_a_traceback() -> None:
    """The bot dies while a picture is drawn: the worker ends quietly (the bot's log is its
    stderr, and a traceback there reads like a failure of the move)."""
    ours, theirs = socket.socketpair()
    worker = subprocess.Popen(
        [sys.executable, "-m", "bot.render.pool", str(theirs.fileno())],
        pass_fds=(theirs.fileno(),),
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    theirs.close()
    conn = Connection(ours.detach())
    job = (slow_public, ("takeoff", _views(3, None), NAMES, 0.5), {})
    conn.send_bytes(pickle.dumps(job, pickle.HIGHEST_PROTOCOL))
    conn.close()  # as the bot's exit does, before the reply
    _, stderr = worker.communicate(timeout=30)
    assert worker.returncode == 0
    assert stderr == b""
