"""Colours, piece kinds (a variant's piece powers) and pieces on the board."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Color(StrEnum):
    """The two sides. Red moves first."""

    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> Color:
        """The opponent."""
        return Color.BLUE if self is Color.RED else Color.RED

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class PieceKind:
    """What a kind of piece can do. Rank orders soldiers; specials are named by the variant."""

    name: str
    rank: int | None = None  # strength in combat; None for bombs, flags, mines, headquarters
    mobile: bool = True
    scout: bool = False  # moves any distance in a straight line
    points: int = 0  # material value shown in the captured tray (de Boer's "Strategy" rules)
    old_rank: int | None = None  # the numbering of older sets (Marshal = 1), for display only
    symbol: str = "?"  # one character in setup notation and terminal boards


@dataclass(frozen=True, slots=True)
class Piece:
    """One physical piece. Ids follow the squares of the setup, never the ranks."""

    id: int
    color: Color
    kind: str
