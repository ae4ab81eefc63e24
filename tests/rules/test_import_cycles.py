"""No import circles: modules of rules/ (and of bot/) never import each other in a ring.

Every import counts, module level or inside a function (a function-level import only hides a
circle); imports under `if TYPE_CHECKING:` do not, and neither does a package's __init__
importing its own submodules.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path, root: Path) -> str:
    """Dotted module name of a file under `root`."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """Ids of the nodes under `if TYPE_CHECKING:` blocks."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                skip.update(id(n) for n in ast.walk(sub))
    return skip


def _targets(node: ast.AST, package: str) -> list[str]:
    """The dotted names an import statement may load."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        base = ".".join(up + ([base] if base else []))
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The known modules one file imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        for target in _targets(node, package):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not target.startswith(name + "."):
                out.add(target)
    return out


def circles(*packages: str, root: Path = ROOT) -> list[list[str]]:
    """Every group of modules (of these packages) that import each other in a ring."""
    files = [p for pkg in packages for p in (root / pkg).rglob("*.py")]
    known = {_module_name(p, root) for p in files}
    graph = {_module_name(p, root): _imports(p, _module_name(p, root), known) for p in files}
    reach = {m: _reachable(graph, m) for m in graph}
    groups = {frozenset(m2 for m2 in reach[m] if m in reach[m2]) | {m} for m in graph}
    return sorted(sorted(g) for g in groups if len(g) > 1)


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Modules reachable from `start` by imports."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


def test_rules_has_no_import_circle() -> None:
    """The engines import in one direction only (keys → state → mechanics → steps → engine)."""
    assert circles("rules") == []


def test_bot_has_no_import_circle() -> None:
    """The bot's modules import in one direction only."""
    assert circles("bot", "rules") == []


def test_the_check_finds_a_ring_hidden_in_a_function(tmp_path: Path) -> None:
    """A ring closed by a function-level import is found; a TYPE_CHECKING import is not one."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg import a\n")
    (pkg / "a.py").write_text("from pkg.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import c\n")
    (pkg / "c.py").write_text("from pkg.a import x\n")
    (pkg / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.e\n"
    )
    (pkg / "e.py").write_text("import pkg.d\n")
    assert circles("pkg", root=tmp_path) == [["pkg.a", "pkg.b", "pkg.c"]]
