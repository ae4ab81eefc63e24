"""One move pipeline: only bot/services/moves.py commits a move, and nobody thinks inside a lock."""

from __future__ import annotations

import ast
import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.services import GameService, LoadedGame, timeouts
from bot.services.moves import Committed
from bot.store import open_store
from bot.store.cursor import Db
from rules.core import Game
from tests.services.conftest import ALICE, BOB, CHANNEL, GUILD, NAMES, started
from tests.services.test_clock import HOUR, START, ManualClock, Table

BOT = Path(__file__).resolve().parents[2] / "bot"
PIPELINE = BOT / "services" / "moves.py"
# The repository functions that write a move, and the SQL that would do it behind their back.
MOVE_WRITERS = {"insert_action", "update_snapshot", "insert_undo"}
MOVE_SQL = ("INSERT INTO actions", "UPDATE games SET snapshot")


def move_writes(path: Path) -> list[str]:
    """Where a module calls a move-writing repository function or runs move-writing SQL."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in MOVE_WRITERS:
                found.append(f"{path.name}:{node.lineno} calls {name}")
        elif isinstance(node, ast.Constant) and _moves_sql(node.value):
            found.append(f"{path.name}:{node.lineno} runs {str(node.value)[:30]!r}")
    return found


def _moves_sql(value: object) -> bool:
    """True for SQL text that writes a move."""
    return isinstance(value, str) and any(sql in value for sql in MOVE_SQL)


def test_only_the_pipeline_commits_a_move() -> None:
    """Clicks, /play, AI seats, timeouts and undo all go through bot/services/moves.py."""
    repository = BOT / "store" / "repository.py"  # where the statements themselves live
    offenders = [
        hit
        for path in sorted(BOT.rglob("*.py"))
        if path not in (PIPELINE, repository)
        for hit in move_writes(path)
    ]
    assert offenders == []
    assert move_writes(PIPELINE), "the pipeline itself must write moves"


def test_the_check_sees_a_move_written_elsewhere(tmp_path: Path) -> None:
    """A module writing a move (by the repository or by SQL) is caught."""
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "async def f(db):\n"
        "    await repo.insert_action(db, 1)\n"
        "    await db.execute('UPDATE games SET snapshot = ? WHERE pk = ?', (1, 2))\n",
        encoding="utf-8",
    )
    assert len(move_writes(sneaky)) == 2


async def test_a_timeout_ai_thinks_outside_any_lock(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the timeout AI of one game is still deciding, another game's move commits."""
    thinking, release = threading.Event(), threading.Event()
    real = timeouts.POLICIES["ai"]

    def slow_ai(game: Game, state: Any, seat: int) -> list[str] | None:
        thinking.set()
        release.wait(10)  # decides only when the test says so
        return real(game, state, seat)

    monkeypatch.setitem(timeouts.POLICIES, "ai", slow_ai)
    store = await open_store(database_url)
    try:
        table = Table(store, ManualClock())
        await table.start("takeoff", turn_limit="24h", on_timeout="ai")
        other = await table.service.lobby.open(GUILD, CHANNEL + 1, "toy", {}, ALICE, "Alice")
        await table.service.lobby.join(CHANNEL + 1, BOB, NAMES[BOB])
        await table.service.lobby.start(CHANNEL + 1, ALICE, is_admin=False)
        table.time.now = START + 24 * HOUR
        firing = asyncio.ensure_future(table.timeouts.fire_due())
        assert await asyncio.to_thread(thinking.wait, 5)
        # The other game's move neither waits for the thinking AI nor is refused.
        moved = await asyncio.wait_for(table.service.act(CHANNEL + 1, ALICE, "bid:2", None), 3)
        assert moved.loaded.record.pk == other.record.pk
        assert not firing.done()
        release.set()
        notices = await firing
        assert [n.kind for n in notices] == ["timeout"] and notices[0].result is not None
        assert (await table.service.admin.verify(CHANNEL)).ok
    finally:
        release.set()
        await store.close()


async def test_a_timeout_decides_again_when_the_game_moved_meanwhile(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move committed while the AI decided makes it decide again on the new state; the
    deadline is claimed once and the AI's move is applied to the game as it is now."""
    decided: list[int] = []
    real = timeouts.POLICIES["ai"]
    table_ref: list[BumpingTable] = []

    def ai_racing_a_move(game: Game, state: Any, seat: int) -> list[str] | None:
        decided.append(seat)
        if len(decided) == 1:  # the game changes under the first decision
            future = asyncio.run_coroutine_threadsafe(table_ref[0].bump(), loop)
            future.result(5)
        return real(game, state, seat)

    loop = asyncio.get_running_loop()
    monkeypatch.setitem(timeouts.POLICIES, "ai", ai_racing_a_move)
    store = await open_store(database_url)
    try:
        table = BumpingTable(store, ManualClock())
        table_ref.append(table)
        await table.start("takeoff", turn_limit="24h", on_timeout="ai")
        before = await table.service.load(CHANNEL)
        table.time.now = START + 24 * HOUR
        notices = await table.timeouts.fire_due()
        assert len(decided) == 2  # decided, saw the game had moved, decided again
        assert [n.kind for n in notices] == ["timeout"] and notices[0].result is not None
        after = await table.service.load(CHANNEL)
        assert after.record.version > before.record.version + 1
        assert (await table.service.admin.verify(CHANNEL)).ok
    finally:
        await store.close()


class BumpingTable(Table):
    """A table that can move its game on without changing whose turn it is."""

    async def bump(self) -> None:
        """The late seat picks a card and the admin takes it back: two new versions, same turn."""
        loaded = await self.service.load(CHANNEL)
        seat = loaded.active_seats[0]
        user = loaded.user_of(seat)
        assert user is not None
        legal = [a.key for a in loaded.legal_actions(seat)]
        key = next(k for k in legal if k.startswith("play:"))
        await self.service.act(CHANNEL, user, key, loaded.record.version)
        await self.service.moves.undo(CHANNEL)


async def test_a_move_shows_the_game_it_will_commit_before_committing(
    service: GameService,
) -> None:
    """The pipeline shows the game as the move will leave it while the transaction is still
    open (its board can be drawn during the commit): the very version and state that commit."""
    loaded = await started(service)
    seen: list[tuple[str, int]] = []

    def foresight(after: LoadedGame) -> Callable[[], None]:
        seen.append(("foreseen", after.record.version))
        return lambda: seen.append(("discarded", after.record.version))

    async def reaction(db: Db, change: Committed) -> None:
        seen.append(("reacted inside the transaction", change.after.record.version))

    service.moves.foresee(foresight)
    service.moves.reactions = (*service.moves.reactions, reaction)
    seat = loaded.active_seats[0]
    user = loaded.user_of(seat)
    assert user is not None
    key = loaded.legal_actions(seat)[0].key
    result = await service.act(CHANNEL, user, key, loaded.record.version)
    version = result.loaded.record.version
    assert seen == [("foreseen", version), ("reacted inside the transaction", version)]
    assert (await service.load(CHANNEL)).record.version == version


async def test_a_move_that_does_not_commit_discards_what_was_foreseen(
    service: GameService,
) -> None:
    """When the move's transaction fails after its new game was shown, what was started for it
    (the board drawn ahead) is discarded, and the game stays as it was."""
    loaded = await started(service)
    seen: list[str] = []

    def foresight(after: LoadedGame) -> Callable[[], None]:
        seen.append("foreseen")
        return lambda: seen.append("discarded")

    async def failing(db: Db, change: Committed) -> None:
        raise RuntimeError("the disk is full")

    service.moves.foresee(foresight)
    service.moves.reactions = (*service.moves.reactions, failing)
    seat = loaded.active_seats[0]
    user = loaded.user_of(seat)
    assert user is not None
    key = loaded.legal_actions(seat)[0].key
    with pytest.raises(RuntimeError, match="disk is full"):
        await service.act(CHANNEL, user, key, loaded.record.version)
    assert seen == ["foreseen", "discarded"]
    assert (await service.load(CHANNEL)).record.version == loaded.record.version
