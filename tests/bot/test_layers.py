"""The bot's wings import only what they should; only the Discord edge imports discord.

* `bot/edge` — the Discord edge (client, commands, components, presenting, posting): anything.
* `bot/runtime` — background tasks (scheduler, AI driver, previews, health): services, store,
  render, rules; the edge only for typing (under TYPE_CHECKING), its callables are handed in.
* `bot/services` — the game services around the engines: store, rules.
* `bot/render` — pictures from views: rules.
* `bot/store` — SQL: nothing above it (its command line, `bot/store/__main__.py`, is an entry
  point and may hand it the services' replay check).
* `bot/i18n` — the message catalogue: nothing (every wing may use it; its command line,
  `bot/i18n/__main__.py`, reads the slash commands' texts from the edge).
* Top level: only `__main__.py` (the entry point), `settings.py`, `lru.py` and `heap.py` (the
  C heap's settings, for the bot's process and its render workers), which every wing may use.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
SHARED = {"bot.settings", "bot.lru", "bot.heap", "bot.i18n"}
ALLOWED: dict[str, set[str]] = {
    "edge": {"bot.edge", "bot.runtime", "bot.services", "bot.store", "bot.render", "rules"},
    "runtime": {"bot.runtime", "bot.services", "bot.store", "bot.render", "rules"},
    "services": {"bot.services", "bot.store", "rules"},
    "render": {"bot.render", "rules"},
    "store": {"bot.store", "rules"},
    "i18n": {"bot.i18n"},
}
ENTRY_POINTS = {"store/__main__.py": {"bot.services"}, "i18n/__main__.py": {"bot.edge"}}
TOP_LEVEL = {"__init__.py", "__main__.py", "settings.py", "lru.py", "heap.py"}


def _type_checking_block(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:` (imports for annotations only)."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    )


def imports(path: Path) -> set[str]:
    """Modules a file imports at run time (function-level imports included, TYPE_CHECKING
    blocks left out)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _type_checking_block(node):
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def wing_of(module: str) -> str | None:
    """'bot.services' for 'bot.services.games', 'rules' for 'rules.core', None for others."""
    parts = module.split(".")
    if parts[0] == "rules":
        return "rules"
    if parts[0] == "bot" and len(parts) > 1:
        return ".".join(parts[:2])
    return None


def offenders(wing: str) -> list[str]:
    """Imports of a wing that reach where it may not (discord included)."""
    bad = []
    for path in sorted((BOT / wing).rglob("*.py")):
        rel = str(path.relative_to(BOT))
        allowed = ALLOWED[wing] | SHARED | ENTRY_POINTS.get(rel, set())
        for module in sorted(imports(path)):
            if module.split(".")[0] == "discord" and wing != "edge":
                bad.append(f"{rel} imports {module}")
            target = wing_of(module)
            if target is not None and target not in allowed and module not in allowed:
                bad.append(f"{rel} imports {module}")
    return bad


@pytest.mark.parametrize("wing", sorted(ALLOWED))
def test_each_wing_imports_only_what_it_may(wing: str) -> None:
    """No wing reaches up (services into the edge, the store into services, …)."""
    assert list((BOT / wing).rglob("*.py")), f"bot/{wing} has no modules"
    assert offenders(wing) == []


def test_only_the_edge_imports_discord() -> None:
    """discord is imported in bot/edge and nowhere else in bot/ or rules/."""
    root = BOT.parent
    outside = [
        str(path.relative_to(root))
        for folder in (BOT, root / "rules")
        for path in sorted(folder.rglob("*.py"))
        if "edge" not in path.relative_to(root).parts
        and any(m.split(".")[0] == "discord" for m in imports(path))
    ]
    assert outside == []


def test_no_module_lies_loose_at_the_top() -> None:
    """bot/ holds its wings, the entry point and the two shared helpers; nothing else."""
    assert {p.name for p in BOT.glob("*.py")} == TOP_LEVEL


def test_the_check_sees_what_it_must(tmp_path: Path) -> None:
    """A discord import (plain, from, inside a function) is seen; one under TYPE_CHECKING is
    not; a services module importing the edge is an offence."""
    for n, source in enumerate(
        ("import discord\n", "from discord.ui import View\n", "def f():\n    import discord\n")
    ):
        module = tmp_path / f"m{n}.py"
        module.write_text(source, encoding="utf-8")
        assert any(m.startswith("discord") for m in imports(module))
    typed = tmp_path / "typed.py"
    typed.write_text("if TYPE_CHECKING:\n    from bot.edge.app import HangarBot\n", "utf-8")
    assert imports(typed) == set()
    assert wing_of("bot.edge.app") == "bot.edge" not in ALLOWED["services"]
