"""Two valid 2 December set-ups written as the tablets send them, for the set-up tests.

They are the engine's standard set-ups (engine/triumph/standard.py); the names stay here so that
the tests read as before.
"""

from __future__ import annotations

from typing import Any

from engine.triumph.standard import (
    ALLIED_CORPS,
    FRENCH_CORPS,
    FRENCH_DETACHED,
    SHORT,
    face,
    side_setup,
    standard_setup,
)

__all__ = ["ALLIED_CORPS", "FRENCH_CORPS", "FRENCH_DETACHED", "SHORT", "allied_setup", "face",
           "french_setup", "side_setup"]


def french_setup() -> dict[str, Any]:
    """A valid French set-up: two detachments and the fixed battery on Lannes' approach to 63."""
    return standard_setup("french")


def allied_setup() -> dict[str, Any]:
    """A valid Allied set-up (every corps whole in its set-up locale)."""
    return standard_setup("allied")
