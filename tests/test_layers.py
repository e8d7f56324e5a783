"""The house holds: every package in a layer, imports running one way, no cycle of files.

Every import of every module is read from its source: module level, inside functions and under
``if TYPE_CHECKING:`` alike, since a type-only or late import is still an arrow a reader has to
follow (and a cycle dodged that way is still a cycle).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("engine", "hardware", "firmware_bridge", "companion_app")

# Every package of ours (a folder with __init__.py) -> the packages its modules may import (a
# prefix covers what lies below it). A new package is in no layer until it is named here.
ENGINE = ("engine.core", "engine.stratego", "engine.triumph")
ALLOWED: dict[str, tuple[str, ...]] = {
    "engine": ("engine",),  # the package's public face re-exports the games' engines
    "engine.core": ("engine.core",),
    "engine.stratego": ("engine.core", "engine.stratego"),
    "engine.stratego.notebook": ("engine.core", "engine.stratego"),
    "engine.triumph": ("engine.core", "engine.triumph"),
    "hardware": ("hardware",),
    # The scanner firmware runs as MicroPython on the RP2040: nothing of ours but itself (and the
    # one guarded import of the error root, FIRMWARE_ERROR_ROOT below).
    "hardware.firmware": ("hardware.firmware",),
    "hardware.firmware.sim": ("hardware.firmware",),
    # The Pi's own matrix and the profiles share the firmware's square order and orientations.
    "hardware.gpio": ("engine", "hardware.firmware", "hardware.gpio", "hardware.profiles"),
    "hardware.profiles": ("engine", "hardware.firmware", "hardware.profiles"),
    "hardware.sim": ("engine", "hardware"),
    "firmware_bridge": ("firmware_bridge",),
    # The wire protocol is what the tablets share: it stands on the engine alone.
    "firmware_bridge.protocol": ("engine", "firmware_bridge.protocol"),
    "firmware_bridge.board": ("engine", "hardware", "firmware_bridge.protocol", "firmware_bridge.board"),
    "firmware_bridge.bot": ("engine", "firmware_bridge.bot"),
    # The referee seats the computer player (referee/computer_seat.py); the player knows no referee.
    "firmware_bridge.referee": ("engine", "hardware", "firmware_bridge.protocol", "firmware_bridge.board",
                                "firmware_bridge.bot", "firmware_bridge.referee"),
    "firmware_bridge.cli": ("engine", "hardware", "firmware_bridge"),
    "companion_app": ("companion_app",),
    # The app's own arrows: model <- net <- ui; i18n renders the model; `N_` (the gettext
    # marker in i18n.catalog, which imports nothing of ours) may mark texts anywhere.
    "companion_app.model": ("engine", "firmware_bridge.protocol", "companion_app.model",
                            "companion_app.i18n.catalog"),
    "companion_app.net": ("engine", "firmware_bridge.protocol", "companion_app.model", "companion_app.net",
                          "companion_app.i18n.catalog"),
    "companion_app.i18n": ("engine", "firmware_bridge.protocol", "companion_app.model", "companion_app.i18n"),
    "companion_app.ui": ("engine", "firmware_bridge.protocol", "companion_app.model", "companion_app.net",
                         "companion_app.i18n", "companion_app.ui"),
    # `arbiter demo` starts a referee and a simulated board beside the app.
    "companion_app.demo": ("engine", "hardware", "firmware_bridge", "companion_app"),
}
# The firmware's frame codec roots ProtocolError in the project's one error class under
# CPython, through an import MicroPython skips (try/except ImportError).
FIRMWARE_ERROR_ROOT = ("hardware.firmware.protocol", "engine.core.errors")
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


def sources() -> list[Path]:
    """Every source file of the four packages."""
    return [path for package in OURS for path in sorted((ROOT / package).rglob("*.py"))]


def all_imports() -> list[Import]:
    """The imports of every module in the four packages."""
    return [imp for path in sources() for imp in imports_of(path)]


def packages() -> list[str]:
    """Every package of ours: each folder with an __init__.py."""
    return sorted(module_name(path) for path in sources() if path.name == "__init__.py")


def within(target: str, prefixes: tuple[str, ...]) -> bool:
    """Whether `target` is one of `prefixes` or below one."""
    return any(target == prefix or target.startswith(prefix + ".") for prefix in prefixes)


def rule_for(module: str) -> tuple[str, ...]:
    """The prefixes `module` may import: the rule of the package it is in."""
    for prefix in sorted(ALLOWED, key=len, reverse=True):
        if within(module, (prefix,)):
            return ALLOWED[prefix]
    raise AssertionError(f"{module} is in no layer")


def wrong_way(imports: list[Import]) -> list[str]:
    """The imports that break the layering, as readable lines."""
    bad = []
    for imp in imports:
        allowed = rule_for(imp.module)
        if (imp.module, imp.target.rsplit(".", 1)[0]) == FIRMWARE_ERROR_ROOT or \
                (imp.module, imp.target) == FIRMWARE_ERROR_ROOT:
            continue
        # `from firmware_bridge import protocol` names a package above the allowed one.
        if not within(imp.target, allowed) and not any(a.startswith(imp.target + ".") for a in allowed):
            bad.append(f"{imp.module}:{imp.line} imports {imp.target}")
    return bad


def import_graph(imports: list[Import], modules: set[str]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (`from a.b import c`: a.b.c if it is a module,
    else a.b; a package is its __init__, unless the statement names a module inside it)."""
    statements: dict[tuple[str, int], set[str]] = {}
    for imp in imports:
        target = imp.target
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != imp.module:
            statements.setdefault((imp.module, imp.line), set()).add(target)
    graph: dict[str, set[str]] = {}
    for (module, _), targets in statements.items():
        # `from a import b` (b a module) is an arrow to a.b; a's __init__ is only the way there.
        named = {t for t in targets if not any(other.startswith(t + ".") for other in targets)}
        graph.setdefault(module, set()).update(named)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(frozenset(group))
    return found


def test_every_package_is_in_a_layer():
    assert [package for package in packages() if package not in ALLOWED] == []
    assert [package for package in ALLOWED if package not in packages()] == [], "a layer of no package"


def test_every_import_runs_the_one_way():
    assert wrong_way(all_imports()) == []


def test_no_files_import_each_other_in_a_cycle_not_even_for_types():
    modules = {module_name(path) for path in sources()}
    assert [sorted(group) for group in cycles(import_graph(all_imports(), modules))] == []


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
    ("engine.stratego.game", "engine.triumph.game", False),
    ("engine.stratego.game", "firmware_bridge.protocol.contract", False),
    ("hardware.sim.board", "engine", True),
    ("hardware.sim.board", "firmware_bridge.board.recognition", False),
    ("hardware.firmware.scanner", "hardware.firmware.protocol", True),
    ("hardware.firmware.scanner", "engine.core.errors", False),
    ("hardware.firmware.scanner", "hardware.profiles", False),
    ("hardware.firmware.protocol", "engine.core.errors", True),
    ("firmware_bridge.protocol.client", "firmware_bridge.referee.session", False),
    ("firmware_bridge.referee.session", "firmware_bridge.protocol.contract", True),
    ("firmware_bridge.board.recognition", "firmware_bridge.referee.session", False),
    ("firmware_bridge.referee.service", "firmware_bridge.cli.main", False),
    ("companion_app.ui.board", "firmware_bridge.protocol.contract", True),
    ("companion_app.ui.board", "firmware_bridge.referee.session", False),
    ("companion_app.net.network", "hardware.sim.board", False),
    ("companion_app.model.table", "companion_app.net.link", False),
    ("companion_app.model.table", "companion_app.ui.board", False),
    ("companion_app.net.network", "companion_app.ui.app_root", False),
    ("companion_app.net.network", "companion_app.model.table", True),
    ("companion_app.model.table", "companion_app.i18n.texts", False),
    ("companion_app.demo.system", "firmware_bridge.referee.service", True),
])
def test_the_checker_tells_a_wrong_arrow_from_a_right_one(module, target, expected_ok):
    assert (wrong_way([Import(module, target, 1, True)]) == []) is expected_ok


def test_a_package_in_no_layer_is_refused():
    with pytest.raises(AssertionError, match="in no layer"):
        rule_for("vendored.thing")
    assert "firmware_bridge.newthing" not in ALLOWED
    # A new firmware_bridge subpackage gets only the rule of firmware_bridge itself, not "anything".
    assert wrong_way([Import("firmware_bridge.newthing.x", "hardware.sim.board", 1, True)]) != []


def test_the_cycle_finder_sees_a_cycle_of_types_and_late_imports():
    graph = import_graph([Import("a.one", "a.two.Thing", 1, True, type_only=True),
                          Import("a.two", "a.three", 2, False), Import("a.three", "a.one", 3, True),
                          Import("a.four", "a.one", 4, True)],
                         {"a.one", "a.two", "a.three", "a.four"})
    assert cycles(graph) == [frozenset({"a.one", "a.two", "a.three"})]


def test_a_module_named_from_its_package_is_an_arrow_to_the_module_not_the_package():
    modules = {"p", "p.game", "p.pieces", "p.readings"}
    imports = [Import("p", "p.game", 1, True), Import("p", "p.game.Game", 1, True),
               Import("p.game", "p.pieces", 1, True), Import("p.game", "p.pieces.Piece", 1, True),
               Import("p.pieces", "p", 1, True), Import("p.pieces", "p.readings", 1, True)]  # from p import readings
    assert import_graph(imports, modules)["p.pieces"] == {"p.readings"}
    assert cycles(import_graph(imports, modules)) == []
    imports.append(Import("p.pieces", "p.Game", 2, True))  # from p import Game: through p's __init__
    assert cycles(import_graph(imports, modules)) == [frozenset({"p", "p.game", "p.pieces"})]
