"""The Discord client: start-up (store, commands, restart-proof components) and shutdown."""

from __future__ import annotations

import asyncio
import functools
import gc
import hashlib
import itertools
import json
import logging
import signal
from typing import Any

import discord
import yarl
from discord import app_commands

from bot.edge import coach, flow, notify
from bot.edge.announce import Announcer
from bot.edge.answer import ClickAnswer
from bot.edge.commands import admin, card, clock, game, learn, play, stats
from bot.edge.commands import help as help_cmd
from bot.edge.components import (
    ActionButton,
    ActionSelect,
    CoachButton,
    HandButton,
    LobbyButton,
    answer_unknown_component,
)
from bot.edge.errors import on_app_command_error
from bot.edge.locale import HangarTranslator, command_strings, known_public_locale, remember
from bot.edge.startup import unreachable_database
from bot.runtime import ai_turns
from bot.runtime.health import HealthServer
from bot.runtime.preview import Previews
from bot.runtime.scheduler import Scheduler
from bot.services.board_notes import BoardNotes
from bot.services.clock import ClockService
from bot.services.games import GameService
from bot.services.gametime import Clock
from bot.services.hints import HintService
from bot.services.history import backfill
from bot.services.learn import LearnService
from bot.services.listing import store_listing
from bot.services.preferences import Preferences
from bot.services.timeouts import Timeouts
from bot.settings import Settings
from bot.store import Store, open_store
from bot.store.errors import StoreUnavailable
from bot.store.meta import commands_hash_key, get_meta, set_meta

log = logging.getLogger(__name__)

# Pauses between start-up catch-up attempts while the database cannot be used (then each minute).
CATCH_UP_DELAYS = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)

GC_YOUNG = 10_000  # objects allocated between young collections (Python's default: 700)


class HangarBot(discord.Client):
    """A gateway client holding the store and the game service; no game state lives in memory."""

    # Component callbacks reach their handlers here (interaction.client), so the pure button
    # builders in bot.components never import bot.edge.flow.
    handle_action = staticmethod(flow.handle_action)
    handle_hand = staticmethod(flow.handle_hand)
    handle_table = staticmethod(flow.handle_table)
    handle_lobby = staticmethod(flow.handle_lobby)
    handle_coach = staticmethod(learn.handle_coach)

    def __init__(self, settings: Settings, **client_options: Any) -> None:
        # Player names are free text: whatever a message forgets to say, it never pings
        # @everyone, @here or a role (each message still names the users it pings).
        quiet = discord.AllowedMentions(everyone=False, roles=False)
        super().__init__(intents=intents(), allowed_mentions=quiet, **client_options)
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.tree.error(on_app_command_error)
        self.store: Store | None = None
        self._service: GameService | None = None
        self.announcer = Announcer(self)
        self.previews = Previews()
        self.dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []
        self._ai_resumed = False
        self._catching_up: asyncio.Task[None] | None = None
        self._health: HealthServer | None = None
        self.clocks: ClockService
        self.preferences: Preferences
        self.board_notes: BoardNotes
        self.learn: LearnService
        self.hints: HintService
        self.scheduler: Scheduler | None = None

    @property
    def service(self) -> GameService:
        """The game service (ready after setup_hook)."""
        assert self._service is not None, "service used before setup_hook"
        return self._service

    async def setup_hook(self) -> None:
        """Open the database, register commands and dynamic components, sync if needed."""
        await self._use_custom_gateway()
        # SQLite file or PostgreSQL server, whichever DATABASE_URL names; nothing here cares.
        # The services are typed against the SQLite Store; PgStore speaks the same interface
        # (duck-typed), so the opened store is passed on as it comes (open_store returns Any).
        try:
            store = await open_store(self.settings.database_url)
        except OSError as exc:  # asyncpg's connection refused / unknown host / timeout
            if not self.settings.is_postgres:
                raise
            raise unreachable_database(self.settings.database_url, exc) from None
        self.store = store
        self._service = GameService(store)
        self._service.moves.foresee(self.previews.foresight)  # boards start before COMMIT
        self.previews.language = functools.partial(known_public_locale, self)
        if self.settings.health_port is not None:
            self._health = HealthServer(self, self.settings.health_port)
            await self._health.start()
        game_time = Clock(self.settings.hangar_time_scale)
        self.preferences = Preferences(store, game_time)
        self.board_notes = BoardNotes(store, game_time)
        self.learn = LearnService(self._service, self.preferences)
        self.hints = HintService(self.learn.flags)
        coach.install(self.learn)  # the board and panel builders read practice/hint flags
        self.clocks = ClockService(
            self._service, game_time, on_change=self._rearm, preferences=self.preferences
        )
        # What every committed change keeps in step, in its own transaction (history is built in).
        self._service.moves.wire(self.clocks.on_commit, store_listing)
        timeouts = Timeouts(self.clocks, self._service.moves, self._service.decoder)
        self.scheduler = Scheduler(
            self,
            self.clocks,
            timeouts,
            self.settings.hangar_heartbeat_seconds,
            deliver=functools.partial(notify.deliver, self),
        )
        await self.scheduler.recover()
        register_commands(self.tree)
        # Localised names and descriptions (de, fr, es) travel with every sync (issue 30).
        await self.tree.set_translator(HangarTranslator())
        self.add_dynamic_items(ActionButton, ActionSelect, HandButton, LobbyButton, CoachButton)
        self.add_dynamic_items(*stats.DYNAMIC_ITEMS)
        await backfill(store)  # results of games that finished before history existed
        await self.sync_commands_if_changed()
        self.scheduler.start()
        settle_garbage_collector()

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
        """Sync to DEV_GUILD_ID at once, or globally only when the command tree changed.

        The last synced hash is kept in the database per application id (a new application on
        the same data still gets its commands), and a database-wide lock lets exactly one of
        several processes sync: the others then find the hash already stored.
        """
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("Commands synced to dev guild %s", guild_id)
            return
        assert self.store is not None and self.application_id is not None
        key, digest = commands_hash_key(self.application_id), await self._tree_digest()
        async with self.store.exclusive("command-sync"):
            async with self.store.reading() as db:
                stored = await get_meta(db, key)
            if stored == digest:
                log.info("Command tree unchanged; not syncing")
                return
            await self.tree.sync()
            async with self.store.transaction() as db:
                await set_meta(db, key, digest)
        log.info("Command tree changed; synced globally")

    async def _tree_digest(self) -> str:
        """A hash of the command tree's payload, translations included (a new or corrected
        translation is a change to sync), to detect changes between deploys."""
        translator = self.tree.translator
        commands = self.tree.get_commands()
        if translator is None:
            payload = [command.to_dict(self.tree) for command in commands]
        else:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands]
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()

    def gateway_connected(self) -> bool:
        """True while this process is logged in and every one of its gateway sockets is open."""
        if self.is_closed() or not self.is_ready():
            return False
        shards = getattr(self, "shards", None)
        if shards is not None:
            return bool(shards) and not any(shard.is_closed() for shard in shards.values())
        return self.ws is not None and self.ws.open

    async def database_answers(self) -> bool:
        """True when the store answers a trivial query."""
        if self.store is None:
            return False
        try:
            await self.store.ping()
        except StoreUnavailable:  # the store has logged the episode once
            return False
        except Exception:  # any failure is "not healthy"; the reason is logged
            log.warning("Health check: the database did not answer", exc_info=True)
            return False
        return True

    async def on_ready(self) -> None:
        """Log the identity once connected, then deliver boards a crash or outage left owed."""
        log.info("Logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))
        try:
            await self._catch_up()
        except StoreUnavailable:  # the store has logged the episode; try again until it answers
            log.warning("Start-up catch-up postponed: the database cannot be used yet")
            if self._catching_up is None or self._catching_up.done():  # once, across reconnects
                self._catching_up = asyncio.get_running_loop().create_task(self._catch_up_later())

    async def _catch_up(self) -> None:
        """Deliver owed boards; once per process, give AI seats that were about to move a driver."""
        owed = await self.announcer.deliver_pending(suspect=True)
        if owed:
            log.warning("%s board(s) could not be delivered yet; retrying in the background", owed)
        if not self._ai_resumed:
            await ai_turns.resume_all(self)
            self._ai_resumed = True

    async def _catch_up_later(self) -> None:
        """Retry the start-up catch-up with growing pauses while the database cannot be used."""
        for pause in itertools.chain(CATCH_UP_DELAYS, itertools.repeat(CATCH_UP_DELAYS[-1])):
            await asyncio.sleep(pause)
            try:
                await self._catch_up()
            except StoreUnavailable:
                continue
            log.info("Start-up catch-up done")
            return

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register restart-proof components, remembering them for the unknown-click answer."""
        self.dynamic_items.extend(items)
        super().add_dynamic_items(*items)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer clicks on components no handler knows (old or forged), instead of silence;
        remember the user's and the server's Discord locales (DMs and boards without an
        interaction use them)."""
        remember(interaction)
        await answer_unknown_component(interaction, self.dynamic_items)

    async def close(self) -> None:
        """Close the database after the gateway connection."""
        await ClickAnswer.defer_waiting()  # before the HTTP session closes
        await self.announcer.close()
        if self._catching_up is not None:
            self._catching_up.cancel()
        if self.scheduler is not None:
            await self.scheduler.stop()
        await super().close()
        if self._health is not None:
            await self._health.stop()
            self._health = None
        if self.store is not None:
            await self.store.close()
            self.store = None


class ShardedHangarBot(HangarBot, discord.AutoShardedClient):
    """Hangar on several gateway shards (SHARD_COUNT, optionally only SHARD_IDS of them)."""


def make_bot(settings: Settings) -> HangarBot:
    """A plain client, or a sharded one when SHARD_COUNT is set."""
    if settings.shard_count is None:
        return HangarBot(settings)
    ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedHangarBot(settings, shard_count=settings.shard_count, shard_ids=ids)


def intents() -> discord.Intents:
    """Guilds only: Hangar acts on interactions and never reads messages, so Discord need not
    send it every message and edit in its servers (each one parsed on the event loop)."""
    return discord.Intents(guilds=True)


def settle_garbage_collector() -> None:
    """Make the cyclic garbage collector's pauses rare (issue 14).

    A move allocates thousands of short-lived containers; with Python's default threshold a
    young collection ran every few clicks, and each tenth one went on to an older generation
    (1 ms; a full one took 14 ms in the middle of a move). Most of those objects are freed by
    reference counting anyway: a larger threshold makes a collection rare, not larger.
    (gc.freeze() of what start-up loaded was tried: young collections then took 7 ms each.)
    """
    gc.collect()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


def apply_api_base(settings: Settings) -> None:
    """Point discord.py at another API (the tests' local fake Discord)."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")


async def _serve(settings: Settings) -> None:
    """Run until SIGTERM/SIGINT, then close cleanly (Fly and Heroku send SIGTERM on deploy)."""
    apply_api_base(settings)
    bot = make_bot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    async with bot:
        await bot.start(token)


def run(settings: Settings) -> None:
    """Blocking entry point used by `python -m bot`."""
    asyncio.run(_serve(settings))


def register_commands(tree: app_commands.CommandTree[Any]) -> None:
    """Every slash command and group on `tree` (no client needed: /help's test builds it too)."""
    game_group, admin_group = game.GameGroup(), admin.AdminGroup()
    clock.extend_groups(game_group, admin_group)
    stats.register(tree, game_group, admin_group)
    for group in (game_group, admin_group, clock.AwayGroup()):
        tree.add_command(group)
    tree.add_command(clock.notify_command)
    tree.add_command(play.play_command)
    tree.add_command(game.mygames_command)
    commands: list[app_commands.Command[Any, ..., Any]] = [
        card.card_command,
        help_cmd.help_command,
    ]
    for command in commands:
        tree.add_command(command)


def registered_command_strings() -> list[tuple[str | None, str]]:
    """Every text of the slash commands exactly as the bot registers them (for the catalogue)."""
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    register_commands(tree)
    return list(command_strings(tree.get_commands()))
