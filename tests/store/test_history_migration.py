"""Migration 4 on a database from before history: old finished games get results and ratings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.services import GameService
from bot.services.history import HistoryService, backfill
from bot.store import connect, migrate, open_store
from bot.store import repository as repo
from tests.support.toygame import TOY

GAMES = {"toy": TOY}


async def _old_game(db, channel: int, *, finish: bool) -> int:  # type: ignore[no-untyped-def]
    """A toy game written with the old schema: played to the end, or left running."""
    state = TOY.new_game(5, 2, {"rounds": 1})
    pk = await repo.insert_game(
        db, guild_id=1, channel_id=channel, game_id="toy", options={"rounds": 1}, seed=5,
        creator_id=11, now=1.0,
    )  # fmt: skip
    await db.executemany(  # the old seats table (no ai_level column yet)
        "INSERT INTO seats (game_pk, seat, user_id, name) VALUES (?, ?, ?, ?)",
        [(pk, 0, 11, "Alice"), (pk, 1, 12, "Bob")],
    )
    moves = ("bid:3", "bid:1") if finish else ("bid:3",)
    for seat, key in enumerate(moves):
        state = TOY.apply(state, seat, key).state
        await repo.insert_action(
            db, pk, seat=seat, action={"key": key}, user_id=11 + seat, events=[], now=10.0 + seat
        )
        status = "finished" if TOY.outcome(state) is not None else "running"
        await repo.update_snapshot(
            db, pk, expected_version=seat, snapshot=TOY.dump_state(state), status=status,
            now=20.0,
        )  # fmt: skip
    return pk


async def test_old_finished_games_are_recorded_after_the_migration(tmp_path: Path) -> None:
    """Schema 2 → latest, then the start-up backfill: results, ratings and history appear."""
    path = tmp_path / "old.sqlite3"
    db = await connect(path)
    assert await migrate(db, target=2) == 2
    await db.execute("BEGIN IMMEDIATE")
    finished = await _old_game(db, 9, finish=True)
    running = await _old_game(db, 10, finish=False)
    await db.commit()
    await db.close()

    store = await open_store(path)
    try:
        assert await backfill(store, GAMES) == 1
        history = HistoryService(store, GAMES)
        page = await history.history(1, user_id=11, game_id=None)
        assert [item.game.pk for item in page.items] == [finished]
        assert page.items[0].game.finished_at == 20.0, "the end time is the last update"
        winner = next(e for e in page.items[0].entries if e.won)
        assert winner.name == "Alice" and winner.score > 0
        board = await history.leaderboard(1, "toy")
        assert [r.name for r in board] == ["Alice", "Bob"]
        service = GameService(store, games=GAMES)
        assert (await service.load_latest(9)).outcome is not None, "the ended game stays visible"
        assert await backfill(store, GAMES) == 0, "nothing left to record"
        with pytest.raises(sqlite3.IntegrityError):
            async with store.transaction() as tx:  # an open game's log stays append-only
                await tx.execute("DELETE FROM actions WHERE game_pk = ?", (running,))
    finally:
        await store.close()
