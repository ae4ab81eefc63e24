"""Fixtures for service tests: a real SQLite file and a service that knows the toy game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services import GameService, LoadedGame
from bot.store import Store, open_store
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


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh database file for this test."""
    return tmp_path / "hangar.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    """An open store on the test's database file."""
    opened = await open_store(db_path)
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
    loaded = await service.new_lobby(GUILD, channel, "toy", {}, creator, NAMES[creator], seed=seed)
    for user in others:
        loaded = await service.join(channel, user, NAMES[user])
    return loaded


async def started(service: GameService, *users: int, seed: int = 7) -> LoadedGame:
    """A running toy game for these users (Alice and Bob by default)."""
    users = users or (ALICE, BOB)
    await open_lobby(service, *users, seed=seed)
    result = await service.start(CHANNEL, users[0], is_admin=False)
    return result.loaded
