"""In-memory world of the fake Discord: users, guilds, channels, messages and their payloads."""

from __future__ import annotations

import asyncio
import datetime
import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12  # seen only by its members (and moderators)
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)
_counter = itertools.count(1)

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
EVERYONE_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
    | (1 << 38)  # send messages in threads
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13) | (1 << 35) | (1 << 34)  # manage msgs, threads
FLAG_EPHEMERAL = 64
FLAG_LOADING = 128
MENTION_RE = re.compile(r"<@!?(\d+)>")


def snowflake() -> int:
    """Return a new, strictly increasing Discord-style snowflake."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso(ts: float) -> str:
    """Format a UNIX timestamp the way Discord does (ISO 8601, UTC)."""
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).isoformat()


class Versioned:
    """A change counter that coroutines can wait on."""

    def __init__(self) -> None:
        self.version = 0
        self._event = asyncio.Event()

    def touch(self) -> None:
        """Record a change and wake every waiter."""
        self.version += 1
        self._event.set()
        self._event = asyncio.Event()

    async def wait_change(self, since: int, timeout: float) -> bool:
        """Wait until the version exceeds `since`; False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.version <= since:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self._event.wait(), remaining)
            except TimeoutError:
                return False
        return True


@dataclass(eq=False)
class User:
    """A Discord user (a player, or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    dm_closed: bool = False

    @property
    def mention(self) -> str:
        """The `<@id>` mention string."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class Role:
    """A guild role."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """The role object as Discord sends it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Channel:
    """A guild text channel, a public thread (parent_id set) or a DM channel (guild_id None)."""

    id: int
    name: str
    guild_id: int | None
    type: int = 0
    parent_id: int | None = None
    position: int = 0
    recipient: User | None = None
    owner_id: int = 0
    members: set[int] = field(default_factory=set)  # a thread's members (who sees a private one)
    invitable: bool = True  # a private thread: may non-moderators add people?

    @property
    def mention(self) -> str:
        """The `<#id>` mention string."""
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The channel object as Discord sends it."""
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "flags": 0}
        if self.type == 1 and self.recipient is not None:
            data.update(recipients=[self.recipient.payload()], last_message_id=None)
            return data
        data.update(
            guild_id=str(self.guild_id),
            name=self.name,
            position=self.position,
            permission_overwrites=[],
            nsfw=False,
            parent_id=str(self.parent_id) if self.parent_id else None,
            topic=None,
            last_message_id=None,
            rate_limit_per_user=0,
        )
        if self.type in THREAD_TYPES:
            data.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=max(1, len(self.members)),
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": iso(time.time()),
                    "locked": False,
                    **({"invitable": self.invitable} if self.type == PRIVATE_THREAD else {}),
                },
            )
        return data


@dataclass(eq=False)
class Guild:
    """A guild with its roles, channels and members (user id -> role ids)."""

    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, list[int]] = field(default_factory=dict)
    joined_at: float = field(default_factory=time.time)

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions of a member (union of their roles and @everyone)."""
        if user_id == self.owner_id:
            return (1 << 50) - 1
        perms = 0
        role_ids = {self.id, *self.members.get(user_id, [])}
        for role in self.roles:
            if role.id in role_ids:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return (1 << 50) - 1
        return perms

    def member_payload(self, user: User, *, with_permissions: bool = False) -> dict[str, Any]:
        """The guild member object as Discord sends it."""
        data: dict[str, Any] = {
            "user": user.payload(),
            "roles": [str(r) for r in self.members.get(user.id, [])],
            "joined_at": iso(self.joined_at),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions_of(user.id))
        return data

    def payload(self, users: dict[int, User]) -> dict[str, Any]:
        """The full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles],
            "joined_at": iso(self.joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": [self.member_payload(users[uid]) for uid in self.members],
            "channels": [c.payload() for c in self.channels if c.type not in THREAD_TYPES],
            "threads": [c.payload() for c in self.channels if c.type in THREAD_TYPES],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "max_members": 500000,
        }


@dataclass(eq=False)
class Attachment:
    """An uploaded file; the bytes are kept so tests can inspect images."""

    id: int
    filename: str
    data: bytes = field(repr=False)
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        """The attachment object as Discord sends it."""
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class Message:
    """A stored message; `visible_to` is set for ephemeral messages."""

    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    mentions: list[int] = field(default_factory=list)
    interaction_id: int | None = None
    interaction_type: int | None = None
    interaction_user: User | None = None
    visible_to: int | None = None
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        """True when only `visible_to` can see the message."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while the message is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & FLAG_LOADING)

    def iter_components(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects), flattened in display order."""
        found: list[dict[str, Any]] = []
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            if "components" in comp:
                stack.extend(reversed(comp["components"]))
            if "accessory" in comp:
                stack.append(comp["accessory"])
            if comp.get("type") in (2, 3, 5, 6, 7, 8):
                found.append(comp)
        return found

    @property
    def custom_ids(self) -> list[str]:
        """custom_id of every interactive component."""
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with this custom_id, if any."""
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    def payload(
        self, base_url: str, guild_id: int | None, users: dict[int, User]
    ) -> dict[str, Any]:
        """The message object as Discord sends it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [users[u].payload() for u in self.mentions if u in users],
            "mention_roles": [],
            "attachments": [a.payload(base_url, self.channel_id) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 20 if self.interaction_type == 2 else 0,
            "flags": self.flags,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["webhook_id"] = str(self.author.id)
            data["application_id"] = str(self.author.id)
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
        return data


def pinged_users(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """User ids actually pinged: `<@id>` in content filtered by allowed_mentions."""
    ids = list(dict.fromkeys(int(m) for m in MENTION_RE.findall(content)))
    if allowed is None or "users" in allowed.get("parse", []):
        return ids
    permitted = {int(u) for u in allowed.get("users", [])}
    return [u for u in ids if u in permitted]
