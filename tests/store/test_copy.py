"""`python -m bot.store copy` and `migrate`: every game moves between backends and still replays."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from bot.services import GameService, LoadedGame
from bot.services.history import backfill
from bot.services.replay import replay_problem
from bot.store import clocks as cs
from bot.store import open_store
from bot.store import repository as repo
from bot.store.copy import copy_database
from bot.store.meta import commands_hash_key, get_meta, set_meta
from tests.services.conftest import FakeClock
from tests.support.databases import postgres_schema

ROOT = Path(__file__).resolve().parents[2]
GUILD = 1
APPLICATION = 7  # _fill's own hash is under application 42
SOURCE_BEAT, TARGET_BEAT = 1_700_000_000.0, 1_700_009_000.0


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema."""
    async for url in postgres_schema():
        yield url


async def _play(service: GameService, channel: int, game_id: str, moves: int) -> LoadedGame:
    """A started game of `game_id` with `moves` random legal moves made."""
    game = rules.GAMES[game_id]
    await service.lobby.open(GUILD, channel, game_id, {}, 1000, "P1", seed=channel)
    for i in range(1, game.min_players):
        await service.lobby.join(channel, 1000 + i, f"P{i + 1}")
    loaded = (await service.lobby.start(channel, 1000, False)).loaded
    chooser = random.Random(channel)
    for _ in range(moves):
        if loaded.outcome is not None:
            break
        seat = loaded.active_seats[0]
        action = chooser.choice(game.legal_actions(loaded.state, seat))
        user = loaded.user_of(seat)
        assert user is not None
        loaded = (await service.act(channel, user, action.key, loaded.record.version)).loaded
    return loaded


async def _fill(url: str) -> dict[int, LoadedGame]:
    """Three games in progress, one lobby, one abandoned game and a setting."""
    store = await open_store(url)
    service = GameService(store, clock=FakeClock())
    games = {
        channel: await _play(service, channel, game_id, 25)
        for channel, game_id in ((10, "takeoff"), (11, "flight"), (12, "first-in-flight"))
    }
    await service.lobby.open(GUILD, 13, "flight", {}, 2000, "Lobbyist", seed=5)
    await _play(service, 14, "takeoff", 3)
    await service.admin.abandon(14, 1000, True)
    async with store.transaction() as db:
        await set_meta(db, "commands-hash:42", "abc")
    await store.close()
    return games


async def _same_games(url: str, games: dict[int, LoadedGame]) -> None:
    """The copy holds the same games, and play goes on there."""
    store = await open_store(url)
    try:
        service = GameService(store, clock=FakeClock())
        for before in games.values():
            async with store.reading() as db:
                after = await repo.fetch_game(db, before.record.pk)
            assert after is not None and after.record == before.record
            assert after.snapshot == before.game.dump_state(before.state)
            assert [s.user_id for s in after.seats] == [s.user_id for s in before.seats]
        running = [c for c, g in games.items() if g.outcome is None]
        assert running and all([(await service.admin.verify(c)).ok for c in running])
        assert (await service.load(13)).record.status == "lobby"
        async with store.reading() as db:
            assert await get_meta(db, "commands-hash:42") == "abc"
            latest = await repo.fetch_latest_game(db, 14)
        assert latest is not None and latest.record.status == "abandoned"
        fresh = await service.lobby.open(GUILD, 99, "takeoff", {}, 1, "New", seed=1)
        assert fresh.record.pk > max(g.record.pk for g in games.values())
    finally:
        await store.close()


async def test_sqlite_to_postgres_and_back(tmp_path: Path, postgres_url: str) -> None:
    """SQLite → PostgreSQL → a new SQLite file: same games, logs, seats and settings."""
    first = str(tmp_path / "first.sqlite3")
    games = await _fill(first)
    there = await copy_database(first, postgres_url, replay_problem)
    assert there.ok, there.summary()
    assert there.games_checked == 4 and there.rows["games"] == 5
    back = await copy_database(postgres_url, str(tmp_path / "back.sqlite3"), replay_problem)
    assert back.ok and back.rows == there.rows
    await _same_games(postgres_url, games)
    await _same_games(str(tmp_path / "back.sqlite3"), games)


async def test_copy_refuses_a_target_that_already_holds_games(tmp_path: Path) -> None:
    """Copying onto live data would mix two histories: refused, nothing written."""
    source, target = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    await _fill(source)
    await _fill(target)
    with pytest.raises(ValueError, match="already holds 5 games"):
        await copy_database(source, target, replay_problem)


async def test_a_log_that_no_longer_replays_is_reported(tmp_path: Path) -> None:
    """The check is real: a snapshot that disagrees with the log is named as a problem."""
    source = str(tmp_path / "a.sqlite3")
    games = await _fill(source)
    store = await open_store(source)
    async with store.transaction() as db:
        await db.execute("UPDATE games SET snapshot = ? WHERE pk = ?", ("{}", games[10].record.pk))
    await store.close()
    report = await copy_database(source, str(tmp_path / "b.sqlite3"), replay_problem)
    assert not report.ok and f"game {games[10].record.pk} (takeoff)" in report.summary()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_migrate_command_prepares_a_database_without_the_bot(
    tmp_path: Path, backend: str
) -> None:
    """`python -m bot.store migrate URL` creates the schema; the store then opens at once."""
    if backend == "sqlite":
        await _migrate_and_check(str(tmp_path / "m.sqlite3"))
        return
    async for url in postgres_schema():
        await _migrate_and_check(url)


async def _migrate_and_check(url: str) -> None:
    """Run the command, then find the tables there."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "bot.store", "migrate", url],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "is at schema" in run.stdout
    store = await open_store(url)
    try:
        async with store.reading() as db:
            assert await repo.fetch_open_game(db, 1) is None
    finally:
        await store.close()


async def _start_bot_on(url: str, now: float) -> None:
    """Write what the bot writes when it starts on a database: its heartbeat (the statement the
    scheduler's downtime check ends with), backfilled results (none without games) and the hash
    of the slash commands it synced."""
    store = await open_store(url)
    try:
        async with store.transaction() as db:
            await cs.put_beat(db, now)
        await backfill(store)
        async with store.transaction() as db:
            await set_meta(db, commands_hash_key(APPLICATION), f"synced at {now}")
    finally:
        await store.close()


async def _set_prefs(url: str, *prefs: cs.UserPrefs) -> None:
    """Store users' /notify and /away choices."""
    store = await open_store(url)
    try:
        async with store.transaction() as db:
            for p in prefs:
                await cs.put_prefs(db, p)
    finally:
        await store.close()


def _run_copy(source: str, target: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot.store copy SOURCE TARGET` as an operator runs it."""
    return subprocess.run(
        [sys.executable, "-m", "bot.store", "copy", source, target],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _ends(target: str, sqlite: str, postgres: str) -> tuple[str, str]:
    """(source, target) URLs: copy into `target`'s backend from the other one."""
    return (sqlite, postgres) if target == "postgres" else (postgres, sqlite)


@pytest.mark.parametrize("target", ["postgres", "sqlite"])
async def test_copy_into_a_database_the_bot_has_started_on(
    tmp_path: Path, postgres_url: str, target: str
) -> None:
    """README's path: the bot started on the new database (no games yet), then the old games are
    copied in. The source's heartbeat and commands hash replace the target's; a setting chosen
    on the target is kept, the source's others arrive; every game replays."""
    source_url, target_url = _ends(target, str(tmp_path / "hangar.sqlite3"), postgres_url)
    games = await _fill(source_url)
    await _start_bot_on(source_url, SOURCE_BEAT)
    await _set_prefs(source_url, cs.UserPrefs(1000, notify="dm"), cs.UserPrefs(1001, notify="dm"))
    await _start_bot_on(target_url, TARGET_BEAT)
    await _set_prefs(target_url, cs.UserPrefs(1000, notify="both"))
    run = _run_copy(source_url, target_url)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Games replayed and checked: 4." in run.stdout and "PROBLEM" not in run.stdout
    await _same_games(target_url, games)
    store = await open_store(target_url)
    try:
        async with store.reading() as db:
            # the copied games' clocks stopped at the source's last beat, not the target's
            assert await cs.fetch_beat(db) == SOURCE_BEAT
            synced = await get_meta(db, commands_hash_key(APPLICATION))
            assert synced == f"synced at {SOURCE_BEAT}"
            assert (await cs.fetch_prefs(db, 1000)).notify == "both", "chosen on the target"
            assert (await cs.fetch_prefs(db, 1001)).notify == "dm"
    finally:
        await store.close()


@pytest.mark.parametrize("target", ["postgres", "sqlite"])
async def test_copy_into_a_database_with_games_is_refused_in_one_line(
    tmp_path: Path, postgres_url: str, target: str
) -> None:
    """A target that holds games: one line saying what to do, exit 1, no traceback, and the
    target unchanged."""
    source_url, target_url = _ends(target, str(tmp_path / "hangar.sqlite3"), postgres_url)
    await _fill(source_url)
    await _fill(target_url)
    await _start_bot_on(target_url, TARGET_BEAT)
    run = _run_copy(source_url, target_url)
    assert run.returncode == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    assert "already holds 5 games" in run.stderr and "new, empty database" in run.stderr
    store = await open_store(target_url)
    try:
        async with store.reading() as db, db.execute("SELECT COUNT(*) FROM games") as cursor:
            assert (await cursor.fetchone())[0] == 5, "nothing was written"
            assert await cs.fetch_beat(db) == TARGET_BEAT
    finally:
        await store.close()
