"""Fixtures for end-to-end tests: a fresh FakeDiscord and bot subprocesses per test."""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from .botproc import BotProcess
from .fakediscord import FakeDiscord


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator[Any]:
    """Attach the tail of every bot log to a failing test's report."""
    report = yield
    if report.failed:
        for bot in getattr(item, "e2e_bots", []):
            report.sections.append((f"bot log ({bot.log_path})", bot.tail()))
    return report


@pytest.fixture(scope="session", autouse=True)
def compiled_once() -> Iterator[None]:
    """Bot processes keep their compiled modules between starts, in a cache outside the tree.

    Where PYTHONDONTWRITEBYTECODE is set (as in the Dockerfile), every bot process and render
    worker compiled all of Hangar from source again: about a fifth of a start's CPU time.
    """
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        yield
        return
    saved = os.environ.pop("PYTHONDONTWRITEBYTECODE")
    cache = Path(tempfile.gettempdir()) / f"hangar-e2e-pycache-{os.getuid()}"
    os.environ["PYTHONPYCACHEPREFIX"] = str(cache)
    try:
        yield
    finally:
        os.environ["PYTHONDONTWRITEBYTECODE"] = saved
        del os.environ["PYTHONPYCACHEPREFIX"]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord; fails the test if any Discord rule was broken."""
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    assert not server.violations, "Discord rules broken:\n" + "\n".join(map(str, server.violations))


@pytest.fixture
async def bots(
    request: pytest.FixtureRequest, tmp_path: Any, fake: FakeDiscord
) -> AsyncIterator[Callable[..., BotProcess]]:
    """Factory for bot subprocesses (logs in tmp_path), all stopped at teardown."""
    started: list[BotProcess] = []
    request.node.e2e_bots = started

    def make(env: dict[str, str], *, module: str = "bot") -> BotProcess:
        log = tmp_path / f"{module}-{len(started)}.log"
        bot = BotProcess(env, module=module, log_path=log, fake=fake)
        started.append(bot)
        return bot

    yield make
    for bot in started:
        await bot.stop()
