"""Refusals of illegal moves and the results of finished games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import ArbiterError
from engine.pieces import Color

# The rule names of `arbiter check` (a contract: extend, never rename).
RULES = ("movement", "turn", "two-squares", "more-squares", "game-over")


@dataclass(frozen=True)
class Refusal:
    """Why a move is illegal: the rule's name and a sentence for the player."""

    rule: str
    message: str


class IllegalMove(ArbiterError, ValueError):
    """Raised by `Game.push` for a move the rules refuse; the game is unchanged."""

    code = "illegal"  # each one carries its refusal's rule instead ("movement", "two-squares", ...)

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message, code=refusal.rule)
        self.refusal = refusal


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
