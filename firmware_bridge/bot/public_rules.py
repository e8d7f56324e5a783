"""The repetition rules as one seat can follow them from public moves, whatever the transport.

The referee tells a tablet which chasing moves the more-squares rule refuses (the view's
`chase_warning`), but a transport may not carry it: the UCC protocol has only boards and result
lines. So the bot keeps its own copy of the rules (`engine.stratego.repetition.RepetitionRules`,
the referee's own code) on a board it rebuilds from the move records, and asks it before every
move. It cannot know the enemy's hidden kinds, so every unknown enemy piece is hashed as one
placeholder kind. That is on the safe side: two positions the referee counts as the same (same
kinds on the same squares) are the same here too, so every move the referee would refuse as a
repeated chase is refused here; the copy may refuse a little more (two unknown enemy pieces of
different kinds that swapped squares), never less.
"""

from __future__ import annotations

from typing import Any

from engine.stratego.geometry import Geometry, geometry_for
from engine.stratego.pieces import Color, Piece
from engine.stratego.repetition import RepetitionRules
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant


class PublicRepetition:
    """One seat's copy of the repetition rules, fed with its view and redacted events."""

    def __init__(self, variant: Variant, color: Color) -> None:
        self.variant = variant
        self.color = color
        self.placeholder = next(iter(variant.kinds))  # the one kind every unknown enemy hashes as
        self.geometry: Geometry | None = None
        self.board: list[Piece | None] = []
        self.rules: RepetitionRules | None = None
        self.hash = 0
        self.synced_ply = -1

    def _kind(self, piece: dict[str, Any]) -> str:
        if piece["color"] == self.color.value and piece.get("kind"):
            return str(piece["kind"])
        return self.placeholder

    def _rebuild(self, view: dict[str, Any]) -> None:
        """Start from the view's position with no history (first sight, or after a takeback)."""
        volcanoes = frozenset(Square.parse(name) for name in view.get("volcanoes", []))
        geometry = self.geometry = geometry_for(self.variant, volcanoes)
        self.board = [None] * geometry.size
        for piece in view["pieces"]:
            index = geometry.index(Square.parse(piece["square"]))
            self.board[index] = Piece(int(piece["id"]), Color(piece["color"]), self._kind(piece))
        self.rules = RepetitionRules(self.variant, geometry, self.board)
        self.hash = geometry.side_key if view.get("to_move") == Color.BLUE.value else 0
        for index, placed in enumerate(self.board):
            if placed is not None:
                self.hash ^= geometry.piece_key(placed.color, placed.kind, index)
        self.synced_ply = int(view.get("ply", 0))

    def _matches(self, view: dict[str, Any]) -> bool:
        assert self.geometry is not None
        pieces = view["pieces"]
        if sum(1 for p in self.board if p is not None) != len(pieces):
            return False
        for piece in pieces:
            placed = self.board[self.geometry.index(Square.parse(piece["square"]))]
            if placed is None or placed.id != int(piece["id"]):
                return False
        return True

    def observe(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Follow one ruling; rebuild from the view when the events do not explain it."""
        if self.rules is None or any(e.get("type") == "takeback" for e in events):
            self._rebuild(view)
            return
        for event in events:
            if event.get("type") == "move":
                self._apply(event, events)
        self.synced_ply = int(view.get("ply", self.synced_ply))
        if not self._matches(view):
            self._rebuild(view)  # a ruling we did not see: the chase history is lost, not invented

    def _apply(self, move_event: dict[str, Any], events: list[dict[str, Any]]) -> None:
        assert self.geometry is not None and self.rules is not None
        geometry, board = self.geometry, self.board
        move = Move.parse(move_event["move"])
        origin, target = geometry.index(move.origin), geometry.index(move.target)
        piece = board[origin]
        if piece is None:
            return  # the position check after the events rebuilds
        defender = board[target]
        captured = {int(e["piece_id"]) for e in events
                    if e.get("type") == "capture" and int(e.get("ply", -1)) == move_event.get("ply")}
        board[origin] = None
        self.hash ^= geometry.piece_key(piece.color, piece.kind, origin)
        if defender is not None and defender.id in captured:
            board[target] = None
            self.hash ^= geometry.piece_key(defender.color, defender.kind, target)
        if piece.id not in captured and board[target] is None:
            board[target] = piece
            self.hash ^= geometry.piece_key(piece.color, piece.kind, target)
        self.rules.record(piece, origin, target, defender is not None, self.hash)
        if self.variant.moves_per_turn == 1:
            self.hash ^= geometry.side_key

    def refused(self, moves: list[str]) -> set[str]:
        """Which of our candidate moves ("e4-e5") the repetition rules refuse now."""
        if self.rules is None or self.geometry is None:
            return set()
        geometry, board = self.geometry, self.board
        found = set()
        for name in moves:
            move = Move.parse(name)
            origin, target = geometry.index(move.origin), geometry.index(move.target)
            piece = board[origin]
            if piece is None or piece.color is not self.color:
                continue
            if self.rules.refusal(piece, origin, target, board[target] is not None, self.hash):
                found.add(name)
        return found
