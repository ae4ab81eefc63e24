"""Start-up checks that fail fast with one clear line, and secrets kept out of every log line."""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

from bot.settings import Settings
from bot.store.migrations import LATEST

# scheme://user:password@host → scheme://user:***@host (the password never reaches a log).
_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):(?P<pw>[^@\s]*)@")
# Back ends other helpers of the process handle themselves (not SQLite files).
OTHER_BACKENDS = ("postgres://", "postgresql://")


class StartupError(Exception):
    """Hangar cannot start; the message is the one line the operator reads."""


def redact_url(text: str) -> str:
    """`text` with the password of every URL in it replaced by ***."""
    return _URL_PASSWORD.sub(lambda m: f"{m['head']}:***@", text)


class RedactingFilter(logging.Filter):
    """Rewrites each record's message with URL passwords redacted (attached to every handler)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact, and let the record through."""
        message = record.getMessage()
        clean = redact_url(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def install_redaction() -> None:
    """Redact URL passwords in every log line of the process."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactingFilter())


def check_database(settings: Settings) -> Path | None:
    """The SQLite file checked usable (writable, schema not newer); None for other back ends."""
    url = settings.database_url
    if url.startswith(OTHER_BACKENDS):
        return None
    try:
        path = settings.database_path
    except ValueError as exc:
        raise StartupError(redact_url(str(exc))) from None
    if path.is_dir():
        raise StartupError(f"DATABASE_URL points to a directory ({path}), not a database file.")
    if _read_only(path):
        raise StartupError(f"Cannot write the database {path}: the file system is read-only.")
    if path.exists() and not os.access(path, os.W_OK):
        raise StartupError(f"Cannot write the database {path}: the file is not writable.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        version = _probe(path)
    except (OSError, sqlite3.Error) as exc:
        reason = "the file system is read-only" if _read_only(path) else _reason(exc)
        raise StartupError(f"Cannot write the database {path}: {reason}.") from None
    if version > LATEST:
        raise StartupError(
            f"The database {path} has schema {version}, newer than this Hangar ({LATEST}): "
            "run the newer Hangar or restore a backup."
        )
    return path


def _probe(path: Path) -> int:
    """Open the file, take the write lock once, and read its schema version."""
    with closing(sqlite3.connect(path, isolation_level=None, timeout=5)) as db:
        db.execute("BEGIN IMMEDIATE")  # fails on a read-only file or file system
        (version,) = db.execute("PRAGMA user_version").fetchone()
        db.execute("ROLLBACK")
    return int(version)


def _read_only(path: Path) -> bool:
    """True when the nearest existing folder of `path` is on a read-only file system."""
    folder = next((p for p in (path, *path.parents) if p.exists()), Path("/"))
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _reason(exc: BaseException) -> str:
    """A short reason: the OS message when there is one."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def unreachable_database(url: str, exc: OSError) -> StartupError:
    """Why a PostgreSQL server could not be reached, naming its host and port (no password)."""
    parts = urlsplit(url)
    where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
    return StartupError(
        f"cannot reach the PostgreSQL server at {where} ({_reason(exc)}) — check DATABASE_URL and "
        "that the server is running."
    )


def describe_failure(exc: BaseException) -> str | None:
    """The one line for a failure while starting, or None when it is not a known start-up case."""
    import aiohttp
    import discord

    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token (401 Unauthorized) — check DISCORD_TOKEN."
    if isinstance(exc, aiohttp.ClientError | discord.GatewayNotFound):
        return f"cannot reach Discord: {exc}"
    if isinstance(exc, sqlite3.Error) or type(exc).__module__.startswith("asyncpg"):
        return f"the database cannot be used: {redact_url(str(exc))}"
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return None
