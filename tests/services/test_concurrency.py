"""Many simultaneous submissions of one prompt: exactly one is applied, the rest are refused."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import GameService
from bot.store import Store, open_store
from bot.store import repository as repo
from rules.core import NotYourTurnError, StaleActionError, messages
from tests.services.conftest import ALICE, CHANNEL, FakeClock, started
from tests.support.toygame import TOY

CLICKS = 20


async def _outcomes(calls: list) -> tuple[int, list[BaseException]]:  # type: ignore[type-arg]
    """Number of successes and the exceptions of the rest."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    return len(results) - len(errors), errors


async def _assert_one_move_logged(service: GameService, store: Store, version: int) -> None:
    """The log grew by one move, the version by one, and the log still replays."""
    loaded = await service.load(CHANNEL)
    assert loaded.record.version == version + 1
    async with store.reading() as db:
        assert len(await repo.fetch_actions(db, loaded.record.pk)) == 1
    assert (await service.admin.verify(CHANNEL)).ok


async def test_twenty_clicks_on_one_prompt_apply_once(service: GameService, store: Store) -> None:
    """Same prompt, same version: one wins, nineteen are told the prompt is out of date."""
    version = (await started(service)).record.version
    calls = [service.act(CHANNEL, ALICE, "bid:2", version) for _ in range(CLICKS)]
    applied, errors = await _outcomes(calls)
    assert applied == 1
    assert all(isinstance(e, StaleActionError) for e in errors), errors
    assert {str(e) for e in errors} == {messages.STALE}
    await _assert_one_move_logged(service, store, version)
    assert (await service.load(CHANNEL)).state.bids == (2, 0)


async def test_twenty_versionless_commands_apply_once(service: GameService, store: Store) -> None:
    """Without a version (/play), the losers find it is no longer their turn."""
    version = (await started(service)).record.version
    calls = [service.act(CHANNEL, ALICE, "bid:1", None) for _ in range(CLICKS)]
    applied, errors = await _outcomes(calls)
    assert applied == 1
    assert all(isinstance(e, NotYourTurnError) for e in errors), errors
    await _assert_one_move_logged(service, store, version)


@pytest.mark.parametrize(
    ("key", "versioned", "refusal"),
    [("roll", True, StaleActionError), ("draw", False, NotYourTurnError)],
    ids=["with-version", "without-version"],
)
async def test_two_connections_on_one_file_apply_once(
    service: GameService,
    store: Store,
    database_url: str,
    key: str,
    versioned: bool,
    refusal: type[Exception],
) -> None:
    """Two stores (as two processes would) racing on one file: still exactly one move.

    Clicks carrying the board version lose as out of date; versionless commands (/play typed
    by hand) lose as not-your-turn once the move has passed the turn on.
    """
    version = (await started(service)).record.version
    other_store = await open_store(database_url)
    try:
        other = GameService(other_store, games={"toy": TOY}, clock=FakeClock())
        expected = version if versioned else None
        calls = [
            (service if i % 2 else other).act(CHANNEL, ALICE, key, expected) for i in range(CLICKS)
        ]
        applied, errors = await _outcomes(calls)
        assert applied == 1
        assert all(isinstance(e, refusal) for e in errors), errors
        await _assert_one_move_logged(service, store, version)
        assert (await other.load(CHANNEL)).state == (await service.load(CHANNEL)).state
    finally:
        await other_store.close()
