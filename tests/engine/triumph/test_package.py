"""The house of the engine: the helpers see a game through `protocols.py`; `game.py` imports
them and none imports it back, so engine/triumph has no import cycle, type-only imports and
imports inside functions included (issue 18)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "triumph"


def imports_of(path: Path) -> set[str]:
    """The modules of engine/triumph one file imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("engine.triumph."):
                found.add(node.module.split(".")[2])
            elif node.module == "engine.triumph":
                found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names
                      if alias.name.startswith("engine.triumph.")}
    return found


def graph() -> dict[str, set[str]]:
    modules = {path.stem: path for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    return {name: imports_of(path) & set(modules) - {name} for name, path in modules.items()}


def test_no_helper_imports_the_game() -> None:
    importers = {name for name, targets in graph().items() if "game" in targets}
    assert importers <= {"records"}, importers  # records replays a game: it stands above it


def test_the_package_has_no_import_cycle() -> None:
    arrows = graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError(" -> ".join(path[path.index(name):] + [name]))
        if name in done:
            return
        for target in sorted(arrows[name]):
            visit(target, path + [name])
        done.add(name)

    for name in sorted(arrows):
        visit(name, [])
