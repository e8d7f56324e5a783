"""Per-player views: what Red, Blue or the public may know. Hidden ranks stop here.

A view reads a game only through `ViewedGame`, the public face `engine.stratego.game.Game` shows; the
game imports this module for `Game.view()`, never the other way round.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence, Set
from dataclasses import dataclass, fields
from typing import Any, Protocol

from engine.stratego.events import (
    BattleEvent,
    CaptureEvent,
    Event,
    MoveEvent,
    RefusalEvent,
    RevealEvent,
)
from engine.stratego.pieces import Color, Piece
from engine.stratego.repetition import ChaseWarning
from engine.stratego.results import Result
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant


class ViewedGame(Protocol):
    """What a view reads of a game: public facts, who knows which piece, the players' warnings."""

    @property
    def variant(self) -> Variant: ...
    @property
    def blocked(self) -> Set[Square]: ...
    @property
    def volcanoes(self) -> Sequence[Square]: ...
    @property
    def to_move(self) -> Color: ...
    @property
    def turn(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def moves_left_in_turn(self) -> int: ...
    @property
    def moved(self) -> Set[int]: ...
    @property
    def captured(self) -> Sequence[Piece]: ...
    @property
    def last_move(self) -> Move | None: ...
    @property
    def result(self) -> Result | None: ...

    def pieces(self) -> Iterator[tuple[Square, Piece]]: ...
    def piece(self, piece_id: int) -> Piece: ...
    def knows(self, viewer: Color | None, piece: Piece) -> bool: ...
    def last_events(self) -> list[Event]: ...
    def moves_left_in_run(self, color: Color) -> int | None: ...
    def chase_warning(self, color: Color) -> ChaseWarning | None: ...


@dataclass(frozen=True)
class ViewPiece:
    """A piece as one viewer sees it: `kind` is None when the viewer may not know it."""

    square: str
    color: str
    id: int
    kind: str | None
    moved: bool  # public: a piece that has moved is neither bomb nor flag
    known: bool  # own pieces: the opponent knows this one's kind, as far as the viewer can tell


@dataclass(frozen=True)
class PlayerView:
    """Everything one viewer may know about the game at this moment."""

    viewer: str | None
    variant: str
    width: int
    height: int
    blocked: list[str]
    volcanoes: list[str]
    to_move: str
    turn: int
    ply: int
    moves_left_in_turn: int
    moves_per_turn: int  # 2 in Espionage (1 with its option): "move 1 of 2"
    pieces: list[ViewPiece]
    captured: dict[str, list[str | None]]
    last_move: str | None
    last_events: list[dict[str, Any]]
    result: dict[str, Any] | None
    two_squares_left: int | None  # the viewer's own moves left in its current back-and-forth
    chase_warning: dict[str, Any] | None  # the viewer is chasing: what the more-squares rule forbids

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-safe data."""
        # By hand: dataclasses.asdict deep-copies every value and costs ~30x more, and the
        # referee builds three views per ruling for every board.
        data = {name: getattr(self, name) for name in _VIEW_FIELDS}
        data["blocked"] = list(self.blocked)
        data["volcanoes"] = list(self.volcanoes)
        data["pieces"] = [
            {"square": p.square, "color": p.color, "id": p.id, "kind": p.kind, "moved": p.moved,
             "known": p.known}
            for p in self.pieces
        ]
        data["captured"] = {color: list(kinds) for color, kinds in self.captured.items()}
        data["last_events"] = [dict(event) for event in self.last_events]
        data["result"] = dict(self.result) if self.result is not None else None
        data["chase_warning"] = copy.deepcopy(self.chase_warning)
        return data

    def piece_at(self, square: str) -> ViewPiece | None:
        """The piece this view shows on a square."""
        return next((p for p in self.pieces if p.square == square), None)


_VIEW_FIELDS = tuple(f.name for f in fields(PlayerView))


def player_view(game: ViewedGame, viewer: Color | None) -> PlayerView:
    """Compute the view of `viewer` (None: the public) from the full game."""
    viewer = Color(viewer) if viewer is not None else None
    pieces = []
    for square, piece in game.pieces():
        pieces.append(ViewPiece(
            square=square.name,
            color=piece.color.value,
            id=piece.id,
            kind=piece.kind if game.knows(viewer, piece) else None,
            moved=piece.id in game.moved,
            # Only what the viewer can tell: a battle shows a piece to everyone, but a spy's
            # recognition is secret, and telling its victim would point at the spy.
            known=(piece.color is viewer and game.knows(None, piece)),
        ))
    captured: dict[str, list[str | None]] = {Color.RED.value: [], Color.BLUE.value: []}
    for piece in game.captured:
        captured[piece.color.value].append(piece.kind if game.knows(viewer, piece) else None)
    two_squares_left = game.moves_left_in_run(viewer) if viewer is not None else None
    return PlayerView(
        viewer=viewer.value if viewer else None,
        variant=game.variant.name,
        width=game.variant.width,
        height=game.variant.height,
        blocked=sorted(s.name for s in game.blocked),
        volcanoes=[s.name for s in game.volcanoes],
        to_move=game.to_move.value,
        turn=game.turn,
        ply=game.ply,
        moves_left_in_turn=game.moves_left_in_turn,
        moves_per_turn=game.variant.moves_per_turn,
        pieces=pieces,
        captured=captured,
        last_move=game.last_move.name if game.last_move else None,
        last_events=redact_events(game, game.last_events(), viewer),
        result=game.result.to_dict() if game.result else None,
        two_squares_left=two_squares_left,
        chase_warning=_chase_warning(game, viewer),
    )


def _chase_warning(game: ViewedGame, viewer: Color | None) -> dict[str, Any] | None:
    if viewer is None or game.result is not None:
        return None
    warning = game.chase_warning(viewer)
    return warning.to_dict() if warning is not None else None


def redact_event(game: ViewedGame, event: Event, viewer: Color | None) -> dict[str, Any] | None:
    """An event as `viewer` may see it (kinds it may not know become None), or None if hidden."""
    data = event.to_dict()
    viewer = Color(viewer) if viewer is not None else None

    def may_know(piece_id: int) -> bool:
        return game.knows(viewer, game.piece(piece_id))

    if isinstance(event, MoveEvent) and not may_know(event.piece_id):
        data["kind"] = None
    elif isinstance(event, BattleEvent):
        if not may_know(event.attacker_id):
            data["attacker"] = None
        if not may_know(event.defender_id):
            data["defender"] = None
    elif isinstance(event, CaptureEvent) and not may_know(event.piece_id):
        data["kind"] = None
    elif isinstance(event, RevealEvent) and (viewer is None or event.to != viewer.value):
        return None  # only the spy's owner learns that anything was recognised
    elif isinstance(event, RefusalEvent) and (viewer is None or event.color != viewer.value):
        # The reason may name the piece ("the mine on e4 cannot move"): for its owner only.
        data["message"] = f"{event.move} was refused ({event.rule})"
    return data


def redact_events(game: ViewedGame, events: list[Event], viewer: Color | None) -> list[dict[str, Any]]:
    """The events `viewer` may see, redacted; hidden ones left out."""
    redacted = (redact_event(game, event, viewer) for event in events)
    return [data for data in redacted if data is not None]
