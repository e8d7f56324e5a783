"""Reading a board nobody watched: the one move it may show since the last ruling.

When the referee was down (a crash, a power cut) or the scanner's cable was out, the hands may
have gone on. The board is then compared with the position of the last ruling once, before moves
are read again. If the difference is exactly one move of the side to move that the rules allow,
that move was made unseen and is ruled as if it had been seen:

  move    the mover's square is empty and one empty square is filled; the position allows it.
  attack  only the mover's square is empty: the attacker stands on the target and the defender
          was lifted off. Occupancy sensors cannot say which enemy piece was attacked, so it is
          ruled only when the mover can attack exactly one square.

Anything else (two moves, a piece knocked off, a move the rules refuse, an attack with several
possible targets) is no move: the players are guided back to the last ruled position, as before.
With identifying sensors a piece standing on another piece's square ("wrong") is never read as
a move here either: the tags of a restarted referee are not learned yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Move, Square
from firmware_bridge.board.position import ExpectedPosition


def unseen_move(position: ExpectedPosition, clear: Sequence[Square], fill: Sequence[Square],
                wrong: Sequence[Square] = ()) -> tuple[Move, bool] | None:
    """The one legal move (and whether it is an attack) that explains the board's difference
    from ``position`` (squares to clear, to fill, holding the wrong piece), or None."""
    if wrong or len(fill) != 1:
        return None
    origin = fill[0]
    mover = position.piece_at(origin)
    if mover is None or mover.color is not position.to_move:
        return None
    if len(clear) == 1:
        move = Move(origin, clear[0])
        if position.piece_at(move.target) is None and position.allows(move):
            return move, False
        return None
    if clear:
        return None
    targets = [square for square in position.reach.get(origin, ())
               if (defender := position.piece_at(square)) is not None and defender.color is not mover.color]
    if len(targets) != 1:
        return None
    return Move(origin, targets[0]), True
