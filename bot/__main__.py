"""Entry point: `python -m bot` starts Hangar with settings from the environment / .env."""

from __future__ import annotations

import logging
import os
import sys

from bot.edge.startup import (
    StartupError,
    check_database,
    describe_failure,
    install_redaction,
    redact_url,
)
from bot.heap import tune
from bot.settings import MISSING_TOKEN_HELP, SQLITE_SHARDS_REFUSED, Settings

EXIT_STARTUP = 1
EXIT_NO_TOKEN = 2


def configure_logging(level: str) -> None:
    """Log to stderr with timestamps; discord.py's own loggers follow the same level."""
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # aiosqlite logs every statement at DEBUG; that drowns the bot's own debug output.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.getLogger().level))
    install_redaction()


def fail(line: str, code: int = EXIT_STARTUP) -> int:
    """Print the one line saying why Hangar cannot start, then exit at once.

    os._exit: a database thread left over by a failed open must not keep the process alive.
    """
    print(f"Hangar cannot start: {redact_url(line)}", file=sys.stderr, flush=True)
    logging.shutdown()
    os._exit(code)


def main() -> int:
    """Read settings, refuse to start without a token or a usable database, then run the bot."""
    tune()  # before the first large allocation: the heap's settings hold from then on
    try:
        settings = Settings()
    except ValueError as exc:  # a malformed setting (pydantic names the field)
        return fail(f"invalid settings: {redact_url(str(exc).splitlines()[0])}")
    configure_logging(settings.log_level)
    log = logging.getLogger("bot")
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        log.error("%s", MISSING_TOKEN_HELP)
        return EXIT_NO_TOKEN
    if settings.shares_shards and not settings.is_postgres:
        log.error("%s", SQLITE_SHARDS_REFUSED)
        return EXIT_NO_TOKEN
    if settings.hangar_force_language:
        from bot import i18n

        i18n.force(settings.hangar_force_language)
    try:
        check_database(settings)
        from bot.edge.app import run

        run(settings)
    except StartupError as exc:
        return fail(str(exc))
    except Exception as exc:
        line = describe_failure(exc)
        if line is None:
            raise
        return fail(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
