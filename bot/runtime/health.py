"""GET /healthz for the host's health checks: 200 when Discord and the database both answer."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from aiohttp import web

log = logging.getLogger(__name__)
DB_TIMEOUT_S = 5.0


class Checked(Protocol):
    """What the health check asks of the bot."""

    def gateway_connected(self) -> bool:
        """True while every gateway connection of this process is open and ready."""
        ...

    async def database_answers(self) -> bool:
        """True when the database answers a query."""
        ...


async def health_status(bot: Checked) -> tuple[int, str]:
    """(HTTP status, one-line reason) for the bot as it is now."""
    if not bot.gateway_connected():
        return 503, "gateway not connected"
    try:
        answered = await asyncio.wait_for(bot.database_answers(), DB_TIMEOUT_S)
    except TimeoutError:
        answered = False
    if not answered:
        return 503, "database not answering"
    return 200, "ok"


class HealthServer:
    """A tiny aiohttp server on HEALTH_PORT (all interfaces: the host's checker is outside)."""

    def __init__(self, bot: Checked, port: int, host: str = "0.0.0.0") -> None:
        self.bot = bot
        self.port = port
        self.host = host
        self._runner: web.AppRunner | None = None

    async def _healthz(self, request: web.Request) -> web.Response:
        status, reason = await health_status(self.bot)
        return web.Response(status=status, text=reason + "\n")

    async def start(self) -> None:
        """Listen on the port."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("Health check on http://%s:%s/healthz", self.host, self.port)

    @property
    def bound_port(self) -> int:
        """The port actually listened on (useful with port 0)."""
        assert self._runner is not None, "not started"
        return int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
