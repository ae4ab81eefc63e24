"""Entry point: `python -m bot` starts Hangar with settings from the environment / .env."""

from __future__ import annotations

import logging
import sys

from bot.settings import MISSING_TOKEN_HELP, SQLITE_SHARDS_REFUSED, Settings


def configure_logging(level: str) -> None:
    """Log to stderr with timestamps; discord.py's own loggers follow the same level."""
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # aiosqlite logs every statement at DEBUG; that drowns the bot's own debug output.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.getLogger().level))


def main() -> int:
    """Read settings, refuse to start without a token, then run the bot until stopped."""
    settings = Settings()
    configure_logging(settings.log_level)
    log = logging.getLogger("bot")
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        log.error("%s", MISSING_TOKEN_HELP)
        return 2
    if settings.shares_shards and not settings.is_postgres:
        log.error("%s", SQLITE_SHARDS_REFUSED)
        return 2
    from bot.app import run

    run(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
