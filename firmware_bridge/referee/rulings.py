"""What a ruling is and what it announces to each audience; whose clock runs after a move.

A ruling is named by the event it announces (firmware_bridge.protocol.vocabulary). Its events
are redacted per audience here: the public and each seat hear only what they may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import (
    Color,
    Event,
    Game,
    GameEndEvent,
    Move,
    MoveEvent,
    RefusalEvent,
    TurnEvent,
    redact_events,
)
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.vocabulary import EventType

GENERIC_MOVEMENT_REFUSAL = "that piece cannot move there: put it back"
# Refusal reasons whose sentence tells what the piece is ("the bomb on a1 cannot move").
NAMES_THE_PIECE = frozenset({"immobile", "one-square", "scout-long-attack"})
# Rulings announced as one plain event {"type": <the ruling>, "color": <the seat>}.
SEAT_ANNOUNCEMENTS = frozenset({EventType.SETUP_READY, EventType.DRAW_OFFER, EventType.DRAW_DECLINED,
                                EventType.TAKEBACK_OFFER, EventType.TAKEBACK_DECLINED})
# Rulings whose events come from the engine (redacted for each audience).
ENGINE_RULINGS = frozenset({EventType.MOVE, EventType.GAME_END, EventType.TAKEBACK})

Item = tuple[EventType, dict[str, Any]]  # one ruling to make: its kind and payload


@dataclass
class Ruling:
    """What one ruling announces: its number and the events each audience may see."""

    game: str
    seq: int
    kind: EventType
    public_events: list[dict]
    seat_events: dict[str, list[dict]]


def clock_handover(events: list[Event]) -> tuple[str | None, bool]:
    """Whose clock runs after a move, from the events ``Game.push`` returned, and whether a turn
    ended with it: nobody's once the game ended; after a TurnEvent the seat it names (the mover
    again when the opponent was blocked and passed); otherwise the mover's (Espionage: a second
    move of the same turn is due)."""
    if any(isinstance(event, GameEndEvent) for event in events):
        return None, False
    turns = [event for event in events if isinstance(event, TurnEvent)]
    if turns:
        return turns[-1].to_move, True
    mover = next(event for event in events if isinstance(event, MoveEvent))
    return mover.color, False


def announce(game_id: str, seq: int, kind: EventType, payload: dict, events: list[Event],
             game: Game | None, variant: str) -> Ruling:
    """The ruling ``kind`` (number ``seq``) as the public and each seat hear it."""
    if kind is EventType.REFUSAL:
        assert game is not None
        return Ruling(game_id, seq, kind, [refusal_for(game, payload, None)],
                      {s: [refusal_for(game, payload, s)] for s in contract.SEATS})
    if kind in ENGINE_RULINGS and game is not None:
        public = redact_events(game, events, None)
        private = {s: redact_events(game, events, Color(s)) for s in contract.SEATS}
        return Ruling(game_id, seq, kind, public, private)
    return session_announcement(game_id, seq, kind, payload, variant)


def session_announcement(game_id: str, seq: int, kind: EventType, payload: dict, variant: str) -> Ruling:
    """A ruling of the session's own (a setup in, the start, an offer or its refusal): one plain
    event that every audience hears alike."""
    event: dict[str, Any]
    if kind is EventType.GAME_START:
        event = {"type": kind.value, "variant": variant}
    else:
        assert kind in SEAT_ANNOUNCEMENTS
        event = {"type": kind.value, "color": payload.get("seat")}
    return Ruling(game_id, seq, kind, [event], {s: [event] for s in contract.SEATS})


def refusal_for(game: Game, payload: dict, viewer: str | None) -> dict:
    """A refused board move as ``viewer`` may hear it.

    The engine's movement reasons can name the piece ("the bomb on e2 cannot move"); whoever
    may not know that piece hears a reason that names none.
    """
    message = payload["message"]
    reason, data = payload.get("reason", ""), dict(payload.get("data") or {})
    piece = game.piece_at(Move.parse(payload["move"]).origin)
    hidden = piece is not None and not game.knows(Color(viewer) if viewer else None, piece)
    if hidden and payload["rule"] == "movement":  # the other rules' reasons name no piece
        message = GENERIC_MOVEMENT_REFUSAL
        if reason in NAMES_THE_PIECE:
            reason, data = "", {}
    return RefusalEvent(payload["seat"], payload["move"], payload["rule"], message, game.ply,
                        reason, data).to_dict()
