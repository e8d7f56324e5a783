"""The packages import one way: engine <- hardware <- firmware_bridge; the app only the protocol.

Every import of every module is read from its source (function-level ones too), so an arrow
that runs the wrong way fails here before it can grow into a cycle.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("engine", "hardware", "firmware_bridge", "companion_app")

# Who may import whom: a module (by prefix, longest first) -> the prefixes it may import.
ALLOWED: dict[str, tuple[str, ...]] = {
    "engine": ("engine",),
    "hardware": ("engine", "hardware"),
    # The wire protocol is what the tablets share: it stands on the engine alone.
    "firmware_bridge.protocol": ("engine", "firmware_bridge.protocol"),
    "firmware_bridge.board": ("engine", "hardware", "firmware_bridge.protocol", "firmware_bridge.board"),
    # The referee seats the computer player (referee/computer_seat.py); the player knows no referee.
    "firmware_bridge.referee": ("engine", "hardware", "firmware_bridge.protocol", "firmware_bridge.board",
                                "firmware_bridge.bot", "firmware_bridge.referee"),
    "firmware_bridge.bot": ("engine", "firmware_bridge.bot"),
    "firmware_bridge": ("engine", "hardware", "firmware_bridge"),
    "companion_app.demo": ("engine", "hardware", "firmware_bridge", "companion_app"),
    "companion_app": ("engine", "firmware_bridge.protocol", "companion_app"),
}
# Loaded only by tests, benches and the demo: nothing a referee on a Pi runs imports them at
# module level.
SIMULATOR = ("hardware.sim", "firmware_bridge.board.sim_source", "firmware_bridge.board.sim_table")


@dataclass(frozen=True)
class Import:
    """One import statement of ours: who imports what, and whether at module level."""

    module: str
    target: str
    line: int
    top_level: bool
    type_only: bool = False  # inside `if TYPE_CHECKING:`: never executed


def module_name(path: Path) -> str:
    """`firmware_bridge/board/sources.py` -> `firmware_bridge.board.sources`."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[Import]:
    """Every import of one of our packages in a source file."""
    module = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # Module level: the body, and the bodies of its `if TYPE_CHECKING:` / `try:` blocks.
    top_level = {id(node) for node in tree.body}
    type_only: set[int] = set()
    for node in tree.body:
        if isinstance(node, (ast.If, ast.Try)):
            top_level |= {id(child) for child in ast.walk(node)}
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only |= {id(child) for child in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                package = module.split(".")
                if path.name != "__init__.py":
                    package = package[:-1]
                base = ".".join(package[: len(package) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            targets = [source] + [f"{source}.{alias.name}" for alias in node.names]
        for target in targets:
            if target.split(".")[0] in OURS:
                found.append(Import(module, target, node.lineno, id(node) in top_level,
                                    id(node) in type_only))
    return found


def all_imports() -> list[Import]:
    """The imports of every module in the four packages."""
    found = []
    for package in OURS:
        for path in sorted((ROOT / package).rglob("*.py")):
            found.extend(imports_of(path))
    return found


def rule_for(module: str) -> tuple[str, ...]:
    """The prefixes `module` may import: the rule of its longest matching prefix."""
    for prefix in sorted(ALLOWED, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return ALLOWED[prefix]
    raise AssertionError(f"{module} is in no layer")


def within(target: str, prefixes: tuple[str, ...]) -> bool:
    """Whether `target` is one of `prefixes` or below one."""
    return any(target == prefix or target.startswith(prefix + ".") for prefix in prefixes)


def wrong_way(imports: list[Import]) -> list[str]:
    """The imports that break the layering, as readable lines."""
    bad = []
    for imp in imports:
        allowed = rule_for(imp.module)
        # `from firmware_bridge import protocol` names a package above the allowed one.
        if not within(imp.target, allowed) and not any(a.startswith(imp.target + ".") for a in allowed):
            bad.append(f"{imp.module}:{imp.line} imports {imp.target}")
    return bad


def test_every_import_runs_the_one_way():
    assert wrong_way(all_imports()) == []


def test_no_referee_module_loads_the_simulator_at_start():
    loaded = [f"{imp.module}:{imp.line} imports {imp.target}" for imp in all_imports()
              if imp.top_level and not imp.type_only and within(imp.target, SIMULATOR)
              and not within(imp.module, SIMULATOR) and not within(imp.module, ("companion_app.demo",))]
    assert loaded == []


def test_the_engine_dodges_no_cycle_with_a_late_import():
    late = [f"{imp.module}:{imp.line} imports {imp.target}" for imp in all_imports()
            if imp.module.startswith("engine") and not imp.top_level]
    assert late == []


@pytest.mark.parametrize(("module", "target", "expected_ok"), [
    ("engine.stratego.game", "engine.stratego.views", True),
    ("engine.stratego.game", "firmware_bridge.protocol.contract", False),
    ("hardware.sim.board", "engine", True),
    ("hardware.sim.board", "firmware_bridge.board.recognition", False),
    ("firmware_bridge.protocol.client", "firmware_bridge.referee.session", False),
    ("firmware_bridge.referee.session", "firmware_bridge.protocol.contract", True),
    ("firmware_bridge.board.recognition", "firmware_bridge.referee.session", False),
    ("firmware_bridge.referee.service", "firmware_bridge.cli.main", False),
    ("companion_app.ui.board", "firmware_bridge.protocol.contract", True),
    ("companion_app.ui.board", "firmware_bridge.referee.session", False),
    ("companion_app.net.network", "hardware.sim.board", False),
    ("companion_app.demo.system", "firmware_bridge.referee.service", True),
])
def test_the_checker_tells_a_wrong_arrow_from_a_right_one(module, target, expected_ok):
    assert (wrong_way([Import(module, target, 1, True)]) == []) is expected_ok
