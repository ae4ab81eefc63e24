"""rules/ must stay pure: no discord, PIL, aiosqlite or bot imports anywhere in it."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {"discord", "PIL", "aiosqlite", "bot", "aiohttp", "sqlite3"}
RULES = Path(__file__).resolve().parents[2] / "rules"


def _imported_roots(path: Path) -> set[str]:
    """Top-level package names a module imports."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_rules_import_nothing_impure() -> None:
    """Every module under rules/ imports only pure packages."""
    files = sorted(RULES.rglob("*.py"))
    assert files, "rules/ has no modules"
    offenders = {str(f.relative_to(RULES)): _imported_roots(f) & FORBIDDEN for f in files}
    assert {k: v for k, v in offenders.items() if v} == {}
