"""Everything that happens in a game, as plain data records the referee can journal."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Base of all events; `to_dict` is the full record, hidden ranks included."""

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-safe data (holds hidden ranks: for the journal, not for players)."""
        data = {"type": self.type}  # type: ignore[attr-defined]
        data.update({k: v for k, v in asdict(self).items() if k != "type"})
        return data


@dataclass(frozen=True)
class MoveEvent(Event):
    """A piece moved (or attacked: a BattleEvent follows)."""

    color: str
    piece_id: int
    kind: str
    move: str
    ply: int
    type: str = "move"


@dataclass(frozen=True)
class BattleEvent(Event):
    """An attack: both pieces, both kinds and who won."""

    attacker_id: int
    attacker_color: str
    attacker: str  # the attacker's kind
    defender_id: int
    defender_color: str
    defender: str  # the defender's kind
    square: str
    outcome: str  # "attacker", "defender" or "both"
    ply: int
    type: str = "battle"


@dataclass(frozen=True)
class CaptureEvent(Event):
    """A piece left the board: the players must take it off the physical board."""

    piece_id: int
    color: str
    kind: str
    square: str
    ply: int
    type: str = "capture"


@dataclass(frozen=True)
class RevealEvent(Event):
    """A piece's kind became known to one player (an Espionage spy recognised it)."""

    to: str
    piece_id: int
    color: str
    kind: str
    square: str
    ply: int
    type: str = "reveal"


@dataclass(frozen=True)
class RefusalEvent(Event):
    """A move the rules refuse; the player must take it back. Nothing changed."""

    color: str
    move: str
    rule: str
    message: str
    ply: int
    reason: str = ""  # which sentence (engine.core.Refusal.reason); "" from an older journal
    data: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    type: str = "refusal"


@dataclass(frozen=True)
class TurnEvent(Event):
    """The turn passed to the other player."""

    to_move: str
    turn: int
    ply: int
    type: str = "turn"


@dataclass(frozen=True)
class GameEndEvent(Event):
    """The game ended: who won (None for a draw) and why."""

    winner: str | None
    reason: str
    ply: int
    type: str = "game_end"


@dataclass(frozen=True)
class TakebackEvent(Event):
    """The last move was taken back, with both players' agreement."""

    move: str
    ply: int
    type: str = "takeback"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (MoveEvent, BattleEvent, CaptureEvent, RevealEvent, RefusalEvent, TurnEvent,
                GameEndEvent, TakebackEvent)
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from its `to_dict` form (journal replay)."""
    fields = dict(data)
    cls = EVENT_TYPES[fields.pop("type")]
    return cls(**fields)
