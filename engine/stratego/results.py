"""The results of finished Stratego-family games, and the rule names of their refusals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.stratego.pieces import Color

# The rule names of `arbiter check` (a contract: extend, never rename).
RULES = ("movement", "turn", "two-squares", "more-squares", "game-over")


@dataclass(frozen=True)
class Result:
    """The end of a game: the winner (None for a draw) and the reason."""

    winner: Color | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """The result as in `arbiter check`: {"winner": "red"|"blue"|None, "reason": ...}."""
        return {"winner": self.winner.value if self.winner else None, "reason": self.reason}


# Reasons a game ends (the `reason` of a Result).
FLAG_CAPTURED = "flag-captured"  # for Espionage: "headquarters-captured" (the objective's kind)
NO_MOVABLE_PIECES = "no-movable-pieces"  # the loser has no piece that can ever move
NO_LEGAL_MOVE = "no-legal-move"  # the loser must move and every move is blocked or forbidden
BOTH_IMMOBILE = "both-immobile"  # draw: neither side has a movable piece
NEITHER_CAN_MOVE = "neither-can-move"  # draw: neither side has a piece that could move
AGREEMENT = "agreement"  # draw agreed by both players
RESIGNATION = "resignation"
GAME_TIME = "game-time"  # draw: the agreed total game time ran out
CLOCK = "clock"  # the loser's own clock ran out
