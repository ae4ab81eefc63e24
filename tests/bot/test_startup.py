"""Start-up failures: `python -m bot` exits non-zero with one clear line, no traceback."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.edge.startup import redact_url
from bot.store.migrations import LATEST

REPO = Path(__file__).resolve().parents[2]
PYTHON = REPO / ".venv" / "bin" / "python"
PREFIX = "Hangar cannot start: "


def run_bot(
    database_url: str, tmp_path: Path, *, wrap: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real `python -m bot` with these settings (no Discord is reached)."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": "test-token",
        "DATABASE_URL": database_url,
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",  # never reached: the check comes first
        "LOG_LEVEL": "INFO",
    }
    python = str(PYTHON if PYTHON.exists() else sys.executable)
    command = [*(wrap or []), python, "-m", "bot"]
    return subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def the_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single failure line (and check there is exactly one, and no traceback)."""
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.startswith(PREFIX)]
    assert len(lines) == 1, output
    return lines[0]


def test_an_unsupported_database_url_is_refused_without_its_password(tmp_path: Path) -> None:
    """mysql://user:secret@host: one line naming the scheme; the password appears nowhere."""
    result = run_bot("mysql://hangar:s3cret-pw@db.example/hangar", tmp_path)
    line = the_line(result)
    assert "mysql" in line and "sqlite" in line.lower()
    assert "s3cret-pw" not in result.stdout + result.stderr


def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    """DATABASE_URL naming a folder."""
    folder = tmp_path / "data"
    folder.mkdir()
    assert "directory" in the_line(run_bot(f"sqlite:///{folder}", tmp_path))


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    """A database written by a newer Hangar is not touched."""
    database = tmp_path / "hangar.sqlite3"
    with closing(sqlite3.connect(database)) as db:
        db.execute(f"PRAGMA user_version = {LATEST + 1}")
    line = the_line(run_bot(str(database), tmp_path))
    assert f"schema {LATEST + 1}" in line and "newer" in line
    with closing(sqlite3.connect(database)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST + 1


def test_a_read_only_file_system_is_refused(tmp_path: Path) -> None:
    """An existing database on a file system remounted read-only (a private mount namespace)."""
    unshare = shutil.which("unshare")
    folder = tmp_path / "volume"
    folder.mkdir()
    database = folder / "hangar.sqlite3"
    with closing(sqlite3.connect(database)) as db:
        db.execute("CREATE TABLE t (x)")
    probe = (
        subprocess.run([str(unshare), "-m", "true"], capture_output=True, check=False)
        if unshare
        else None
    )
    if probe is None or probe.returncode != 0:
        pytest.skip("needs `unshare -m` (mount namespaces) to make a read-only file system")
    script = (
        f'mount --bind "{folder}" "{folder}" && mount -o remount,ro,bind "{folder}" && exec "$@"'
    )
    wrap = [str(unshare), "-m", "sh", "-c", script, "sh"]
    line = the_line(run_bot(str(database), tmp_path, wrap=wrap))
    assert "read-only" in line and str(database) in line


def test_redact_url_hides_passwords_only() -> None:
    """Passwords in any URL inside a text are replaced; the rest stays readable."""
    text = "connect postgres://hangar:pa55@db:5432/x and mysql://u:p@h/y; plain sqlite:///a.db"
    assert redact_url(text) == (
        "connect postgres://hangar:***@db:5432/x and mysql://u:***@h/y; plain sqlite:///a.db"
    )
