"""Start-up without a token explains how to get one; DATABASE_URL forms are understood."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import database_path

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
    """A postgres URL is not silently treated as a file name."""
    with pytest.raises(ValueError, match="only SQLite"):
        database_path("postgres://db/hangar")
