"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, dispatch."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .world import World

HEARTBEAT_MS = 41250
BUFFER_EVENTS = 2000


@dataclass(eq=False)
class Connection:
    """One websocket; a writer task drains the queue so events keep their order."""

    ws: web.WebSocketResponse
    compressor: Any = None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)

    async def writer(self) -> None:
        """Send queued payloads until a None sentinel."""
        while (payload := await self.queue.get()) is not None:
            text = json.dumps(payload)
            if self.compressor is not None:
                data = self.compressor.compress(text.encode())
                data += self.compressor.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)


# Discord's intent bits that gate message events; a bot gets only what it identified with.
GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 9, 1 << 12
MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"})
ALL_INTENTS = -1  # an IDENTIFY without intents (old clients): everything


def wanted(intents: int, event: str, data: dict[str, Any]) -> bool:
    """Whether a session identified with `intents` receives `event`, as Discord decides."""
    if event not in MESSAGE_EVENTS:
        return True
    return bool(intents & (GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES))


@dataclass(eq=False)
class Session:
    """A gateway session: sequence numbers, the intents it asked for and the events a RESUME
    replays."""

    id: str
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    conn: Connection | None = None
    intents: int = ALL_INTENTS


def identified_intents(data: dict[str, Any]) -> int:
    """The intents an IDENTIFY payload asks for."""
    intents = data.get("intents")
    return ALL_INTENTS if intents is None else int(intents)


class Gateway:
    """Serves /gateway and dispatches events to the bot's current session."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.identifies = 0
        self.resumes = 0
        self.connections: list[Connection] = []

    @property
    def connected(self) -> bool:
        """True while the bot holds an identified (or resumed) gateway connection."""
        return self.current is not None and self.current.conn is not None

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Queue a DISPATCH event on the current session (kept for RESUME if offline)."""
        session = self.current
        if session is None or not wanted(session.intents, event, data):
            return
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        del session.events[:-BUFFER_EVENTS]
        if session.conn is not None:
            session.conn.queue.put_nowait(payload)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the library closes and RESUMEs."""
        if self.current is not None and self.current.conn is not None:
            self.current.conn.queue.put_nowait({"op": 7, "d": None, "s": None, "t": None})

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The websocket endpoint."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        zlib_stream = request.query.get("compress") == "zlib-stream"
        conn = Connection(ws, zlib.compressobj() if zlib_stream else None)
        self.connections.append(conn)
        writer = asyncio.create_task(conn.writer())
        conn.queue.put_nowait(
            {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_message(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    await self._on_message(conn, json.loads(zlib.decompress(msg.data)))
        finally:
            for session in self.sessions.values():
                if session.conn is conn:
                    session.conn = None
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            self.connections.remove(conn)
            self.world.changes.touch()
        return ws

    async def _on_message(self, conn: Connection, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == 1:
            conn.queue.put_nowait({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = Session(id=secrets.token_hex(16), conn=conn, intents=identified_intents(data))
        if self.current is not None:
            self.current.conn = None
        self.sessions[session.id] = session
        self.current = session
        self.identifies += 1
        world = self.world
        self.dispatch(
            "READY",
            {
                "v": 10,
                "user": world.bot.payload(),
                "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
                "session_id": session.id,
                "resume_gateway_url": self.url,
                "application": {"id": str(world.app_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "session_type": "normal",
            },
        )
        for guild in world.guilds.values():
            self.dispatch("GUILD_CREATE", guild.payload(world.users))
        world.changes.touch()

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.world.token or session is not self.current:
            conn.queue.put_nowait({"op": 9, "d": False, "s": None, "t": None})
            return
        session.conn = conn
        self.resumes += 1
        last = int(data.get("seq") or 0)
        for event in session.events:
            if event["s"] > last:
                conn.queue.put_nowait(event)
        self.dispatch("RESUMED", {})
        self.world.changes.touch()

    async def close_all(self) -> None:
        """Close every open websocket (used on shutdown)."""
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
