"""Run a bot (the real one: `python -m bot`) as a subprocess against the fake Discord."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .fakediscord import FakeDiscord, Guild

REPO = Path(__file__).resolve().parents[2]
VENV_PYTHON = REPO / ".venv" / "bin" / "python"
ERROR_LINE = re.compile(r"\bERROR\b|\bCRITICAL\b|^Traceback")


def bot_env(fake: FakeDiscord, guild: Guild, database: Path | str) -> dict[str, str]:
    """The environment the bot needs to talk to `fake` (DATABASE_URL is a plain file path)."""
    return {
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DATABASE_URL": str(database),
        "DEV_GUILD_ID": str(guild.id),
        "LOG_LEVEL": "DEBUG",
    }


class BotProcess:
    """A bot subprocess; stdout+stderr go to `log_path`, see `tail()`.

    Pass `fake=` so that `stop()` also waits until the fake has seen the gateway close.
    """

    def __init__(
        self,
        env: dict[str, str],
        cwd: Path | str = REPO,
        *,
        module: str = "bot",
        log_path: Path | str | None = None,
        python: Path | str | None = None,
        fake: FakeDiscord | None = None,
    ) -> None:
        self.env = env
        self.cwd = Path(cwd)
        self.module = module
        self.python = str(python or (VENV_PYTHON if VENV_PYTHON.exists() else sys.executable))
        default_log = Path(tempfile.mkdtemp(prefix="e2e-bot-")) / f"{module}.log"
        self.log_path = Path(log_path) if log_path else default_log
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.fake = fake

    @property
    def running(self) -> bool:
        """True while the subprocess is alive."""
        return self.proc is not None and self.proc.returncode is None

    async def start(self) -> None:
        """Launch `<python> -m <module>` with the inherited environment plus `env`."""
        if self.running:
            raise RuntimeError("bot process already running")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start #{self.starts}: -m {self.module} =====\n".encode())
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                self.python,
                "-m",
                self.module,
                cwd=self.cwd,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, wait up to `timeout` seconds, then SIGKILL; returns the exit code."""
        proc = self.proc
        if proc is None:
            return None
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        if self.fake is not None:
            # Let the fake notice the closed websocket so wait_ready() cannot see a stale session.
            await self.fake.wait_disconnected(timeout)
        return proc.returncode

    async def restart(self) -> None:
        """Stop then start again (same env, same database)."""
        await self.stop()
        await self.start()

    def tail(self, lines: int = 80) -> str:
        """The last lines of the log."""
        if not self.log_path.exists():
            return "(no log)"
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def log_errors(self) -> list[str]:
        """Log lines reporting an error or a traceback (the bot should produce none)."""
        if not self.log_path.exists():
            return []
        lines = self.log_path.read_text(errors="replace").splitlines()
        return [line for line in lines if ERROR_LINE.search(line)]
