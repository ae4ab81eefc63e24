"""The fake's rules engine: stores messages and interactions and enforces Discord's behaviour."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import limits
from .faults import Faults
from .state import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    Attachment,
    Channel,
    Guild,
    Message,
    User,
    Versioned,
    pinged_users,
    snowflake,
)

ACK_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0
CALLBACKS_FOR = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}}
File = tuple[str, bytes, str | None]


class ApiError(Exception):
    """An error response in Discord's shape: {"code", "message"[, "errors"]}."""

    def __init__(self, status: int, code: int, message: str, body: dict[str, Any] | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = body or {"code": code, "message": message}


@dataclass(frozen=True)
class Violation:
    """A Discord rule the bot broke (the real Discord would have refused or failed)."""

    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


@dataclass(eq=False)
class InteractionRecord:
    """One interaction sent to the bot and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    label: str
    message_id: int | None = None
    created: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    failed: bool = False
    expired: bool = False
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    ack_version: int = 0
    changes: Versioned = field(default_factory=Versioned)

    def message_ids(self) -> list[int]:
        """Ids of the original response (or component message) and every follow-up."""
        first = [self.original_id] if self.original_id is not None else []
        return first + self.followup_ids


class World:
    """Users, guilds, channels, messages, commands and interactions, plus the violation log."""

    def __init__(self) -> None:
        self.app_id = snowflake()
        self.token = f"fake.{secrets.token_hex(16)}"
        self.bot = User(self.app_id, "Hangar", bot=True)
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.tokens: dict[str, InteractionRecord] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.violations: list[Violation] = []
        self.faults = Faults()  # injected API failures (tests/e2e/fakediscord/faults.py)
        self.http_log: list[str] = []
        self.changes = Versioned()
        self.base_url = ""
        self.emit: Callable[[str, dict[str, Any]], None] = lambda event, data: None

    def violation(self, kind: str, detail: str) -> None:
        """Record a broken Discord rule."""
        self.violations.append(Violation(kind, detail))

    # --- lookups -----------------------------------------------------------------------------

    def channel(self, channel_id: int) -> Channel:
        """The channel or a 10003 Unknown Channel error."""
        if channel_id not in self.channels:
            raise ApiError(404, 10003, "Unknown Channel")
        return self.channels[channel_id]

    def guild(self, guild_id: int) -> Guild:
        """The guild or a 10004 Unknown Guild error."""
        if guild_id not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        return self.guilds[guild_id]

    def user(self, user_id: int) -> User:
        """The user or a 10013 Unknown User error."""
        if user_id not in self.users:
            raise ApiError(404, 10013, "Unknown User")
        return self.users[user_id]

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel belongs to (None for DMs)."""
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def message_payload(self, msg: Message) -> dict[str, Any]:
        """Serialise a stored message."""
        channel = self.channels[msg.channel_id]
        return msg.payload(self.base_url, channel.guild_id, self.users)

    # --- messages ----------------------------------------------------------------------------

    def check(self, where: str, payload: dict[str, Any], files: list[File], creating: bool) -> None:
        """Reject (400 + violation) a message payload that breaks a limit."""
        problems = limits.check_message(payload, [(f[0], f[1]) for f in files], creating=creating)
        if problems:
            for problem in problems:
                self.violation("limit", f"{where}: {problem}")
            raise ApiError(400, 50035, "Invalid Form Body", limits.error_body(problems))

    def store_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[File],
        *,
        rec: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> Message:
        """Create a bot message (ephemeral when flag 64 is set on an interaction reply)."""
        flags = (int(payload.get("flags") or 0) & ~FLAG_LOADING) | extra_flags
        if rec is None:
            flags &= ~FLAG_EPHEMERAL
        content = str(payload.get("content") or "")
        allowed = payload.get("allowed_mentions")
        msg = Message(
            id=snowflake(),
            channel_id=channel.id,
            author=self.bot,
            content=content,
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            attachments=self._attachments([], payload, files),
            flags=flags,
            allowed_mentions=allowed,
            mentions=pinged_users(content, allowed),
        )
        if rec is not None:
            msg.interaction_id, msg.interaction_type = rec.id, rec.type
            msg.interaction_user = rec.user
            if msg.ephemeral:
                msg.visible_to = rec.user.id
        self.messages[msg.id] = msg
        if not msg.ephemeral:
            self.emit("MESSAGE_CREATE", self.message_payload(msg))
        self.changes.touch()
        return msg

    def _attachments(
        self, existing: list[Attachment], payload: dict[str, Any], files: list[File]
    ) -> list[Attachment]:
        listed = payload.get("attachments")
        described = {str(a.get("id")): a for a in listed or []}
        kept = list(existing) if listed is None else [a for a in existing if str(a.id) in described]
        for index, (name, data, ctype) in enumerate(files):
            desc = described.get(str(index), {})
            kept.append(
                Attachment(
                    snowflake(), desc.get("filename", name), data, ctype, desc.get("description")
                )
            )
        return kept

    def apply_edit(self, msg: Message, payload: dict[str, Any], files: list[File]) -> None:
        """Apply a PATCH: only the keys present change; edits never ping anyone."""
        if "content" in payload:
            msg.content = str(payload["content"] or "")
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        if "attachments" in payload or files:
            msg.attachments = self._attachments(msg.attachments, payload, files)
        msg.flags &= ~FLAG_LOADING
        msg.edited_at = time.time()
        msg.edits += 1
        if not msg.ephemeral:
            self.emit("MESSAGE_UPDATE", self.message_payload(msg))
        for rec in self.interactions.values():
            # Edits through channel routes still count as the answer to a component click.
            if msg.id in (rec.original_id, rec.message_id):
                rec.changes.touch()
        self.changes.touch()

    def channel_message(self, channel_id: int, message_id: int) -> Message:
        """A message fetched through a channel route (ephemeral ones are invisible there)."""
        self.channel(channel_id)
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel_id or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def delete_message(self, msg: Message) -> None:
        """Mark a message deleted."""
        msg.deleted = True
        if not msg.ephemeral:
            channel = self.channels[msg.channel_id]
            data = {"id": str(msg.id), "channel_id": str(channel.id)}
            if channel.guild_id:
                data["guild_id"] = str(channel.guild_id)
            self.emit("MESSAGE_DELETE", data)
        self.changes.touch()

    # --- interactions ------------------------------------------------------------------------

    def new_interaction(
        self, type_: int, user: User, channel: Channel, data: dict[str, Any], label: str
    ) -> InteractionRecord:
        """Register an interaction and start its 3-second acknowledgement clock."""
        rec = InteractionRecord(
            id=snowflake(),
            token=f"itok.{secrets.token_hex(24)}",
            type=type_,
            user=user,
            channel=channel,
            data=data,
            label=label,
        )
        self.interactions[rec.id] = rec
        self.tokens[rec.token] = rec
        asyncio.get_running_loop().call_later(ACK_SECONDS, self._ack_deadline, rec)
        return rec

    def _ack_deadline(self, rec: InteractionRecord) -> None:
        if rec.callback_type is None:
            rec.failed = True
            self.violation("ack-timeout", f"{rec.label}: not acknowledged within 3 s")
            rec.changes.touch()
            self.changes.touch()

    def webhook_record(self, app_id: int, token: str) -> InteractionRecord:
        """The interaction behind a webhook token; refuses unknown and expired tokens."""
        rec = self.tokens.get(token)
        if rec is None or app_id != self.app_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        if rec.expired or time.monotonic() - rec.created > TOKEN_SECONDS:
            self.violation("expired-token", f"{rec.label}: interaction token used after 15 min")
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    def touch(self, rec: InteractionRecord) -> None:
        """Signal a change of an interaction's answer."""
        rec.changes.touch()
        self.changes.touch()


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with exactly `application/json` (discord.py ignores bodies with a charset suffix)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )
