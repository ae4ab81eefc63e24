"""FakeDiscord: the HTTP API + gateway server and the test-side API to drive it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aiohttp import web

from . import client
from .gateway import Gateway
from .handles import InteractionFailed, InteractionHandle
from .server import API, Api
from .state import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MANAGE_CHANNELS,
    MANAGE_GUILD,
    Channel,
    Guild,
    Message,
    Role,
    User,
    snowflake,
)
from .world import Violation, World


class FakeDiscord:
    """A local Discord (API v10 + gateway) for one test, plus helpers that act as users."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.world = World()
        self.gateway = Gateway(self.world)
        self.world.emit = self.gateway.dispatch
        self._host, self._port = host, port
        self._runner: web.AppRunner | None = None
        self._admins: set[int] = set()
        self.root = ""
        # Discord locales ("de", "es-ES", …) of users' clients and of guilds; en-US unless set.
        self.locales: dict[int, str] = {}

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start listening on 127.0.0.1 (a free port unless one was given)."""
        api = Api(self.world, lambda: self.gateway.url)
        app = web.Application(middlewares=[api.middleware], client_max_size=64 * 1024 * 1024)
        app.add_routes(api.routes())
        app.router.add_get("/gateway", self.gateway.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.root = f"http://{self._host}:{port}"
        self.world.base_url = self.root
        self.gateway.url = f"ws://{self._host}:{port}/gateway"

    async def stop(self) -> None:
        """Close websockets and the HTTP server."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # --- identity ----------------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        """Value for DISCORD_API_BASE (…/api/v10)."""
        return self.root + API

    @property
    def gateway_url(self) -> str:
        """The websocket URL (also returned by GET /gateway/bot)."""
        return self.gateway.url

    @property
    def token(self) -> str:
        """The bot token the fake accepts."""
        return self.world.token

    @property
    def app_id(self) -> int:
        """Application id (= bot user id)."""
        return self.world.app_id

    @property
    def bot(self) -> User:
        """The bot user."""
        return self.world.bot

    @property
    def violations(self) -> list[Violation]:
        """Every Discord rule the bot broke so far (tests assert it stays empty)."""
        return self.world.violations

    @property
    def commands(self) -> list[dict[str, Any]]:
        """All registered commands, global then per guild."""
        pools = [self.world.global_commands, *self.world.guild_commands.values()]
        return [c for pool in pools for c in pool]

    @property
    def http_log(self) -> list[str]:
        """ "METHOD path -> status" for every API call, for debugging."""
        return self.world.http_log

    # --- world setup -------------------------------------------------------------------------

    def add_guild(self, name: str) -> Guild:
        """A guild with @everyone, an Admins role (Manage Server + Channels) and the bot."""
        owner = User(snowflake(), f"{name}-owner")
        self.world.users[owner.id] = owner
        gid = snowflake()
        guild = Guild(gid, name, owner_id=owner.id)
        guild.roles = [
            Role(gid, "@everyone", EVERYONE_PERMISSIONS),
            Role(snowflake(), "Admins", MANAGE_GUILD | MANAGE_CHANNELS, position=1),
            Role(snowflake(), "Hangar", BOT_PERMISSIONS, position=2),
        ]
        guild.members[owner.id] = []
        guild.members[self.bot.id] = [guild.roles[2].id]
        for user in self.world.users.values():
            if not user.bot and user is not owner and not user.name.endswith("-owner"):
                self._join(guild, user)
        self.world.guilds[gid] = guild
        if self.gateway.current is not None:
            self.gateway.dispatch("GUILD_CREATE", guild.payload(self.world.users))
        return guild

    def add_channel(self, guild: Guild, name: str, *, thread_of: Channel | None = None) -> Channel:
        """A text channel, or a public thread of `thread_of`."""
        kind = 11 if thread_of else 0
        parent = thread_of.id if thread_of else None
        channel = Channel(snowflake(), name, guild.id, kind, parent, position=len(guild.channels))
        channel.owner_id = self.bot.id
        guild.channels.append(channel)
        self.world.channels[channel.id] = channel
        if self.gateway.current is not None:
            event = "THREAD_CREATE" if thread_of else "CHANNEL_CREATE"
            self.gateway.dispatch(event, channel.payload())
        return channel

    def add_user(self, name: str, *, admin: bool = False) -> User:
        """A human member of every guild; `admin` gives the Admins role (Manage Server)."""
        user = User(snowflake(), name)
        self.world.users[user.id] = user
        if admin:
            self._admins.add(user.id)
        for guild in self.world.guilds.values():
            self._join(guild, user)
        return user

    def set_locale(self, who: User | Guild, locale: str) -> None:
        """The Discord locale interactions tell for a user's client or a guild ("de", "es-ES")."""
        self.locales[who.id] = locale

    def _join(self, guild: Guild, user: User) -> None:
        guild.members[user.id] = [guild.roles[1].id] if user.id in self._admins else []

    # --- interactions ------------------------------------------------------------------------

    def _guild(self, channel: Channel) -> Guild | None:
        return self.world.guild_of(channel)

    def _deliver(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        label: str,
        message: Message | None = None,
    ) -> InteractionHandle:
        world = self.world
        rec = world.new_interaction(kind, user, channel, data, label)
        guild = self._guild(channel)
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(world.app_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "token": rec.token,
            "version": 1,
            "locale": self.locales.get(user.id, "en-US"),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "context": 0 if guild else 1,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            where = self.locales.get(guild.id, "en-US")
            payload["guild_locale"] = where
            payload["guild"] = {"id": str(guild.id), "locale": where, "features": []}
            payload["member"] = guild.member_payload(user, with_permissions=True)
            payload["app_permissions"] = str(guild.permissions_of(world.bot.id))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        else:
            payload["user"] = user.payload()
        if message is not None:
            rec.message_id = message.id
            payload["message"] = world.message_payload(message)
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        return InteractionHandle(world, rec)

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        *,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionHandle:
        """Run `/command sub …` with typed options checked against the registered schema."""
        values = {**(options or {}), **kwargs}
        data = client.build_command_data(self.world, self._guild(channel), user, command, values)
        return self._deliver(2, user, channel, data, f"/{command} by {user.name}")

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        *,
        option: str,
        value: str = "",
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type `value` into `option` of `/command`; returns the bot's choices."""
        values = {**kwargs, option: value}
        guild = self._guild(channel)
        data = client.build_command_data(self.world, guild, user, command, values, focused=option)
        handle = self._deliver(4, user, channel, data, f"autocomplete /{command} {option}")
        reply = await handle.response(timeout=timeout, settle=0)
        if reply.failed:
            raise InteractionFailed(f"autocomplete /{command} {option}: no answer within 3 s")
        return list(handle.record.choices or [])

    def _current(self, message: Message | int) -> Message:
        msg_id = message if isinstance(message, int) else message.id
        return self.world.messages[msg_id]

    async def click(self, user: User, message: Message | int, custom_id: str) -> InteractionHandle:
        """Press a button on a message (as it is now)."""
        msg = self._current(message)
        data = client.component_data(msg, user, custom_id, None)
        channel = self.world.channels[msg.channel_id]
        return self._deliver(3, user, channel, data, f"click {custom_id} by {user.name}", msg)

    async def select(
        self, user: User, message: Message | int, custom_id: str, values: list[str]
    ) -> InteractionHandle:
        """Choose `values` in a string select on a message."""
        msg = self._current(message)
        data = client.component_data(msg, user, custom_id, list(values))
        channel = self.world.channels[msg.channel_id]
        label = f"select {custom_id}={values} by {user.name}"
        return self._deliver(3, user, channel, data, label, msg)

    def expire_tokens(self) -> None:
        """Age every interaction token past 15 minutes."""
        for rec in self.world.interactions.values():
            rec.expired = True

    async def request_reconnect(self) -> None:
        """Ask the bot to reconnect (op 7); it should RESUME."""
        await self.gateway.request_reconnect()

    # --- observation -------------------------------------------------------------------------

    def dm_channel(self, user: User) -> Channel | None:
        """The DM channel the bot opened with `user`, if any."""
        found = (c for c in self.world.channels.values() if c.type == 1 and c.recipient is user)
        return next(found, None)

    def message(self, message_id: int) -> Message:
        """A stored message by id (current state)."""
        return self.world.messages[message_id]

    def messages(self, channel: Channel) -> list[Message]:
        """The channel's non-ephemeral history, oldest first (deleted ones excluded)."""
        return [
            m
            for m in self.world.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]

    def visible_messages(self, user: User, channel: Channel) -> list[Message]:
        """What `user` sees in the channel: history plus their own ephemeral messages."""
        return [
            m
            for m in self.world.messages.values()
            if m.channel_id == channel.id and not m.deleted and m.visible_to in (None, user.id)
        ]

    def mark(self) -> int:
        """A position in history: pass as `after=` to wait only for newer messages."""
        return snowflake()

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = 10.0,
        *,
        after: int | None = None,
    ) -> Message:
        """The oldest non-ephemeral message (newer than `after`) matching `predicate`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        changes = self.world.changes
        while True:
            version = changes.version
            for msg in self.messages(channel):
                fresh = (after is None or msg.id > after) and not msg.loading
                if fresh and (predicate is None or predicate(msg)):
                    return msg
            if not await changes.wait_change(version, deadline - loop.time()):
                raise TimeoutError(f"no matching message in #{channel.name} within {timeout} s")

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the bot holds a gateway session and has registered commands."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        changes = self.world.changes
        while not (self.gateway.connected and self.commands):
            if not await changes.wait_change(changes.version, deadline - loop.time()):
                state = "connected" if self.gateway.connected else "not connected"
                raise TimeoutError(f"bot not ready after {timeout} s ({state}, {self.commands=})")

    async def wait_disconnected(self, timeout: float = 10.0) -> None:
        """Wait until no gateway connection is open (after the bot process ended)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        changes = self.world.changes
        while self.gateway.connections:
            if not await changes.wait_change(changes.version, deadline - loop.time()):
                raise TimeoutError(f"gateway still connected after {timeout} s")
