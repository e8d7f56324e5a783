"""A family's own variants: TOML files in the user's variants folder, registered at start.

Looked up in `$ARBITER_VARIANTS` (folders or files, separated by ':') and in
`~/.config/arbiter/variants/`. Each file is one variant as `engine.variant_from_toml` reads it.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine import register_variant, variant_from_toml
from engine.stratego.variants import Variant


def variant_paths() -> list[Path]:
    """Every variant file the user has put where Arbiter looks."""
    places = [Path(p) for p in os.environ.get("ARBITER_VARIANTS", "").split(os.pathsep) if p]
    config_home = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config"))
    places.append(config_home / "arbiter" / "variants")
    files: list[Path] = []
    for place in places:
        if place.is_dir():
            files += sorted(place.glob("*.toml"))
        elif place.is_file():
            files.append(place)
    return files


def load_variant_file(path: Path) -> Variant:
    """Read, check and register one variant file; ValueError names the file and the fault."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot read: {error}") from None
    try:
        variant = variant_from_toml(text)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    register_variant(variant)
    return variant


def load_user_variants() -> tuple[list[Variant], list[str]]:
    """Register every user variant; returns those loaded and a message per broken file."""
    loaded, problems = [], []
    for path in variant_paths():
        try:
            loaded.append(load_variant_file(path))
        except ValueError as error:
            problems.append(str(error))
    return loaded, problems
