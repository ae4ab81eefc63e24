"""A SQLite database whose files stop taking writes (issue 26): refused as StoreUnavailable, the
episode logged once, and the same connection writes again once the files can be written."""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path

import pytest

from bot.store import SqliteStore
from bot.store.errors import StoreUnavailable
from bot.store.meta import get_meta, set_meta
from bot.store.sqlite_disk import DiskWatch


def _immutable(paths: list[Path], on: bool) -> None:
    """chattr ±i: the kernel refuses writes even through open descriptors (root only)."""
    for path in paths:
        subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True, capture_output=True)


def _need_chattr(path: Path) -> None:
    """Skip unless this process may mark `path` immutable (root on ext4, xfs, btrfs…)."""
    if os.geteuid() != 0:
        pytest.skip("marking files immutable needs root")
    try:
        _immutable([path], True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"chattr +i is not possible here: {exc}")
    _immutable([path], False)


def _errors(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    """Messages the disk watch logged at exactly `level`."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.store.sqlite_disk" and r.levelno == level
    ]


async def test_a_refused_write_is_explained_reads_go_on_and_the_store_recovers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Database and WAL immutable: writes raise StoreUnavailable (one ERROR for the episode,
    no traceback), reads still work; writable again, the next write commits and says so."""
    path = tmp_path / "hangar.sqlite3"
    store = await SqliteStore.open(path)
    try:
        async with store.transaction() as db:
            await set_meta(db, "k", "before")
        files = [path, Path(f"{path}-wal")]
        _need_chattr(path)
        _immutable(files, True)
        try:
            with caplog.at_level(logging.INFO, logger="bot.store.sqlite_disk"):
                for attempt in ("first", "second"):
                    with pytest.raises(StoreUnavailable) as refused:
                        async with store.transaction() as db:
                            await set_meta(db, "k", attempt)
                    assert refused.value.writing
                async with store.reading() as db:
                    assert await get_meta(db, "k") == "before"
                with pytest.raises(StoreUnavailable):
                    await store.ping()  # health: not healthy while writes fail
        finally:
            _immutable(files, False)
        [error] = _errors(caplog, logging.ERROR)
        assert str(path) in error and "cannot be written" in error
        assert not any(r.exc_info for r in caplog.records)

        with caplog.at_level(logging.INFO, logger="bot.store.sqlite_disk"):
            async with store.transaction() as db:
                await set_meta(db, "k", "after")
            async with store.transaction() as db:
                await set_meta(db, "k", "again")
        assert len(_errors(caplog, logging.WARNING)) == 1  # "can be written again", once
        async with store.reading() as db:
            assert await get_meta(db, "k") == "again"
        await store.ping()
    finally:
        await store.close()


def test_an_unwritable_shared_memory_file_is_refused_before_sqlite_maps_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The -shm check: SQLite writing into a mapped file the OS refuses would be SIGBUS."""
    path = tmp_path / "hangar.sqlite3"
    shm = Path(f"{path}-shm")
    watch = DiskWatch(path)
    watch.check(writing=True)  # no -shm yet: SQLite creates it
    shm.write_bytes(b"\0" * 32)
    watch.check(writing=False)
    if os.geteuid() == 0:
        _need_chattr(shm)
        _immutable([shm], True)
    else:
        shm.chmod(0o444)
    try:
        with caplog.at_level(logging.INFO, logger="bot.store.sqlite_disk"):
            for writing in (False, True):
                with pytest.raises(StoreUnavailable) as refused:
                    watch.check(writing=writing)
                assert refused.value.writing is writing
    finally:
        if os.geteuid() == 0:
            _immutable([shm], False)
        shm.chmod(0o644)
    assert len(_errors(caplog, logging.ERROR)) == 1
    assert watch.trouble is not None
    watch.check(writing=True)
    watch.committed()
    assert watch.trouble is None
