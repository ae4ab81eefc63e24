"""Fixtures for service tests: a real database on each backend and a service for the toy game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services import GameService, LoadedGame
from bot.store import Store, open_store
from tests.support.databases import BACKENDS, database_url_for
from tests.support.toygame import TOY

GUILD = 1
CHANNEL = 100
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


class FakeClock:
    """A clock that ticks one second per reading, so timestamps are distinct and predictable."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database on each backend in turn (SQLite file, PostgreSQL schema)."""
    async for url in database_url_for(request.param, tmp_path):
        yield url


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """An open store on the test's database."""
    opened = await open_store(database_url)
    yield opened
    await opened.close()


@pytest.fixture
def service(store: Store) -> GameService:
    """A service whose only game is the toy game."""
    return GameService(store, games={"toy": TOY}, clock=FakeClock())


async def open_lobby(
    service: GameService, *users: int, seed: int = 7, channel: int = CHANNEL
) -> LoadedGame:
    """A toy lobby opened by the first user, joined by the others."""
    creator, *others = users
    loaded = await service.lobby.open(GUILD, channel, "toy", {}, creator, NAMES[creator], seed=seed)
    for user in others:
        loaded = await service.lobby.join(channel, user, NAMES[user])
    return loaded


async def started(service: GameService, *users: int, seed: int = 7) -> LoadedGame:
    """A running toy game for these users (Alice and Bob by default)."""
    users = users or (ALICE, BOB)
    await open_lobby(service, *users, seed=seed)
    result = await service.lobby.start(CHANNEL, users[0], is_admin=False)
    return result.loaded
