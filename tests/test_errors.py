"""Every error class of ours derives from `engine.core.errors.ArbiterError` and carries a code.

The test reads every module of the four packages. Modules that can be imported in a plain test
process are imported and every exception class defined in them is checked as Python sees it.
The Kivy screens (they need a display) and the scanner's MicroPython entry point are checked
from their source: a class there whose base looks like an exception is reported.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
from pathlib import Path

import pytest

from engine.core.errors import ArbiterError
from engine.core.refusals import Refusal

ROOT = Path(__file__).resolve().parents[1]
OURS = ("engine", "hardware", "firmware_bridge", "companion_app")
# Modules that import these at module level cannot be imported here: a display, a microcontroller.
NOT_HERE = ("kivy", "machine", "micropython", "neopixel")


def module_name(path: Path) -> str:
    """`firmware_bridge/board/sources.py` -> `firmware_bridge.board.sources`."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, ast.Module]:
    """Every module of ours, parsed."""
    return {module_name(path): ast.parse(path.read_text(encoding="utf-8"))
            for package in OURS for path in sorted((ROOT / package).rglob("*.py"))}


def top_level_imports(tree: ast.Module) -> set[str]:
    """The modules a source imports when it is loaded (not inside functions)."""
    found: set[str] = set()
    for node in tree.body:
        for child in ast.walk(node) if isinstance(node, (ast.If, ast.Try)) else (node,):
            if isinstance(child, ast.Import):
                found |= {alias.name for alias in child.names}
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found |= {child.module} | {f"{child.module}.{alias.name}" for alias in child.names}
    return found


def importable(trees: dict[str, ast.Module]) -> set[str]:
    """The modules that load neither Kivy nor MicroPython's modules, directly or through ours."""
    imports = {name: top_level_imports(tree) for name, tree in trees.items()}
    blocked = {name for name, targets in imports.items()
               if any(t.split(".")[0] in NOT_HERE for t in targets)}
    changed = True
    while changed:
        changed = False
        for name, targets in imports.items():
            if name not in blocked and targets & blocked:
                blocked.add(name)
                changed = True
    return set(trees) - blocked


def looks_like_an_error(base: str, error_names: set[str]) -> bool:
    """A base class name that is an exception: a builtin one, one of ours, or named like one."""
    name = base.split(".")[-1]
    builtin = getattr(builtins, name, None)
    return (name in error_names or name.endswith(("Error", "Exception"))
            or (inspect.isclass(builtin) and issubclass(builtin, BaseException)))


def error_classes_in_source(trees: dict[str, ast.Module]) -> dict[str, list[str]]:
    """Module -> names of the classes whose bases look like exceptions (names followed across modules)."""
    classes = [(module, node) for module, tree in trees.items()
               for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    error_names: set[str] = set()
    changed = True
    while changed:
        changed = False
        for _, node in classes:
            if node.name not in error_names and any(
                    looks_like_an_error(ast.unparse(base), error_names) for base in node.bases):
                error_names.add(node.name)
                changed = True
    found: dict[str, list[str]] = {}
    for module, node in classes:
        if node.name in error_names:
            found.setdefault(module, []).append(node.name)
    return found


def error_classes_imported(modules: set[str]) -> dict[str, type[BaseException]]:
    """Every exception class defined in the importable modules, by qualified name."""
    found: dict[str, type[BaseException]] = {}
    for module in sorted(modules):
        namespace = importlib.import_module(module)
        for name, value in vars(namespace).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == module):
                found[f"{module}.{name}"] = value
    return found


TREES = sources()
IMPORTABLE = importable(TREES)
IMPORTED = error_classes_imported(IMPORTABLE)


def test_the_walk_sees_our_errors():
    # A walk that found nothing would pass every check below.
    expected = {"engine.core.refusals.IllegalMove", "engine.core.errors.RecordError", "engine.stratego.gravon.GravonError",
                "engine.stratego.variants.VariantError", "hardware.profiles.ProfileError",
                "hardware.firmware.protocol.ProtocolError", "firmware_bridge.protocol.contract.ContractError",
                "firmware_bridge.protocol.crypto.CryptoError", "firmware_bridge.referee.config.ConfigError",
                "firmware_bridge.referee.session_core.CommandError"}
    assert expected <= set(IMPORTED)
    assert "companion_app.ui.app_root" in TREES and "companion_app.ui.app_root" not in IMPORTABLE


@pytest.mark.parametrize("name", sorted(IMPORTED))
def test_every_error_class_derives_from_arbiter_error_and_has_a_code(name):
    error = IMPORTED[name]
    assert issubclass(error, ArbiterError), f"{name} does not derive from ArbiterError"
    assert isinstance(error.code, str) and error.code, f"{name} has no code"
    if error is not ArbiterError:
        assert error.code != ArbiterError.code, f"{name} keeps the root's generic code"


def test_modules_that_cannot_be_imported_here_define_no_error_classes():
    # The Kivy screens and the MicroPython entry point: an error class there could not be
    # checked above, so it belongs in a module that can.
    unchecked = {module: names for module, names in error_classes_in_source(TREES).items()
                 if module not in IMPORTABLE}
    assert unchecked == {}


@pytest.mark.parametrize("name", ["ContractError", "CryptoError", "ConfigError", "CommandError",
                                  "ProfileError", "ProtocolError", "VariantError", "IllegalMove"])
def test_an_error_carries_its_code_and_its_message(name):
    error_class = next(error for qualified, error in IMPORTED.items() if qualified.endswith("." + name))
    if name == "IllegalMove":
        error = error_class(Refusal("movement", "a bomb cannot move"))
    elif name == "CommandError":
        error = error_class("not-your-turn", "it is Blue's turn")  # the session's own order
    else:
        error = error_class("a bomb cannot move")
    assert error.to_dict() == {"code": error.code, "message": str(error)}
    assert error.message == str(error) and error.code
