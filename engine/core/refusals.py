"""A refused action, in every game: the rule's name and a sentence for the player."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import ArbiterError


@dataclass(frozen=True)
class Refusal:
    """Why an action is illegal: the rule's name, a sentence in English, and the same as data.

    ``rule`` is the rule's stable name (`arbiter check`'s contract). ``reason`` names which
    sentence it is, and ``data`` holds what the sentence speaks of (squares, pieces, locales), so a
    tablet can say it in the player's language instead of showing ``message``.
    """

    rule: str
    message: str
    reason: str = ""
    data: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)


class IllegalMove(ArbiterError, ValueError):
    """Raised by `Game.push` for a move the rules refuse; the game is unchanged."""

    code = "illegal"  # each one carries its refusal's rule instead ("movement", "two-squares", ...)

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message, code=refusal.rule)
        self.refusal = refusal
