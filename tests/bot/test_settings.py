"""Start-up without a token explains how to get one; DATABASE_URL forms are understood."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE_URL, MISSING_TOKEN_HELP, Settings, database_path

ROOT = Path(__file__).resolve().parents[2]


def test_missing_token_exits_with_instructions(tmp_path: Path) -> None:
    """`python -m bot` with no DISCORD_TOKEN exits non-zero and says where to put one."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "DISCORD_TOKEN" in run.stderr
    assert "discord.com/developers/applications" in run.stderr
    assert ".env" in run.stderr


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///./data/hangar.sqlite3", Path("data/hangar.sqlite3")),
        ("sqlite:////data/hangar.sqlite3", Path("/data/hangar.sqlite3")),
        ("games.db", Path("games.db")),
    ],
)
def test_database_url_forms(url: str, path: Path) -> None:
    """Relative, absolute and bare SQLite locations."""
    assert database_path(url) == path


def test_other_database_schemes_are_refused_clearly() -> None:
    """An unknown URL is not silently treated as a file name."""
    with pytest.raises(ValueError, match="use sqlite:///path or postgres://"):
        database_path("mysql://db/hangar")


def _clean_env() -> dict[str, str]:
    """The environment without any Hangar setting, so only `.env` in cwd counts."""
    names = {name.upper() for name in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in names}
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_env_example_as_shipped_shows_the_token_help(tmp_path: Path) -> None:
    """`cp .env.example .env` then `python -m bot`: the friendly help, not a traceback."""
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    run = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run.stderr
    assert MISSING_TOKEN_HELP.splitlines()[0] in run.stderr
    assert "Traceback" not in run.stderr and "validation error" not in run.stderr


def test_empty_values_mean_unset(tmp_path: Path) -> None:
    """Every optional setting left empty in `.env` takes its default."""
    names = [name.upper() for name in Settings.model_fields]
    (tmp_path / ".env").write_text("".join(f"{name}=\n" for name in names))
    settings = Settings(_env_file=tmp_path / ".env")  # type: ignore[call-arg]
    assert settings.discord_token is None and settings.dev_guild_id is None
    assert settings.database_url == DEFAULT_DATABASE_URL and settings.log_level == "INFO"
    assert settings.health_port is None and settings.shard_ids is None


def test_several_sqlite_processes_are_refused_at_start(tmp_path: Path) -> None:
    """SHARD_IDS naming only some shards on SQLite stops before connecting, saying why."""
    env = _clean_env() | {
        "DISCORD_TOKEN": "not-a-real-token",
        "DATABASE_URL": str(tmp_path / "h.sqlite3"),
        "SHARD_COUNT": "2",
        "SHARD_IDS": "1",
    }
    run = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "only one process may use safely" in run.stderr.replace("\n", " ")
    assert "Traceback" not in run.stderr
