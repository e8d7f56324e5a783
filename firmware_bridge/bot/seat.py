"""What one seat knows, read from its view dict and redacted events, and nothing else.

`SeatMemory` follows the two-squares runs of both sides from the public move records (the view
only says how many moves the seat itself has left), remembers which of its own moves the referee
refused at this ply, and builds a `SearchBoard` for one sampled world.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant
from firmware_bridge.bot.board import BLUE, RED, Rules, SearchBoard, rules_for

COLOR_CODE = {"red": RED, "blue": BLUE}
# How much of a guess an enemy piece's kind is (`SearchBoard.hidden`): one that never moved may be
# a bomb, which beats every piece but a Miner, so losing to a guess there is dreaded more.
HIDDEN_MOVED = 1.0
HIDDEN_STILL = 2.5


@dataclass
class SeatRun:
    """One side's current back-and-forth, as the engine counts it (by piece id and squares)."""

    piece_id: int
    squares: frozenset[int]
    count: int


@dataclass
class SeatMemory:
    """The public history one seat keeps between updates."""

    variant: Variant
    color: str
    rules: Rules | None = None
    runs: dict[str, SeatRun | None] = field(default_factory=lambda: {"red": None, "blue": None})
    refused: set[str] = field(default_factory=set)  # own moves refused at `refused_ply`
    refused_ply: int = -1
    last_from: dict[int, int] = field(default_factory=dict)  # own piece id -> square it last left
    _layout_of: Any = None
    _layout_cache: list[tuple[int, int, str | None, int, bool]] = field(default_factory=list)

    def observe(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Take one seat update into account."""
        if self.rules is None:
            blocked = frozenset(Square.parse(name) for name in view.get("blocked", []))
            self.rules = rules_for(self.variant, blocked)
        width = self.variant.width
        for event in events:
            kind = event.get("type")
            if kind == "move":
                move = Move.parse(event["move"])
                origin = move.origin.rank * width + move.origin.file
                target = move.target.rank * width + move.target.file
                self._record(event["color"], int(event["piece_id"]), origin, target)
                if event["color"] == self.color:
                    self.last_from[int(event["piece_id"])] = origin
            elif kind == "refusal" and event.get("color") == self.color:
                if self.refused_ply != view.get("ply"):
                    self.refused = set()
                    self.refused_ply = int(view.get("ply", -1))
                self.refused.add(str(event.get("move")))
            elif kind == "takeback":
                # The run before the taken-back move is not in the view: forget both runs; the
                # referee still rules, and a refused move is never tried twice at one ply.
                self.runs = {"red": None, "blue": None}
        if self.refused_ply != view.get("ply"):
            self.refused = set()

    def _record(self, color: str, piece_id: int, origin: int, target: int) -> None:
        run = self.runs.get(color)
        if run is not None and run.piece_id == piece_id and origin in run.squares and target in run.squares:
            self.runs[color] = SeatRun(piece_id, run.squares, run.count + 1)
            return
        width = self.variant.width
        low, high = min(origin, target), max(origin, target)
        step = 1 if low // width == high // width else width
        self.runs[color] = SeatRun(piece_id, frozenset(range(low, high + 1, step)), 1)

    def _layout(self, view: dict[str, Any]) -> list[tuple[int, int, str | None, int, bool]]:
        """The view's pieces as (square index, colour code, kind or None, id, moved), cached."""
        if self._layout_of is not view["pieces"]:
            width = self.variant.width
            layout = []
            for piece in view["pieces"]:
                square = Square.parse(piece["square"])
                layout.append((square.rank * width + square.file, COLOR_CODE[piece["color"]],
                               piece["kind"], int(piece["id"]), bool(piece["moved"])))
            self._layout_cache, self._layout_of = layout, view["pieces"]
        return self._layout_cache

    def board(self, view: dict[str, Any], world: dict[int, str]) -> SearchBoard:
        """A search board of the view's position, enemy kinds taken from `world` (id -> kind)."""
        assert self.rules is not None
        board = SearchBoard(self.rules)
        for square, code, shown, ident, moved in self._layout(view):
            kind = shown if shown is not None else world.get(ident)
            if kind is None:
                raise ValueError(f"no kind for piece {ident} in the sampled world")
            guess = 0.0 if shown is not None else (HIDDEN_MOVED if moved else HIDDEN_STILL)
            board.add(square, code, kind, ident, moved, hidden=guess)
        on_board = {int(p["id"]) for p in view["pieces"]}
        left = view.get("two_squares_left")
        for color, run in self.runs.items():
            if run is not None and run.piece_id in on_board:
                count = run.count
                if color == self.color and left is not None and self.variant.two_squares_limit:
                    count = self.variant.two_squares_limit - int(left)  # the referee's own count
                board.set_run(COLOR_CODE[color], run.piece_id, run.squares, count)
        board.to_move = COLOR_CODE[view["to_move"]]
        return board
