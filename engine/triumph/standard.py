"""The standard set-up of each side for the 2 December scenario, offered as a starting point.

Tablets offer it as "the standard set-up": a valid deployment the player may change before
sending it. Every corps stands in its set-up locale (RB 6); the French place two detachments and
the fixed battery on Lannes' approach to 63.
"""

from __future__ import annotations

from typing import Any

from engine.triumph.errors import TriumphError
from engine.triumph.pieces import ALLIED, FRENCH

SHORT = {"I": "infantry", "C": "cavalry", "A": "artillery", "G": "infantry"}

# corps: (set-up position or None for a reinforcement, faces written "I3", "C2", "A1", "G3")
FRENCH_CORPS: dict[str, tuple[str | None, str]] = {
    "Bessières": ("R53", "G3 G3 C3 C3"),
    "Murat": ("R63", "C3 C2 C2 C2"),
    "Lannes": ("R64", "I3 I3 I2 I2 A1"),
    "Vandamme": ("R72", "I3 I2 I2 I2 A1"),
    "St. Hilaire": ("R93", "I3 I2 I2 I2"),
    "Legrand": ("R133", "I2 I2 I2"),
    "Bernadotte": (None, "I3 I2 I2 C2"),
    "Davout": (None, "I3 I2 I2 C2"),
}
# (id, face, corps it came out of, where it stands)
FRENCH_DETACHED: list[tuple[str, str, str, str]] = [
    ("fb", "A1", "Lannes", "64>63"), ("fd1", "I3", "Lannes", "R65"),
    ("fd2", "I2", "Vandamme", "R71")]
FRENCH_BATTERY = "fb"

ALLIED_CORPS: dict[str, tuple[str | None, str]] = {
    "Bagration": ("R67", "C2 C2 C2 I2 I2 I2"),
    "Constantine": ("R87", "G3 G3 G3 C3 C3"),
    "Dokhturov": ("R121", "I3 I2 I2 I2 A1"),
    "Kienmayer": ("R143", "C1 C1 C1 I2"),
    "Kollowrath": ("R112", "I3 I2 I2 I2 A1"),
    "Langeron": ("R106", "I3 I2 I2 I2 I1"),
    "Liechtenstein": ("R123", "C2 C2 C2 I1"),
    "Miloradovich": ("R96", "I3 I2 I2 I2 A1"),
    "Prebyshevsky": ("R108", "I3 I2 I2 I2 A1"),
}


def face(code: str) -> dict[str, Any]:
    """A face written "I3", "C2", "A1" or "G3" (Guard infantry)."""
    return {"type": SHORT[code[0]], "strength": int(code[1]), "guard": code[0] == "G"}


def side_setup(side: str, corps: dict[str, tuple[str | None, str]],
               detached: list[tuple[str, str, str, str]], battery: str | None
               ) -> dict[str, Any]:
    """A set-up object from corps written as (position, faces) and detachments."""
    units: list[dict[str, Any]] = []
    for name, (at, faces) in corps.items():
        for number, code in enumerate(faces.split()):
            uid = f"{side[0]}-{name[:4].lower()}-{number}"
            units.append({"id": uid, **face(code), "commander": name, "at": at})
    for uid, code, origin, at in detached:
        units.append({"id": uid, **face(code), "from": origin, "at": at})
    return {"commanders": {name: at for name, (at, _) in corps.items()}, "units": units,
            "fixed_battery": battery}


def standard_setup(side: str) -> dict[str, Any]:
    """A fresh, valid set-up object for "french" or "allied" (setup.py format)."""
    if side == FRENCH:
        return side_setup(FRENCH, FRENCH_CORPS, FRENCH_DETACHED, FRENCH_BATTERY)
    if side == ALLIED:
        setup = side_setup(ALLIED, ALLIED_CORPS, [], None)
        del setup["fixed_battery"]
        return setup
    raise TriumphError(f"no side {side!r} (french or allied)", "nt-setup")
