"""The C heap's settings: pictures reuse the heap's pages, and a quiet process gives them back."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import pytest

from bot import heap
from bot.heap import IdleTrim


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quiet moment of 50 ms instead of a second."""
    monkeypatch.setattr(heap, "IDLE_SECONDS", 0.05)


async def test_a_quiet_loop_trims_once_after_its_last_work(quick: None) -> None:
    trim = IdleTrim()
    trim.arm()
    await asyncio.sleep(0.03)
    trim.arm()  # more work puts the trim off again
    await asyncio.sleep(0.03)
    assert trim.trims == 0
    await asyncio.sleep(0.08)
    assert trim.trims == 1
    await asyncio.sleep(0.08)
    assert trim.trims == 1  # nothing was done since: nothing to give back


def test_a_process_that_is_never_quiet_trims_once_its_free_heap_is_large(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(heap, "free_heap", lambda: heap.BUSY_FREE + 1)
    trim = IdleTrim()
    for _ in range(heap.TRIM_EVERY - 1):
        trim.worked()
    assert trim.trims == 0
    trim.worked()
    assert trim.trims == 1
    trim.idle()
    assert trim.trims == 1  # no work since the last trim


def test_a_busy_process_keeps_a_small_free_heap_until_it_is_quiet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Free pages the next pictures would fault in again stay while work goes on; the quiet
    trim still gives them back."""
    monkeypatch.setattr(heap, "free_heap", lambda: heap.BUSY_FREE // 2)
    trim = IdleTrim()
    for _ in range(3 * heap.TRIM_EVERY):
        trim.worked()
    assert trim.trims == 0
    trim.idle()
    assert trim.trims == 1


# A child process, tuned as the bot and its workers are: pictures' worth of blocks taken and
# freed between small blocks still in use (glibc cannot give them back on its own), then trimmed.
CHILD = textwrap.dedent(
    """
    from bot.heap import IdleTrim, free_heap, tune

    def rss():
        with open("/proc/self/status") as status:
            line = next(line for line in status if line.startswith("VmRSS"))
        return int(line.split()[1]) // 1024

    assert tune()
    trim = IdleTrim()
    big, small = [], []
    for _ in range(40):
        big.append(bytearray(2 * 1024 * 1024))  # a picture's pixels, touched
        small.append(bytearray(1024))  # kept: the freed blocks are not at the heap's top
    busy = rss()
    held = free_heap() // (1024 * 1024)
    del big
    freed = rss()
    free = free_heap() // (1024 * 1024) - held
    trim.worked()
    trim.idle()
    print(busy, freed, rss(), trim.trims, free)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap")
def test_freed_pictures_stay_for_reuse_until_the_trim_gives_them_back() -> None:
    if heap.free_heap() is None:
        pytest.skip("glibc older than 2.33: no mallinfo2")
    out = subprocess.run(
        [sys.executable, "-c", CHILD], check=True, capture_output=True, text=True
    ).stdout
    busy, freed, trimmed, trims, free = (int(word) for word in out.split())
    assert trims == 1
    assert free >= 70, "glibc's count of free bytes (what a busy process trims by) saw them"
    # 80 MiB of pictures: kept by the heap when freed (not unmapped one by one), given back
    # by the trim
    assert freed > busy - 20
    assert trimmed < busy - 60
