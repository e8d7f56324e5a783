"""Squares and moves in the project's chess-style notation ("a1", "a4-a5")."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SQUARE_PATTERN = re.compile(r"^([a-z])([1-9][0-9]?)$")


@dataclass(frozen=True, slots=True, order=True)
class Square:
    """A square: file 0 is `a` on Red's left, rank 0 is `1` on Red's back row."""

    file: int
    rank: int

    @classmethod
    def parse(cls, text: str) -> Square:
        """Read a square such as "a1" or "j10"."""
        match = _SQUARE_PATTERN.match(text.strip().lower()) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"not a square: {text!r}")
        return cls(ord(match.group(1)) - ord("a"), int(match.group(2)) - 1)

    @property
    def name(self) -> str:
        """The square's name, e.g. "e4"."""
        return f"{chr(ord('a') + self.file)}{self.rank + 1}"

    def __str__(self) -> str:
        return self.name

    def distance(self, other: Square) -> int:
        """Steps between two squares for a piece moving orthogonally (Manhattan distance)."""
        return abs(self.file - other.file) + abs(self.rank - other.rank)

    def touches(self, other: Square) -> bool:
        """True when the squares are neighbours orthogonally or diagonally."""
        return self != other and abs(self.file - other.file) <= 1 and abs(self.rank - other.rank) <= 1


@dataclass(frozen=True, slots=True)
class Move:
    """A move from one square to another; an attack is a move onto an enemy piece."""

    origin: Square
    target: Square

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move such as "a4-a5" (an "x" for an attack is accepted too)."""
        if not isinstance(text, str):
            raise ValueError(f"not a move: {text!r}")
        parts = re.split(r"[-x:]", text.strip().lower())
        if len(parts) != 2:
            raise ValueError(f"not a move: {text!r} (expected the form a4-a5)")
        return cls(Square.parse(parts[0]), Square.parse(parts[1]))

    @property
    def name(self) -> str:
        """The move in record notation, e.g. "a4-a5"."""
        return f"{self.origin.name}-{self.target.name}"

    def __str__(self) -> str:
        return self.name

    def squares_between(self) -> list[Square]:
        """The squares a straight move passes over, excluding both ends."""
        df = (self.target.file > self.origin.file) - (self.target.file < self.origin.file)
        dr = (self.target.rank > self.origin.rank) - (self.target.rank < self.origin.rank)
        if df and dr:
            return []
        between = []
        square = Square(self.origin.file + df, self.origin.rank + dr)
        while square != self.target:
            between.append(square)
            square = Square(square.file + df, square.rank + dr)
        return between
