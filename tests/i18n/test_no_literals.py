"""No player-facing English left in code (issue 30): every sentence goes through the catalogue.

The scan reads the code that makes what players see — the rules engines, the bot's services,
its Discord edge and its pictures — and lists each string literal that reads like words (two
words or more) but is not marked for translation. Not counted: docstrings, `said`/`translate`
calls and the like (they ARE the catalogue), log and internal-error messages (for the host, not
players), slash-command names and descriptions (the command tree's Translator localises those),
SQL, and dictionary keys. What is left is a string a player would read in English.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("rules", "bot/edge", "bot/services", "bot/render", "bot/runtime")
# Marked for the catalogue: these calls' literals are message ids.
MARKERS = frozenset({"said", "translate", "ptranslate", "ntranslate", "Said", "lines"})
# For the host or a developer, never a player: logs and internal errors.
HOST_ONLY = frozenset(
    {
        *("debug", "info", "warning", "error", "exception", "critical", "warn"),
        *("ValueError", "RuntimeError", "AssertionError", "TypeError", "KeyError"),
        *("NotImplementedError", "LookupError", "IndexError", "OSError", "SystemExit"),
        *("compile", "match", "fullmatch", "search", "sub", "getenv", "setdefault", "get"),
        "WorkerGone",  # bot/render/pool.py: a drawing process ended; the bot draws in a thread
        "TimeoutError",  # bot/edge/announce.py: an internal result, logged, never shown
        *("write", "add_argument", "ArgumentParser", "print"),  # developers' command-line tools
    }
)
# Functions whose every string is for the host or the command tree, never a player's message.
HOST_FUNCTIONS = frozenset({"replay_problem"})  # bot/services/replay.py → `python -m bot.store`
COMMAND_TREE_FUNCTIONS = frozenset({"describe"})  # bot/edge/commands/options.py: option help
# Whole files for the host: start-up failures and health checks read by whoever runs the bot,
# the First in Flight balance simulator (a developer's tool), and the English grammar that
# folds log lines (rules/core/log.py matches English endings; other languages keep sentences).
HOST_FILES = frozenset(
    {
        "bot/edge/startup.py",
        "bot/runtime/health.py",
        "rules/first_in_flight/simulate.py",
        "rules/core/log.py",
    }
)
# Names that are the same in every language: the games' published titles.
SAME_EVERYWHERE = frozenset({"title"})
# The command tree's texts: localised by bot.edge.locale.HangarTranslator, not by hand.
COMMAND_TREE = frozenset({"command", "describe", "Choice", "Group", "rename", "choices"})
WORDS = re.compile(r"[A-Za-z]{2,}[^{}\n]*\s[^{}\n]*[A-Za-z]{2,}")
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE FROM|CREATE|PRAGMA)\b")


def _called(node: ast.Call) -> str:
    func = node.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


def _is_docstring(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    owner = parents.get(parents.get(node, node))
    defs = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return (
        isinstance(parents.get(node), ast.Expr)
        and isinstance(owner, defs)
        and (owner.body[0] is parents[node])
    )


def _not_for_players(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a marker, a log or internal error, the command tree, a key or a comparison."""
    if _is_docstring(node, parents):
        return True
    child = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, ast.Call):
            name = _called(parent)
            if name in MARKERS or name in HOST_ONLY or name in COMMAND_TREE:
                return True
        if isinstance(parent, ast.Subscript | ast.Compare | ast.Dict) and (
            not isinstance(parent, ast.Dict) or child in parent.keys
        ):
            return True
        if (
            isinstance(parent, ast.keyword)
            and parent.arg == "description"
            and isinstance(parents.get(parent), ast.Call)
            and _called(parents[parent]) == "__init__"
        ):
            return True  # an app_commands.Group subclass's super().__init__(description=…)
        if isinstance(parent, ast.FunctionDef) and (
            parent.name in HOST_FUNCTIONS or parent.name in COMMAND_TREE_FUNCTIONS
        ):
            return True
        if isinstance(parent, ast.Assert) and child is parent.msg:
            return True  # a developer's assertion
        if isinstance(parent, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in SAME_EVERYWHERE for t in parent.targets
        ):
            return True
        if isinstance(parent, ast.arg | ast.AnnAssign) or (
            isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef) and child is parent.returns
        ):
            return True
        child = parent
    return False


def unmarked(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of each literal in `path` that reads like words and is not marked."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        text = node.value
        if WORDS.search(text) and not SQL.search(text) and not _not_for_players(node, parents):
            yield node.lineno, text


def scan() -> dict[str, list[tuple[int, str]]]:
    """Every scanned file with what it still says in English."""
    found: dict[str, list[tuple[int, str]]] = {}
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if str(path.relative_to(ROOT)) in HOST_FILES:
                continue
            hits = list(unmarked(path))
            if hits:
                found[str(path.relative_to(ROOT))] = hits
    return found


def test_the_scan_finds_an_unmarked_sentence(tmp_path: Path) -> None:
    """The scan itself: a bare sentence is found; marked ones, logs and docstrings are not."""
    code = tmp_path / "sample.py"
    code.write_text(
        '"""A docstring with words."""\n'
        "import logging\n"
        "log = logging.getLogger(__name__)\n"
        "def f(who):\n"
        '    """Also a docstring."""\n'
        '    log.info("a log line for the host")\n'
        '    ok = said("{who} played a card.", who=who)\n'
        '    return f"{who} drew a card." + "Pick a seat now"\n',
        encoding="utf-8",
    )
    assert sorted(text for _, text in unmarked(code)) == [" drew a card.", "Pick a seat now"]


def test_no_player_facing_literal_is_left_in_code() -> None:
    """Every sentence a player reads comes from the catalogue."""
    found = scan()
    listing = "\n".join(
        f"{file}:{line}: {text!r}" for file, hits in found.items() for line, text in hits
    )
    assert not found, f"{sum(len(h) for h in found.values())} unmarked literals:\n{listing}"
