"""Human-like setups: where people usually put their flag, bombs, officers, scouts and miners.

Not random setups: each piece goes on a square drawn from weights that follow how people set up.
Full armies (classic, Compact, the 8x8 game) follow our own reading of common play, not counted
from data (we had no collection of classic setups):
- the flag on the back row, mostly near a corner or an edge, with bombs on most of the squares
  beside it, and the other bombs spread as decoys and as barriers in front of the lakes;
- the Marshal and the General in the middle rows, the Spy touching the General;
- colonels and majors behind the front, captains, lieutenants and sergeants forward;
- miners kept back for the end game; scouts both on the front row and as fillers at the back;
- pieces of one kind spread over the width rather than side by side.
Rows are counted from the owner's back row ("depth" 0) and scaled to 3-row zones. Barrage and
Duel (a few pieces on a big zone) have their own table, counted from Barrage setups of the
Gravon archive (gravon.de).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import Variant

SUPPORTED = ("classic", "barrage", "duel", "compact", "strategy8")

# Weight of each depth (back row first) for a four-row zone; scaled for three rows.
_FULL_ROWS: dict[str, tuple[float, ...]] = {
    "flag": (0.92, 0.08, 0.0, 0.0),
    "bomb": (0.30, 0.35, 0.25, 0.10),
    "marshal": (0.03, 0.30, 0.47, 0.20),
    "general": (0.03, 0.32, 0.45, 0.20),
    "spy": (0.10, 0.45, 0.40, 0.05),
    "colonel": (0.08, 0.35, 0.37, 0.20),
    "major": (0.10, 0.30, 0.35, 0.25),
    "captain": (0.12, 0.25, 0.28, 0.35),
    "lieutenant": (0.12, 0.22, 0.28, 0.38),
    "sergeant": (0.15, 0.20, 0.28, 0.37),
    "miner": (0.42, 0.33, 0.15, 0.10),
    "scout": (0.28, 0.12, 0.12, 0.48),
}

# Barrage and Duel: eight or ten pieces on a 40-square zone. Row shares as counted on 120
# Barrage setups of the Gravon archive: officers mostly on the front row, the flag mostly on
# the back row yet one time in seven on the front row, miners and scouts front and back.
_SPARSE_ROWS: dict[str, tuple[float, ...]] = {
    "flag": (0.60, 0.19, 0.06, 0.15),
    "bomb": (0.52, 0.21, 0.10, 0.17),
    "marshal": (0.09, 0.13, 0.19, 0.59),
    "general": (0.10, 0.17, 0.15, 0.58),
    "spy": (0.13, 0.23, 0.15, 0.49),
    "miner": (0.27, 0.26, 0.10, 0.37),
    "scout": (0.27, 0.21, 0.18, 0.34),
}

# Placing order: the flag first, its guards next, the spy after the general it shadows.
_ORDER = ("flag", "general", "spy", "marshal", "bomb", "colonel", "major", "miner", "captain",
          "lieutenant", "sergeant", "scout")

# Chance that each further bomb goes beside the flag (the first: always in full setups; in
# Barrage only one flag in three has its bomb beside it).
_FLAG_GUARD_CHANCE = {"full": 0.85, "sparse": 0.34}
_SPY_BESIDE_GENERAL = {"full": 0.75, "sparse": 0.6}
_SAME_KIND_NEIGHBOUR = 0.45  # weight factor per orthogonal neighbour of the same kind


def human_setup(variant: Variant, color: Color, rng: random.Random) -> dict[str, str]:
    """A human-like legal setup for `color`: square name -> kind."""
    if variant.name not in SUPPORTED:
        raise ValueError(
            f"no human-like setups for {variant.name} (known: {', '.join(SUPPORTED)})")
    placer = _Placer(variant, Color(color), rng)
    placer.place_all()
    return {square.name: kind for square, kind in placer.board_setup().items()}


class _Placer:
    """Fills one zone piece by piece, in the owner's coordinates (depth 0 = back row)."""

    def __init__(self, variant: Variant, color: Color, rng: random.Random) -> None:
        self.variant = variant
        self.color = color
        self.rng = rng
        self.rows = variant.setup_rows
        self.width = variant.width
        self.style = "full" if variant.full_setup else "sparse"
        self.table = _FULL_ROWS if variant.full_setup else _SPARSE_ROWS
        self.free = [(f, d) for d in range(self.rows) for f in range(self.width)
                     if self._square(f, d) not in variant.lakes]
        self.placed: dict[tuple[int, int], str] = {}
        front = self.rows - 1
        # Front-row squares facing a lake: people like bombs there.
        self.shore = {(f, front) for f in range(self.width)
                      if self._beyond(f, front) in variant.lakes}

    def _square(self, file: int, depth: int) -> Square:
        if self.color is Color.RED:
            return Square(file, depth)
        return Square(self.variant.width - 1 - file, self.variant.height - 1 - depth)

    def _beyond(self, file: int, depth: int) -> Square:
        return self._square(file, depth + 1)

    def board_setup(self) -> dict[Square, str]:
        """The setup on the real board."""
        return {self._square(f, d): kind for (f, d), kind in self.placed.items()}

    def place_all(self) -> None:
        army = dict(self.variant.army)
        for kind in list(_ORDER) + [k for k in army if k not in _ORDER]:
            for _ in range(army.get(kind, 0)):
                self._place_one(kind)

    def _place_one(self, kind: str) -> None:
        if kind == "bomb" and self._guard_flag():
            return
        if kind == "spy" and self._shadow_general():
            return
        weights = [self._weight(kind, cell) for cell in self.free]
        self._put(kind, self._choose(self.free, weights))

    def _put(self, kind: str, cell: tuple[int, int]) -> None:
        self.free.remove(cell)
        self.placed[cell] = kind

    def _choose(self, cells: Sequence[tuple[int, int]], weights: Sequence[float]) -> tuple[int, int]:
        if sum(weights) <= 0:
            return self.rng.choice(list(cells))
        return self.rng.choices(list(cells), weights=weights)[0]

    def _depth_weight(self, kind: str, depth: int) -> float:
        table = self.table.get(kind, (0.25, 0.25, 0.25, 0.25))
        if self.rows == len(table):
            return table[depth]
        # Scale the four-row habits onto this zone by the row's relative depth.
        position = depth * (len(table) - 1) / max(1, self.rows - 1)
        low = int(position)
        high = min(low + 1, len(table) - 1)
        share = position - low
        return table[low] * (1 - share) + table[high] * share

    def _weight(self, kind: str, cell: tuple[int, int]) -> float:
        file, depth = cell
        weight = self._depth_weight(kind, depth)
        if kind == "flag":
            edge = min(file, self.width - 1 - file)
            weight *= (3.0, 2.0, 1.3)[edge] if edge < 3 else 1.0
        elif kind == "bomb" and cell in self.shore:
            weight += 0.25
        if kind not in ("bomb", "scout") and self.style == "full":
            for neighbour in self._neighbours(cell):
                if self.placed.get(neighbour) == kind:
                    weight *= _SAME_KIND_NEIGHBOUR
        return weight

    def _neighbours(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        file, depth = cell
        around = [(file - 1, depth), (file + 1, depth), (file, depth - 1), (file, depth + 1)]
        return [(f, d) for f, d in around if 0 <= f < self.width and 0 <= d < self.rows]

    def _guard_flag(self) -> bool:
        """Put a bomb beside the flag (not always on every side: some flags stand open)."""
        flag = next((cell for cell, kind in self.placed.items() if kind == "flag"), None)
        if flag is None:
            return False
        open_sides = [cell for cell in self._neighbours(flag) if cell in self.free]
        if not open_sides:
            return False
        guarded = sum(1 for cell in self._neighbours(flag) if self.placed.get(cell) == "bomb")
        if (guarded or self.style == "sparse") and self.rng.random() > _FLAG_GUARD_CHANCE[self.style]:
            return False
        # In front of the flag first, then beside it.
        open_sides.sort(key=lambda cell: -cell[1])
        self._put("bomb", open_sides[0] if self.rng.random() < 0.6 else self.rng.choice(open_sides))
        return True

    def _shadow_general(self) -> bool:
        """Put the Spy on a square touching the General (behind or beside it)."""
        if self.rng.random() > _SPY_BESIDE_GENERAL[self.style]:
            return False
        general = next((cell for cell, kind in self.placed.items() if kind == "general"), None)
        if general is None:
            return False
        gf, gd = general
        near = [(f, d) for f, d in self.free if abs(f - gf) <= 1 and abs(d - gd) <= 1 and d <= gd]
        if not near:
            return False
        self._put("spy", self.rng.choice(near))
        return True
