"""The Discord client: start-up (store, commands, restart-proof components) and shutdown."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import signal
from pathlib import Path

import discord
import yarl
from discord import app_commands

from bot import ai_turns
from bot.commands import admin, clock, game, play, stats
from bot.components import ActionButton, ActionSelect, HandButton, LobbyButton
from bot.errors import on_app_command_error
from bot.scheduler import Scheduler
from bot.services.clock import Clock, ClockService
from bot.services.games import GameService
from bot.services.history import backfill
from bot.settings import Settings
from bot.store import Store

log = logging.getLogger(__name__)


class HangarBot(discord.Client):
    """A gateway client holding the store and the game service; no game state lives in memory."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(intents=discord.Intents.default())
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = on_app_command_error
        self.store: Store | None = None
        self._service: GameService | None = None
        self._ai_resumed = False
        self.clocks: ClockService
        self.scheduler: Scheduler | None = None

    @property
    def service(self) -> GameService:
        """The game service (ready after setup_hook)."""
        assert self._service is not None, "service used before setup_hook"
        return self._service

    async def setup_hook(self) -> None:
        """Open the database, register commands and dynamic components, sync if needed."""
        await self._use_custom_gateway()
        path = self.settings.database_path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.store = await Store.open(str(path))
        self._service = GameService(self.store)
        self.clocks = ClockService(
            self._service, Clock(self.settings.hangar_time_scale), on_change=self._rearm
        )
        self.scheduler = Scheduler(self, self.clocks, self.settings.hangar_heartbeat_seconds)
        await self.scheduler.recover()
        game_group, admin_group = game.GameGroup(), admin.AdminGroup()
        clock.extend_groups(game_group, admin_group)
        stats.register(self.tree, game_group, admin_group)
        for group in (game_group, admin_group, clock.AwayGroup()):
            self.tree.add_command(group)
        self.tree.add_command(clock.notify_command)
        self.tree.add_command(play.play_command)
        self.tree.add_command(game.mygames_command)
        self.add_dynamic_items(ActionButton, ActionSelect, HandButton, LobbyButton)
        self.add_dynamic_items(*stats.DYNAMIC_ITEMS)
        await backfill(self.store)  # results of games that finished before history existed
        await self.sync_commands_if_changed()
        self.scheduler.start()

    def _rearm(self) -> None:
        """A deadline changed: wake the scheduler."""
        if self.scheduler is not None:
            self.scheduler.rearm()

    async def _use_custom_gateway(self) -> None:
        """With DISCORD_API_BASE set, connect to the gateway that API names.

        A plain Client opens its first connection to the hard-coded discord.gg gateway, so the
        override of Route.BASE alone would still reach the real Discord.
        """
        if not self.settings.discord_api_base:
            return
        _, url, _ = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

    async def sync_commands_if_changed(self) -> None:
        """Sync to DEV_GUILD_ID at once, or globally only when the command tree changed."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("Commands synced to dev guild %s", guild_id)
            return
        digest = self._tree_digest()
        marker = self.settings.database_path.with_suffix(".commands-hash")
        if marker.exists() and marker.read_text().strip() == digest:
            log.info("Command tree unchanged; not syncing")
            return
        await self.tree.sync()
        marker.write_text(digest)
        log.info("Command tree changed; synced globally")

    def _tree_digest(self) -> str:
        """A hash of the command tree's payload, to detect changes between deploys."""
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()

    async def on_ready(self) -> None:
        """Log the identity once connected (fires again on reconnects; does nothing else)."""
        log.info("Logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))
        if not self._ai_resumed:  # once per process: AI seats that were about to move, move
            self._ai_resumed = True
            await ai_turns.resume_all(self)

    async def close(self) -> None:
        """Close the database after the gateway connection."""
        if self.scheduler is not None:
            await self.scheduler.stop()
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def apply_api_base(settings: Settings) -> None:
    """Point discord.py at another API (the tests' local fake Discord)."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")


async def _serve(settings: Settings) -> None:
    """Run until SIGTERM/SIGINT, then close cleanly (Fly and Heroku send SIGTERM on deploy)."""
    apply_api_base(settings)
    bot = HangarBot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    async with bot:
        await bot.start(token)


def run(settings: Settings) -> None:
    """Blocking entry point used by `python -m bot`."""
    Path(settings.database_path).parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(_serve(settings))
