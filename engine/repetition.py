"""The repetition rules: the two-squares rule (ISF 10) and the more-squares rule (ISF 11).

Both are checked in constant time per move, whatever the length of the game: the two-squares
rule keeps one run per player, the more-squares rule keeps the positions of the current chase.
The game calls `refusal` before a move, `record` after it and `undo` when the move is taken back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.pieces import Color, Piece
from engine.results import Refusal

if TYPE_CHECKING:
    from engine.game import Game


@dataclass(frozen=True, slots=True)
class ShuffleRun:
    """A player's current back-and-forth: which piece, the squares its first move covered, how often."""

    piece_id: int
    squares: frozenset[int]
    count: int


class RepetitionRules:
    """The repetition rules of one game, with their state."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.limit = game.variant.two_squares_limit
        self.runs: dict[Color, ShuffleRun | None] = {Color.RED: None, Color.BLUE: None}

    def _segment(self, origin: int, target: int) -> frozenset[int]:
        width = self.game.geometry.width
        low, high = min(origin, target), max(origin, target)
        step = 1 if origin // width == target // width else width
        return frozenset(range(low, high + 1, step))

    def _continues(self, run: ShuffleRun | None, piece: Piece, origin: int, target: int) -> bool:
        return run is not None and run.piece_id == piece.id and origin in run.squares and target in run.squares

    def refusal(self, piece: Piece, origin: int, target: int, attack: bool) -> Refusal | None:
        """Why the rules of repetition forbid this move, or None."""
        if self.limit is not None:
            run = self.runs[piece.color]
            if self._continues(run, piece, origin, target) and run.count >= self.limit:  # type: ignore[union-attr]
                return Refusal(
                    "two-squares",
                    f"this piece may not move between the same squares more than {self.limit} times in a row",
                )
        return None

    def record(self, piece: Piece, origin: int, target: int, attack: bool) -> object:
        """Update the rules' state after a move; returns what `undo` needs."""
        run = self.runs[piece.color]
        token = (piece.color, run)
        if self._continues(run, piece, origin, target):
            assert run is not None
            self.runs[piece.color] = ShuffleRun(run.piece_id, run.squares, run.count + 1)
        else:
            self.runs[piece.color] = ShuffleRun(piece.id, self._segment(origin, target), 1)
        return token

    def undo(self, token: object) -> None:
        """Restore the state from before the move that returned `token`."""
        color, run = token  # type: ignore[misc]
        self.runs[color] = run

    def moves_left_in_run(self, color: Color) -> int | None:
        """How many more moves the current back-and-forth of `color` may have (for warnings)."""
        run = self.runs[color]
        if self.limit is None or run is None:
            return None
        return self.limit - run.count
