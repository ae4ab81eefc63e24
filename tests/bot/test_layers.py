"""The bot's inner layers stay free of Discord: services, store and render import no `discord`.

Only the outer layer (app, commands, components, flow, present, announce, notify, errors) talks
to Discord; the services (game logic around the engines), the store (SQL) and the renderers
(pictures) can then be tested and reused without a gateway.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
INNER = ("services", "store", "render")


def _imported_roots(path: Path) -> set[str]:
    """Top-level package names a module imports (function-level imports included)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("layer", INNER)
def test_inner_layer_imports_no_discord(layer: str) -> None:
    """No module of bot/services, bot/store or bot/render imports discord."""
    files = sorted((BOT / layer).rglob("*.py"))
    assert files, f"bot/{layer} has no modules"
    offenders = [str(f.relative_to(BOT)) for f in files if "discord" in _imported_roots(f)]
    assert offenders == []


def test_the_check_sees_a_discord_import(tmp_path: Path) -> None:
    """A module importing discord (plainly, from it, or inside a function) is caught."""
    for n, source in enumerate(
        ("import discord\n", "from discord.ui import View\n", "def f():\n    import discord\n")
    ):
        module = tmp_path / f"m{n}.py"
        module.write_text(source, encoding="utf-8")
        assert "discord" in _imported_roots(module)
    clean = tmp_path / "clean.py"
    clean.write_text("import asyncio\nfrom rules.core import Action\n", encoding="utf-8")
    assert "discord" not in _imported_roots(clean)
