"""A refused action, in every game: the rule's name and a sentence for the player."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import ArbiterError


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
