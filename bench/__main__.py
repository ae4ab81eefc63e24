"""Run every bench module that has a `main()`, in name order, one after another."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

import bench


def bench_mains() -> list[tuple[str, Callable[[], None]]]:
    """(module name, main) for each module under bench/ that defines main()."""
    found = []
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        entry = getattr(module, "main", None)
        if callable(entry):
            found.append((info.name, entry))
    return found


def run_all() -> None:
    """Call each bench's main()."""
    for _name, entry in bench_mains():
        entry()


if __name__ == "__main__":
    run_all()
