"""The notebook reads what a seat receives and nothing else: it never imports the game."""

from __future__ import annotations

import ast
from pathlib import Path

NOTEBOOK = Path(__file__).parents[4] / "engine" / "stratego" / "notebook"
ALLOWED = {"engine.stratego.combat", "engine.core.errors", "engine.stratego.pieces", "engine.stratego.squares",
           "engine.stratego.variants"}


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module == "engine":  # `from engine import Game` would reach the game too
                found |= {f"engine.{alias.name}" for alias in node.names}
    return found


def test_the_notebook_never_imports_the_game_or_the_views():
    modules = sorted(NOTEBOOK.glob("*.py"))
    assert len(modules) >= 5
    for path in modules:
        ours = {m for m in imports_of(path) if m == "engine" or m.startswith("engine.")}
        outside = {m for m in ours if not m.startswith("engine.stratego.notebook")} - ALLOWED
        assert outside == set(), f"{path.name} imports {outside}"
