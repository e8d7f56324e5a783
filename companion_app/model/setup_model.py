"""A setup being arranged on the tablet: counts, what is still wrong, and saved named setups."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from engine import (
    Color,
    Square,
    get_variant,
    named_setup,
    named_setups,
    random_setup,
    validate_setup,
)

BUILT_IN = "★ "  # marks the well-known setups shipped with the engine in the load list


def app_home() -> Path:
    """Where the app keeps its files (saved setups, exported records, settings)."""
    home = os.environ.get("ARBITER_APP_HOME")
    if home:
        return Path(home)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "arbiter"


def flag_is_sheltered(variant_name: str, color: str, setup: dict[str, str]) -> bool:
    """True when the flag stands on the owner's two back rows and, in an army that fills its zone,
    a bomb touches it; True too for an army without a flag (Espionage's headquarters)."""
    variant = get_variant(variant_name)
    flag = next((Square.parse(name) for name, kind in setup.items() if kind == "flag"), None)
    if flag is None:
        return True
    depth = flag.rank if color == "red" else variant.height - 1 - flag.rank
    if depth > 1:
        return False
    if not variant.full_setup:
        return True
    beside = {(flag.file + df, flag.rank + dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    return any(kind == "bomb" and (sq.file, sq.rank) in beside
               for sq, kind in ((Square.parse(name), kind) for name, kind in setup.items()))


def sensible_setup(variant_name: str, color: str, rng: random.Random) -> dict[str, str]:
    """A human-like setup (engine.stratego.notebook.human_setups) with the flag at the back and
    guarded; a random legal one for a variant without such a library."""
    from engine.stratego.notebook.human_setups import SUPPORTED, human_setup

    variant = get_variant(variant_name)
    if variant.name not in SUPPORTED:
        return {sq.name: kind for sq, kind in random_setup(variant, Color(color), rng).items()}
    setup = human_setup(variant, Color(color), rng)
    for _ in range(50):  # people do put a Barrage flag in front; a one-tap army does not
        if flag_is_sheltered(variant.name, color, setup):
            break
        setup = human_setup(variant, Color(color), rng)
    return setup


class SetupDraft:
    """One player's setup while it is being arranged; squares by name, kinds by engine name."""

    def __init__(self, variant_name: str, color: str):
        self.variant = get_variant(variant_name)
        self.color = color
        self.zone: tuple[str, ...] = tuple(sq.name for sq in self.variant.zone(Color(color)))
        self.placed: dict[str, str] = {}

    def army(self) -> dict[str, int]:
        """How many of each kind the army has."""
        return dict(self.variant.army)

    def remaining(self) -> dict[str, int]:
        """How many of each kind are still in the tray."""
        left = self.army()
        for kind in self.placed.values():
            left[kind] = left.get(kind, 0) - 1
        return left

    def place(self, square: str, kind: str) -> bool:
        """Put a piece from the tray on a zone square (replacing what was there)."""
        if square not in self.zone or self.remaining().get(kind, 0) <= 0:
            return False
        self.placed[square] = kind
        return True

    def move(self, origin: str, target: str | None) -> None:
        """Drag a placed piece: onto another zone square (swapping), or off the zone (back to the tray)."""
        if origin not in self.placed:
            return
        if target is None or target not in self.zone:
            del self.placed[origin]
            return
        moving = self.placed.pop(origin)
        if target in self.placed:
            self.placed[origin] = self.placed[target]
        self.placed[target] = moving

    def remove(self, square: str) -> None:
        """Take a piece back to the tray."""
        self.placed.pop(square, None)

    def clear(self) -> None:
        """Empty the zone."""
        self.placed = {}

    def randomize(self, rng: random.Random | None = None) -> None:
        """A sensible army at one tap: a human-like setup (the computer's library), flag at the back."""
        self.placed = sensible_setup(self.variant.name, self.color, rng or random.Random())

    def problems(self, tr) -> list[str]:
        """What is still wrong, in words a child understands; [] when ready to submit."""
        out: list[str] = []
        for kind, left in self.remaining().items():
            name = tr.kind_name(kind)
            if left > 0:
                out.append(tr("Place {count} more: {kind}").format(count=left, kind=name))
            elif left < 0:
                out.append(tr("Too many: {kind} ({count} extra)").format(count=-left, kind=name))
        empty = [sq for sq in self.zone if sq not in self.placed]
        if not out and empty and self.variant.full_setup:
            out.append(tr("Every square of your zone must be filled"))
        if not out:
            # The engine has the last word; its message is shown as it is.
            out += validate_setup(self.variant, Color(self.color), self.engine_setup())
        return out

    def engine_setup(self) -> dict[Square, str]:
        """The setup in the engine's form."""
        return {Square.parse(sq): kind for sq, kind in self.placed.items()}

    # Saved setups are stored from the owner's side (rows from the back, files from the owner's
    # left), so a setup saved while playing Red works when playing Blue.
    def relative(self) -> dict[str, str]:
        """The setup as owner-relative "file,row" keys."""
        return {self._to_relative(sq): kind for sq, kind in self.placed.items()}

    def load_relative(self, data: dict[str, str]) -> None:
        """Replace the setup with a saved owner-relative one."""
        self.placed = {self._from_relative(key): kind for key, kind in data.items()}
        self.placed = {sq: k for sq, k in self.placed.items() if sq in self.zone}

    def _to_relative(self, name: str) -> str:
        sq = Square.parse(name)
        if self.color == "blue":
            return f"{self.variant.width - 1 - sq.file},{self.variant.height - 1 - sq.rank}"
        return f"{sq.file},{sq.rank}"

    def _from_relative(self, key: str) -> str:
        file, rank = (int(v) for v in key.split(","))
        if self.color == "blue":
            file, rank = self.variant.width - 1 - file, self.variant.height - 1 - rank
        return Square(file, rank).name


class SetupStore:
    """Named setups saved on the tablet, per variant, in one JSON file."""

    def __init__(self, path: Path | None = None):
        self.path = path or app_home() / "setups.json"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def names(self, variant: str) -> list[str]:
        """Saved setup names for a variant, sorted, then the engine's well-known ones (marked ★)."""
        built_in = [BUILT_IN + name for name in named_setups(get_variant(variant))]
        return sorted(self._read().get(variant, {})) + built_in

    def save(self, name: str, draft: SetupDraft) -> None:
        """Save (or overwrite) a named setup."""
        data = self._read()
        data.setdefault(draft.variant.name, {})[name] = draft.relative()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(self.path)

    def load(self, name: str, draft: SetupDraft) -> bool:
        """Load a named setup into a draft; False when there is none by that name."""
        if name.startswith(BUILT_IN):
            try:
                setup = named_setup(draft.variant, Color(draft.color), name[len(BUILT_IN):])
            except ValueError:
                return False
            draft.placed = {sq.name: kind for sq, kind in setup.items()}
            return True
        saved = self._read().get(draft.variant.name, {}).get(name)
        if not isinstance(saved, dict):
            return False
        draft.load_relative(saved)
        return True
