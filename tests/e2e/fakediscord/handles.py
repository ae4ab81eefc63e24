"""Test-side handles: an interaction in flight and the bot's answer to it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .state import Attachment, Message

if TYPE_CHECKING:
    from .world import InteractionRecord, World


UPDATE_WAIT = 5.0


class InteractionFailed(AssertionError):
    """The user would see "This interaction failed" (no acknowledgement within 3 s)."""


@dataclass
class Reply:
    """What the user sees after an interaction: the main message plus follow-ups."""

    failed: bool
    callback_type: int | None
    message: Message | None
    followups: list[Message] = field(default_factory=list)

    @property
    def messages(self) -> list[Message]:
        """Main message followed by every follow-up."""
        return ([self.message] if self.message else []) + self.followups

    @property
    def content(self) -> str:
        """Content of the main message."""
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the main message."""
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        """Component rows of the main message."""
        return self.message.components if self.message else []

    @property
    def attachments(self) -> list[Attachment]:
        """Attachments of the main message."""
        return self.message.attachments if self.message else []

    @property
    def ephemeral(self) -> bool:
        """Whether the main message is only visible to the user."""
        return bool(self.message and self.message.ephemeral)

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of every component on the main message."""
        return self.message.custom_ids if self.message else []

    @property
    def all_text(self) -> str:
        """Content and embed text of every message, for loose assertions."""
        parts = []
        for msg in self.messages:
            parts.append(msg.content)
            for embed in msg.embeds:
                parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
                parts += [f"{f.get('name')} {f.get('value')}" for f in embed.get("fields", [])]
        return "\n".join(p for p in parts if p)


class InteractionHandle:
    """An interaction sent to the bot; await `response()` for the answer."""

    def __init__(self, world: World, rec: InteractionRecord) -> None:
        self._world = world
        self.record = rec

    @property
    def id(self) -> int:
        """The interaction id."""
        return self.record.id

    @property
    def acknowledged(self) -> bool:
        """True once the bot sent any callback."""
        return self.record.callback_type is not None

    @property
    def failed(self) -> bool:
        """True when the 3-second acknowledgement deadline passed unanswered."""
        return self.record.failed

    async def response(self, timeout: float = 10.0, settle: float = 0.5) -> Reply:
        """Wait for the callback, the follow-up/edit after a defer, then `settle` quiet seconds."""
        rec = self.record
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while rec.callback_type is None and not rec.failed:
            if not await rec.changes.wait_change(rec.changes.version, deadline - loop.time()):
                raise TimeoutError(f"{rec.label}: no callback within {timeout} s")
        if rec.callback_type is not None:
            while rec.callback_type == 5 and self._main_loading():
                if not await rec.changes.wait_change(rec.changes.version, deadline - loop.time()):
                    raise TimeoutError(f"{rec.label}: deferred but never followed up")
            if rec.callback_type == 6:
                # A deferred update promises an edit or follow-up: give it up to UPDATE_WAIT s.
                wait = min(UPDATE_WAIT, deadline - loop.time())
                await rec.changes.wait_change(rec.ack_version, wait)
            while await rec.changes.wait_change(rec.changes.version, settle):
                pass
        return self.reply()

    def _main_loading(self) -> bool:
        msg = self._world.messages.get(self.record.original_id or 0)
        return bool(msg and msg.loading and not msg.deleted)

    def reply(self) -> Reply:
        """The answer as it stands now."""
        rec, msgs = self.record, self._world.messages
        main = msgs.get(rec.original_id) if rec.original_id else None
        follow = [msgs[i] for i in rec.followup_ids if not msgs[i].deleted]
        return Reply(rec.failed, rec.callback_type, main, follow)
