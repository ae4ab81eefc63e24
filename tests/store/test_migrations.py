"""Schema migrations on real SQLite files: from empty, from the first schema, and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services import GameService
from bot.store import LATEST, connect, migrate, open_store, schema_version
from bot.store import history as hrepo
from bot.store import repository as repo
from tests.support.reads import user_games
from tests.support.toygame import TOY


async def _names(db, kind: str) -> set[str]:  # type: ignore[no-untyped-def]
    """Names of the tables/indexes/triggers in the schema."""
    sql = "SELECT name FROM sqlite_master WHERE type = ?"
    async with db.execute(sql, (kind,)) as cursor:
        return {row[0] for row in await cursor.fetchall()}


async def test_empty_database_migrates_to_latest(tmp_path: Path) -> None:
    """A new file gets every table, the one-game-per-channel index and the append-only guard."""
    store = await open_store(tmp_path / "new.sqlite3")
    try:
        assert await schema_version(store.db) == LATEST
        assert {"games", "seats", "actions", "events"} <= await _names(store.db, "table")
        indexes = await _names(store.db, "index")
        assert {"games_one_open_per_channel", "seats_by_user", "games_by_channel"} <= indexes
        assert "actions_undone" in indexes
        assert {"actions_no_update", "actions_no_delete"} <= await _names(store.db, "trigger")
    finally:
        await store.close()


async def test_connection_settings(tmp_path: Path) -> None:
    """WAL journal, enforced foreign keys and a busy timeout on every connection."""
    store = await open_store(tmp_path / "s.sqlite3")
    try:
        pragmas = {}
        for name in ("journal_mode", "foreign_keys", "busy_timeout"):
            async with store.db.execute(f"PRAGMA {name}") as cursor:
                pragmas[name] = (await cursor.fetchone())[0]
        assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 5000}
    finally:
        await store.close()


async def test_reopening_is_a_no_op(tmp_path: Path) -> None:
    """Opening an up-to-date database twice changes nothing."""
    path = tmp_path / "twice.sqlite3"
    await (await open_store(path)).close()
    store = await open_store(path)
    try:
        assert await schema_version(store.db) == LATEST
    finally:
        await store.close()


async def test_first_schema_with_a_game_in_progress_upgrades_and_plays_on(tmp_path: Path) -> None:
    """A version-1 database holding a running game migrates, keeps its data and plays on."""
    path = tmp_path / "old.sqlite3"
    db = await connect(path)
    assert await migrate(db, target=1) == 1
    state = TOY.new_game(5, 2, None)
    await db.execute("BEGIN IMMEDIATE")
    pk = await repo.insert_game(
        db,
        guild_id=1,
        channel_id=9,
        game_id="toy",
        options={"rounds": 3},
        seed=5,
        creator_id=11,
        now=1.0,
    )
    # The version-1 seats table (no ai_level column yet), written as the old code did.
    await db.executemany(
        "INSERT INTO seats (game_pk, seat, user_id, name) VALUES (?, ?, ?, ?)",
        [(pk, 0, 11, "Alice"), (pk, 1, 12, "Bob")],
    )
    await repo.update_snapshot(
        db, pk, expected_version=0, snapshot=TOY.dump_state(state), status="running", now=2.0
    )
    after = TOY.apply(state, 0, "bid:2")
    await repo.insert_action(
        db,
        pk,
        seat=0,
        action={"key": "bid:2", "label": "Bid 2"},
        user_id=11,
        events=[e.model_dump(mode="json") for e in after.events],
        now=3.0,
    )
    await repo.update_snapshot(
        db,
        pk,
        expected_version=1,
        snapshot=TOY.dump_state(after.state),
        status="running",
        now=3.0,
    )
    await db.commit()
    await db.close()

    store = await open_store(path)
    try:
        assert await schema_version(store.db) == LATEST
        assert "seats_by_user" in await _names(store.db, "index")
        service = GameService(store, games={"toy": TOY})
        loaded = await service.load(9)
        assert loaded.state == after.state and loaded.record.version == 2
        assert loaded.names == ("Alice", "Bob")
        assert (await service.admin.verify(9)).ok
        result = await service.act(9, 12, "bid:1", expected_version=2)
        assert result.loaded.record.version == 3
        assert [g.record.pk for g in await user_games(service, 1, 12)] == [pk]
    finally:
        await store.close()


async def test_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    """A schema from a future release is not silently used."""
    path = tmp_path / "future.sqlite3"
    db = await connect(path)
    await db.execute(f"PRAGMA user_version = {LATEST + 1}")
    await db.close()
    with pytest.raises(RuntimeError, match="newer"):
        await open_store(path)


async def test_migration_9_keeps_old_results_and_remembers_former_seat_holders(
    tmp_path: Path,
) -> None:
    """A version-8 result reads back as a seat-less, non-former entry; /admin replace then
    records who held the seat before (once per person and seat)."""
    path = tmp_path / "eight.sqlite3"
    db = await connect(path)
    assert await migrate(db, target=8) == 8
    await db.execute("BEGIN IMMEDIATE")
    pk = await repo.insert_game(
        db, guild_id=1, channel_id=9, game_id="toy", options={}, seed=5, creator_id=11, now=1.0
    )
    await db.execute(
        "INSERT INTO results (game_pk, entry, guild_id, game_id, finished_at, player, user_id, "
        "name, place, score, won, turns, think_seconds) "
        "VALUES (?, 0, 1, 'toy', 2.0, 'user:11', 11, 'Alice', 1, 5, 1, 3, 4.0)",
        (pk,),
    )
    await db.commit()
    await db.close()

    store = await open_store(path)
    try:
        assert await schema_version(store.db) == LATEST
        assert "seat_holders" in await _names(store.db, "table")
        async with store.reading() as read:
            (row,) = await hrepo.fetch_game_results(read, [pk])
        assert (row.name, row.seat, row.former, row.won) == ("Alice", None, False, True)
        async with store.transaction() as write:
            for at in (3.0, 4.0):
                await hrepo.add_former_holder(write, pk, hrepo.FormerHolder(1, 12, "Bob"), at)
        async with store.reading() as read:
            assert await hrepo.fetch_former_holders(read, pk) == [hrepo.FormerHolder(1, 12, "Bob")]
    finally:
        await store.close()
