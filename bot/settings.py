"""All configuration, read once from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///./data/hangar.sqlite3"
POSTGRES_SCHEMES = ("postgres://", "postgresql://")


class Settings(BaseSettings):
    """Hangar's settings; every field can be set as an environment variable of the same name."""

    # env_ignore_empty: `DEV_GUILD_ID=` (as shipped in .env.example) means "unset", not "".
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr | None = Field(default=None, description="The bot token (secret).")
    database_url: str = Field(
        default=DEFAULT_DATABASE_URL, description="sqlite:///path, a path, or postgres://…"
    )
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this guild only.")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    ai_move_delay: float = Field(
        default=0.0, ge=0, le=30, description="Seconds the bot waits before an AI seat moves."
    )
    health_port: int | None = Field(default=None, description="Serve GET /healthz on this port.")
    shard_count: int | None = Field(default=None, ge=1, description="Total shards (all processes).")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="Shards this process runs, e.g. 0,1 (needs SHARD_COUNT)."
    )
    # Only for tests: point discord.py at a local fake Discord instead of discord.com.
    discord_api_base: str | None = Field(default=None, description="Override of the API base URL.")
    # Only for tests: 3600 makes one hour of turn time last one real second.
    hangar_time_scale: float = Field(default=1.0, gt=0, description="Turn-clock speed-up.")
    # For translators and layout checks: every text in this language whatever the reader's
    # ("pseudo" = English ~40 % longer and accented, to find what overflows).
    hangar_force_language: str | None = Field(
        default=None, description="Show everything in this language (e.g. pseudo)."
    )
    hangar_heartbeat_seconds: float = Field(
        default=60.0, gt=0, description="How often the bot records that it is up (downtime)."
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shard_ids(cls, value: object) -> object:
        """`0,1` or `0 1` in the environment → (0, 1)."""
        if isinstance(value, str):
            return tuple(int(part) for part in value.replace(",", " ").split())
        return value

    @model_validator(mode="after")
    def _check_shards(self) -> Settings:
        """SHARD_IDS needs SHARD_COUNT and must lie within it."""
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
            bad = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if bad or not self.shard_ids:
                raise ValueError(f"SHARD_IDS must be between 0 and SHARD_COUNT-1, got {bad}")
        return self

    @property
    def is_postgres(self) -> bool:
        """True when DATABASE_URL names a PostgreSQL server."""
        return is_postgres_url(self.database_url)

    @property
    def database_path(self) -> Path:
        """The SQLite file named by DATABASE_URL."""
        return database_path(self.database_url)

    @property
    def shares_shards(self) -> bool:
        """True when other processes run the remaining shards of this bot."""
        if self.shard_count is None or self.shard_count <= 1:
            return False
        return self.shard_ids is not None and len(set(self.shard_ids)) < self.shard_count


def is_postgres_url(url: str) -> bool:
    """True for Heroku's postgres:// and the standard postgresql:// forms."""
    return url.startswith(POSTGRES_SCHEMES)


def database_path(url: str) -> Path:
    """`sqlite:///relative/x.db`, `sqlite:////abs/x.db` or a bare path → a Path."""
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///"))
    if "://" in url:
        raise ValueError(
            f"Unsupported DATABASE_URL scheme in {url.split('://')[0]!r}://…: use sqlite:///path "
            "or postgres://user:password@host/database."
        )
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

SQLITE_SHARDS_REFUSED = """\
SHARD_IDS runs only some of the SHARD_COUNT shards in this process, so other processes must run
the rest, but DATABASE_URL is a SQLite file, which only one process may use safely.
Either run every shard in this one process (unset SHARD_IDS), or use PostgreSQL
(DATABASE_URL=postgres://…) for several processes."""
