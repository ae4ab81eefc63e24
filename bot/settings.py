"""All configuration, read once from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///./data/hangar.sqlite3"


class Settings(BaseSettings):
    """Hangar's settings; every field can be set as an environment variable of the same name."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token (secret).")
    database_url: str = Field(default=DEFAULT_DATABASE_URL, description="sqlite:///path or a path.")
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this guild only.")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    ai_move_delay: float = Field(
        default=0.0, ge=0, le=30, description="Seconds the bot waits before an AI seat moves."
    )
    # Only for tests: point discord.py at a local fake Discord instead of discord.com.
    discord_api_base: str | None = Field(default=None, description="Override of the API base URL.")
    # Only for tests: 3600 makes one hour of turn time last one real second.
    hangar_time_scale: float = Field(default=1.0, gt=0, description="Turn-clock speed-up.")
    hangar_heartbeat_seconds: float = Field(
        default=60.0, gt=0, description="How often the bot records that it is up (downtime)."
    )

    @property
    def database_path(self) -> Path:
        """The SQLite file named by DATABASE_URL."""
        return database_path(self.database_url)


def database_path(url: str) -> Path:
    """`sqlite:///relative/x.db`, `sqlite:////abs/x.db` or a bare path → a Path."""
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///"))
    if "://" in url:
        raise ValueError(f"Unsupported DATABASE_URL {url!r}: only SQLite (sqlite:///path) for now.")
    return Path(url)


MISSING_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so Hangar cannot log in to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and click "New Application".
  2. In the "Bot" tab click "Reset Token" and copy the token.
  3. Put it in a file named .env in this folder (copy .env.example), as:
         DISCORD_TOKEN=your-token-here
     or export DISCORD_TOKEN in the environment (on Fly: fly secrets set DISCORD_TOKEN=...;
     on Heroku: heroku config:set DISCORD_TOKEN=...).
  4. Invite the bot: "OAuth2" → "URL Generator" → scopes "bot" and "applications.commands",
     permissions "Send Messages", "Embed Links", "Attach Files", "Read Message History".
Then run `make run` again."""
