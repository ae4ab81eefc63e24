"""The store's guarantees: atomic transactions, append-only log, one open game per channel."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store, open_store
from bot.store import repository as repo
from bot.store.repository import SeatRecord


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """A migrated store on a real database (each backend in turn)."""
    opened = await open_store(database_url)
    yield opened
    await opened.close()


async def _new_game(store: Store, channel: int = 5) -> int:
    """A lobby with one seat; returns its pk."""
    async with store.transaction() as db:
        pk = await repo.insert_game(
            db,
            guild_id=1,
            channel_id=channel,
            game_id="toy",
            options={},
            seed=3,
            creator_id=11,
            now=1.0,
        )
        await repo.replace_seats(db, pk, (SeatRecord(0, 11, "Alice"),), 1.0)
    return pk


async def _log_move(store: Store, pk: int) -> int:
    """Append one move with one event; returns its seq."""
    async with store.transaction() as db:
        return await repo.insert_action(
            db,
            pk,
            seat=0,
            action={"key": "bid:1"},
            user_id=11,
            events=[{"kind": "bid", "text": "{seat0} bid 1."}],
            now=2.0,
        )


async def test_an_exception_inside_a_transaction_leaves_the_database_unchanged(
    store: Store,
) -> None:
    """Crash safety: a failure after writes rolls every one of them back."""
    pk = await _new_game(store)
    with pytest.raises(RuntimeError, match="boom"):
        async with store.transaction() as db:
            await repo.insert_action(
                db, pk, seat=0, action={"key": "bid:1"}, user_id=11, events=[], now=2.0
            )
            await repo.set_status(db, pk, "abandoned", 2.0)
            raise RuntimeError("boom")
    async with store.reading() as db:
        assert await repo.fetch_actions(db, pk) == []
        stored = await repo.fetch_game(db, pk)
    assert stored is not None and stored.record.status == "lobby"


async def test_a_rolled_back_transaction_is_invisible_to_a_second_connection(
    store: Store, database_url: str
) -> None:
    """Another process never sees half of a transaction."""
    pk = await _new_game(store)
    other = await open_store(database_url)
    try:
        with pytest.raises(RuntimeError):
            async with store.transaction() as db:
                await repo.set_status(db, pk, "abandoned", 2.0)
                raise RuntimeError("crash before commit")
        async with other.reading() as db:
            stored = await repo.fetch_open_game(db, 5)
        assert stored is not None and stored.record.status == "lobby"
    finally:
        await other.close()


async def test_the_action_log_is_append_only(store: Store) -> None:
    """Rows of the log can be neither changed nor deleted."""
    pk = await _new_game(store)
    await _log_move(store, pk)
    for sql in ("UPDATE actions SET seat = 1", "DELETE FROM actions"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with store.transaction() as db:
                await db.execute(sql)
    async with store.reading() as db:
        assert [a.key for a in await repo.fetch_actions(db, pk)] == ["bid:1"]


async def test_undo_rows_hide_a_move_and_its_events_without_deleting_them(store: Store) -> None:
    """An undone move drops out of the replayed log and the recent events."""
    pk = await _new_game(store)
    first = await _log_move(store, pk)
    second = await _log_move(store, pk)
    async with store.transaction() as db:
        await repo.insert_undo(db, pk, undoes=second, user_id=None, now=3.0)
    async with store.reading() as db:
        assert [a.seq for a in await repo.fetch_actions(db, pk)] == [first]
        assert len(await repo.fetch_recent_events(db, pk, 10)) == 1
        assert await repo.next_seq(db, pk) == 4


async def test_one_open_game_per_channel_is_enforced_by_the_schema(store: Store) -> None:
    """A second lobby in a channel fails until the first one is closed."""
    pk = await _new_game(store)
    with pytest.raises(sqlite3.IntegrityError):
        await _new_game(store)
    async with store.transaction() as db:
        await repo.set_status(db, pk, "finished", 3.0)
    assert await _new_game(store) != pk


async def test_foreign_keys_are_enforced(store: Store) -> None:
    """Seats and moves cannot point at a game that does not exist."""
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction() as db:
            await repo.replace_seats(db, 999, (SeatRecord(0, 1, "Ghost"),), 1.0)
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction() as db:
            await repo.insert_action(
                db, 999, seat=0, action={"key": "x"}, user_id=1, events=[], now=1.0
            )


async def test_snapshot_update_loses_when_the_version_moved(store: Store) -> None:
    """The optimistic check: an update for an old version writes nothing."""
    pk = await _new_game(store)
    async with store.transaction() as db:
        assert await repo.update_snapshot(
            db, pk, expected_version=0, snapshot={"v": 1}, status="running", now=2.0
        )
        assert not await repo.update_snapshot(
            db, pk, expected_version=0, snapshot={"v": 2}, status="running", now=2.0
        )
    async with store.reading() as db:
        stored = await repo.fetch_game(db, pk)
    assert stored is not None and stored.snapshot == {"v": 1} and stored.record.version == 1


async def test_a_failed_commit_rolls_back_and_the_store_stays_usable(store: Store) -> None:
    """A COMMIT that fails (here: a deferred foreign key) leaves nothing half-open."""
    pk = await _new_game(store)
    if store.dialect == "postgres":  # PostgreSQL defers only constraints declared DEFERRABLE
        async with store.transaction() as db:
            await db.execute(
                "CREATE TABLE probe (game_pk BIGINT REFERENCES games (pk) "
                "DEFERRABLE INITIALLY DEFERRED)"
            )
    with pytest.raises(sqlite3.IntegrityError, match=r"(?i)FOREIGN KEY"):
        async with store.transaction() as db:
            if store.dialect == "postgres":
                await db.execute("INSERT INTO probe (game_pk) VALUES (999)")
            else:
                await db.execute("PRAGMA defer_foreign_keys = ON")
            await repo.set_status(db, pk, "abandoned", 2.0)
            if store.dialect == "sqlite":
                await repo.replace_seats(db, 999, (SeatRecord(0, 1, "Ghost"),), 1.0)
    async with store.reading() as db:
        stored = await repo.fetch_game(db, pk)
    assert stored is not None and stored.record.status == "lobby"
    await _log_move(store, pk)


async def test_a_write_waits_for_another_programs_lock_without_blocking_the_loop(
    tmp_path: Path,
) -> None:
    """Another program (here a second connection) holds the write lock: the move's transaction
    waits for it off the event loop (the loop keeps ticking) and commits once it is released."""
    path = tmp_path / "locked.sqlite3"
    store = await open_store(path)
    try:
        async with store.transaction() as db:
            await db.execute("CREATE TABLE notes (body TEXT)")
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        ticks = 0

        async def write() -> None:
            async with store.transaction() as db:
                await db.execute("INSERT INTO notes VALUES ('after the lock')")

        writing = asyncio.ensure_future(write())
        for _ in range(20):  # 0.2 s during which the loop must stay free
            await asyncio.sleep(0.01)
            ticks += 1
        assert not writing.done(), "the write waited for the lock"
        other.execute("COMMIT")
        await asyncio.wait_for(writing, 10)
        other.close()
        assert ticks == 20
        async with store.reading() as db, db.execute("SELECT body FROM notes") as cursor:
            assert [row[0] for row in await cursor.fetchall()] == ["after the lock"]
        async with store.reading() as db, db.execute("PRAGMA busy_timeout") as cursor:
            assert (await cursor.fetchone())[0] == 5000, "the timeout is put back"
    finally:
        await store.close()
