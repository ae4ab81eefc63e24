"""A local fake of Discord (HTTP API v10 + gateway) for end-to-end tests of the real bot."""

from .client import CommandUnavailable
from .fake import FakeDiscord
from .handles import InteractionFailed, InteractionHandle, Reply
from .state import Attachment, Channel, Guild, Message, User
from .world import Violation

__all__ = [
    "Attachment",
    "Channel",
    "CommandUnavailable",
    "FakeDiscord",
    "Guild",
    "InteractionFailed",
    "InteractionHandle",
    "Message",
    "Reply",
    "User",
    "Violation",
]
