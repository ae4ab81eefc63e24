"""A sharded fake Discord: one gateway session per shard, so several bot processes connect at once.

Simplifications (documented, deliberate): every shard receives every guild and every non-
interaction event; an interaction goes to the shard that owns its guild (Discord's
`(guild_id >> 22) % shard_count`), unless a test fires it at a chosen shard — which is how a test
presses the same button "in both processes" to prove a move cannot be applied twice.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .fake import FakeDiscord
from .gateway import BUFFER_EVENTS, Connection, Gateway, Session, identified_intents, wanted
from .handles import InteractionHandle
from .state import Message, User
from .world import World


class ShardedGateway(Gateway):
    """Keeps one live session per shard id instead of replacing the current one."""

    def __init__(self, world: World, shard_count: int) -> None:
        super().__init__(world)
        self.shard_count = shard_count
        self.by_shard: dict[int, Session] = {}
        self.target: int | None = None  # fire the next interactions at this shard

    @property
    def connected(self) -> bool:
        """True while every shard holds an open session."""
        sessions = [self.by_shard.get(i) for i in range(self.shard_count)]
        return all(s is not None and s.conn is not None for s in sessions)

    def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """Queue a DISPATCH on one session (kept for RESUME), if its intents want it."""
        if not wanted(session.intents, event, data):
            return
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        del session.events[:-BUFFER_EVENTS]
        if session.conn is not None:
            session.conn.queue.put_nowait(payload)

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Interactions to one shard (the guild's, or the test's target); the rest to all."""
        if event != "INTERACTION_CREATE":
            for session in list(self.by_shard.values()):
                self._send(session, event, data)
            return
        shard = self.target
        if shard is None:
            guild_id = int(data.get("guild_id") or 0)
            shard = (guild_id >> 22) % self.shard_count
        session = self.by_shard.get(shard)
        if session is not None:
            self._send(session, event, data)

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard_id, count = (data.get("shard") or [0, 1])[:2]
        if count != self.shard_count:
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return
        session = Session(id=secrets.token_hex(16), conn=conn, intents=identified_intents(data))
        old = self.by_shard.get(shard_id)
        if old is not None:
            old.conn = None
        self.sessions[session.id] = session
        self.by_shard[shard_id] = self.current = session
        self.identifies += 1
        world = self.world
        ready = {
            "v": 10,
            "user": world.bot.payload(),
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(world.app_id), "flags": 0},
            "shard": [shard_id, count],
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "session_type": "normal",
        }
        self._send(session, "READY", ready)
        for guild in world.guilds.values():
            self._send(session, "GUILD_CREATE", guild.payload(world.users))
        world.changes.touch()

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        live = session is not None and session in self.by_shard.values()
        if not live or data.get("token") != self.world.token:
            conn.queue.put_nowait({"op": 9, "d": False, "s": None, "t": None})
            return
        assert session is not None
        session.conn = conn
        self.resumes += 1
        last = int(data.get("seq") or 0)
        for event in session.events:
            if event["s"] > last:
                conn.queue.put_nowait(event)
        self._send(session, "RESUMED", {})
        self.world.changes.touch()


class ShardedFakeDiscord(FakeDiscord):
    """FakeDiscord whose bot runs `shard_count` shards, possibly in several processes."""

    def __init__(self, shard_count: int, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(host, port)
        self.gateway = ShardedGateway(self.world, shard_count)
        self.world.emit = self.gateway.dispatch

    @property
    def sharded(self) -> ShardedGateway:
        """The gateway, typed."""
        assert isinstance(self.gateway, ShardedGateway)
        return self.gateway

    @contextmanager
    def on_shard(self, shard: int) -> Iterator[None]:
        """Interactions made inside go to `shard`, whoever owns the guild."""
        self.sharded.target = shard
        try:
            yield
        finally:
            self.sharded.target = None

    async def click_on_each_shard(
        self, user: User, message: Message | int, custom_id: str
    ) -> list[InteractionHandle]:
        """The same button pressed once per shard (one interaction each), all at once."""
        handles = []
        for shard in range(self.sharded.shard_count):
            with self.on_shard(shard):
                handles.append(await self.click(user, message, custom_id))
        return handles
