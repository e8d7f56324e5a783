"""Precomputed board geometry: square indices, neighbours, scout rays, hash keys."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import Variant

_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))


@dataclass(frozen=True)
class Geometry:
    """One board's squares as indices, with everything move generation looks up."""

    width: int
    height: int
    squares: tuple[Square, ...]
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal, enterable squares
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # per direction, enterable squares until blocked
    touching: tuple[tuple[int, ...], ...]  # all eight neighbours on the board
    keys: dict[tuple[Color, str], tuple[int, ...]]
    side_key: int

    @property
    def size(self) -> int:
        """Number of squares, lakes included."""
        return self.width * self.height

    def index(self, square: Square) -> int:
        """The index of a square on this board."""
        return square.rank * self.width + square.file

    def piece_key(self, color: Color, kind: str, index: int) -> int:
        """The Zobrist key of a kind of piece on a square (same kinds hash the same)."""
        return self.keys[(color, kind)][index]


def geometry_for(variant: Variant, volcanoes: frozenset[Square] = frozenset()) -> Geometry:
    """The geometry of a variant's board with its lakes and this game's volcanoes."""
    return _build(variant.width, variant.height, variant.lakes | volcanoes, tuple(variant.kinds))


@lru_cache(maxsize=64)
def _build(width: int, height: int, blocked: frozenset[Square], kinds: tuple[str, ...]) -> Geometry:
    squares = tuple(Square(f, r) for r in range(height) for f in range(width))

    def enterable(file: int, rank: int) -> bool:
        return 0 <= file < width and 0 <= rank < height and Square(file, rank) not in blocked

    neighbours = []
    rays = []
    touching = []
    for square in squares:
        neighbours.append(tuple(
            (square.rank + dr) * width + square.file + df
            for df, dr in _DIRECTIONS if enterable(square.file + df, square.rank + dr)
        ))
        square_rays = []
        for df, dr in _DIRECTIONS:
            ray = []
            file, rank = square.file + df, square.rank + dr
            while enterable(file, rank):
                ray.append(rank * width + file)
                file, rank = file + df, rank + dr
            if ray:
                square_rays.append(tuple(ray))
        rays.append(tuple(square_rays))
        touching.append(tuple(
            (square.rank + dr) * width + square.file + df
            for dr in (-1, 0, 1) for df in (-1, 0, 1)
            if (df or dr) and 0 <= square.file + df < width and 0 <= square.rank + dr < height
        ))
    # A fixed seed: hashes are the same in every process, so journals and tests can compare them.
    rng = random.Random(0x5712A7E60)
    keys = {
        (color, kind): tuple(rng.getrandbits(64) for _ in squares)
        for color in Color for kind in sorted(kinds)
    }
    return Geometry(width, height, squares, tuple(neighbours), tuple(rays), tuple(touching),
                    keys, rng.getrandbits(64))
