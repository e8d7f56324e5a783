"""A library of real setups: what a square holds, given what the enemy showed on other squares.

A prior per square forgets that a setup is one whole: what stood on some squares tells what
the others hold (a bomb shown beside a back corner makes the flag in that corner likelier).
The library keeps whole setups people made (a sample of the Gravon archive's classic games),
weighs each by how well it agrees with what the enemy has shown where its pieces started (a
kind, or a first move: no bomb or flag), and reads each square's kinds off the weighted setups.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from engine.stratego.notebook import gravon_classic
from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import Variant

# Each thing shown that a setup disagrees with multiplies its weight by this: soft, because no
# sampled setup is the enemy's own; 0.1 trusted the nearest setups too much in measured games.
MISMATCH = 3 / 7  # a 0.3 chance of disagreeing, against 0.7 of agreeing
# Share of the library's reading at a square; the rest is the per-square prior.
LIBRARY_SHARE = 0.7
MOVED = ""  # an observation: the piece that started there moved (so no bomb or flag)


@dataclass
class SetupLibrary:
    """Whole setups of one variant in the owner's coordinates (depth x width + file); shared by
    every notebook of the variant, so nothing in it changes after it is built."""

    variant: Variant
    setups: list[tuple[str, ...]]
    _immobile: frozenset[str] = field(init=False)
    _holders: list[dict[str, list[int]]] = field(init=False)  # by index: kind -> setups with it there

    def __post_init__(self) -> None:
        self._immobile = frozenset(k for k, kind in self.variant.kinds.items() if not kind.mobile)
        size = len(self.variant.zone(Color.RED))
        self._holders = [{} for _ in range(size)]
        for number, setup in enumerate(self.setups):
            for index, kind in enumerate(setup):
                self._holders[index].setdefault(kind, []).append(number)

    @classmethod
    def classic(cls, variant: Variant) -> SetupLibrary:
        """The archive's sample, each setup also mirrored left to right."""
        return _classic_library(variant)

    def index(self, color: Color, square: str) -> int | None:
        """A square of `color`'s zone in that side's own coordinates (None: outside the zone,
        as in a game started from a position rather than from setups)."""
        return owner_index(self.variant, color, Square.parse(square))

    def reading(self, shown: Iterable[tuple[int, str]]) -> list[dict[str, float]]:
        """Kind -> probability at each index, given (index, kind or MOVED) observations."""
        key = frozenset(shown)
        agreements = [0] * len(self.setups)
        for index, kind in key:
            holders = self._holders[index]
            kinds = [k for k in holders if k not in self._immobile] if kind == MOVED else [kind]
            for agreeing in kinds:
                for number in holders.get(agreeing, ()):
                    agreements[number] += 1
        weights = [MISMATCH ** (len(key) - agreed) for agreed in agreements]
        total = sum(weights)
        return [
            {kind: sum(map(weights.__getitem__, numbers)) / total for kind, numbers in holders.items()}
            for holders in self._holders
        ]


def owner_index(variant: Variant, color: Color, square: Square) -> int | None:
    """`square` in `color`'s own coordinates, depth (0: its back row) x width + file (0: its
    left); None outside its setup rows."""
    depth = square.rank if color is Color.RED else variant.height - 1 - square.rank
    if not 0 <= depth < variant.setup_rows:
        return None
    file = square.file if color is Color.RED else variant.width - 1 - square.file
    return depth * variant.width + file


@lru_cache(maxsize=2)
def _classic_library(variant: Variant) -> SetupLibrary:
    width = variant.width
    setups: list[tuple[str, ...]] = []
    for letters in gravon_classic.SAMPLE:
        kinds = tuple(gravon_classic.KINDS[letter] for letter in letters)
        rows = [kinds[start:start + width] for start in range(0, len(kinds), width)]
        setups.append(kinds)
        setups.append(tuple(kind for row in rows for kind in reversed(row)))
    return SetupLibrary(variant, setups)

