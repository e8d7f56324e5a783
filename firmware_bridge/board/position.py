"""What the physical board must show after the referee's last ruling: the recogniser's only input.

The session owns the game and is its only writer; after each ruling it hands the board reader an
:class:`ExpectedPosition`: which piece stands where (its id, its side, whether it is a scout),
whose turn it is, the volcanoes, and where each piece of the side to move may go now. The
recogniser reads moves against it and never sees the game itself, so it cannot rule: it reports
the move it saw and the session rules on it.

``reach`` is the engine's own list of legal moves (``Game.legal_moves``), taken once per ruling.
The recogniser uses it only to decide how long to wait before reporting a move: a move the rules
allow is reported as soon as the board settles, any other one only once the board has held still
for a while (a hand may still be on its way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine import Color, Game, Move, Square


@dataclass(frozen=True)
class Placed:
    """A piece as the board reader knows it: which piece (never its rank), whose, and a scout or not."""

    id: int
    color: Color
    scout: bool = False


@dataclass(frozen=True)
class ExpectedPosition:
    """The board as the last ruling left it, and the moves the side to move may make next."""

    pieces: Mapping[Square, Placed]
    to_move: Color
    reach: Mapping[Square, frozenset[Square]] = field(default_factory=dict)
    volcanoes: tuple[Square, ...] = ()
    game: str = ""  # the game it belongs to: a new game starts a new recogniser

    @classmethod
    def of(cls, game: Game, game_id: str = "") -> ExpectedPosition:
        """The position of ``game`` as the board must show it (read once, after a ruling)."""
        kinds = game.variant.kinds
        reach: dict[Square, set[Square]] = {}
        for move in game.legal_moves():
            reach.setdefault(move.origin, set()).add(move.target)
        return cls({square: Placed(piece.id, piece.color, kinds[piece.kind].scout)
                    for square, piece in game.pieces()},
                   game.to_move, {origin: frozenset(targets) for origin, targets in reach.items()},
                   tuple(game.volcanoes), game_id)

    def piece_at(self, square: Square) -> Placed | None:
        """The piece the board must hold on ``square``, or None."""
        return self.pieces.get(square)

    def allows(self, move: Move) -> bool:
        """True when the rules let the side to move make ``move`` now."""
        return move.target in self.reach.get(move.origin, ())

    def occupied(self) -> frozenset[Square]:
        """The squares that must hold a piece."""
        return frozenset(self.pieces)
