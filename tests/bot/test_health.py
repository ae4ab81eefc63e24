"""GET /healthz answers 503 with the reason while the bot is not connected to Discord."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.edge.app import HangarBot
from bot.runtime.health import HealthServer
from bot.settings import Settings
from bot.store import open_store


async def test_healthz_is_503_until_the_gateway_connects(tmp_path: Path) -> None:
    """A bot with its database open but no gateway session is not healthy yet."""
    url = str(tmp_path / "h.sqlite3")
    bot = HangarBot(Settings(_env_file=None, database_url=url))  # type: ignore[call-arg]
    bot.store = await open_store(url)
    server = HealthServer(bot, 0, host="127.0.0.1")
    await server.start()
    try:
        assert await bot.database_answers()
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{server.bound_port}/healthz") as response,
        ):
            assert response.status == 503
            assert "gateway not connected" in await response.text()
    finally:
        await server.stop()
        await bot.close()


async def test_a_closed_database_does_not_answer(tmp_path: Path) -> None:
    """The database half of the check fails once the store is gone."""
    url = str(tmp_path / "h.sqlite3")
    bot = HangarBot(Settings(_env_file=None, database_url=url))  # type: ignore[call-arg]
    store = await open_store(url)
    bot.store = store
    await store.close()
    assert not await bot.database_answers()
    bot.store = None
    await bot.close()
