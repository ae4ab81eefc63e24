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


def test_a_process_that_is_never_quiet_still_trims() -> None:
    trim = IdleTrim()
    for _ in range(heap.TRIM_EVERY - 1):
        trim.worked()
    assert trim.trims == 0
    trim.worked()
    assert trim.trims == 1
    trim.idle()
    assert trim.trims == 1  # no work since the last trim


# A child process, tuned as the bot and its workers are: pictures' worth of blocks taken and
# freed between small blocks still in use (glibc cannot give them back on its own), then trimmed.
CHILD = textwrap.dedent(
    """
    from bot.heap import IdleTrim, tune

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
    del big
    freed = rss()
    trim.worked()
    trim.idle()
    print(busy, freed, rss(), trim.trims)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap")
def test_freed_pictures_stay_for_reuse_until_the_trim_gives_them_back() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD], check=True, capture_output=True, text=True
    ).stdout
    busy, freed, trimmed, trims = (int(word) for word in out.split())
    assert trims == 1
    # 80 MiB of pictures: kept by the heap when freed (not unmapped one by one), given back
    # by the trim
    assert freed > busy - 20
    assert trimmed < busy - 60
