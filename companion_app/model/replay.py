"""The game replayed move by move with every rank revealed, from the views a tablet received.

At the end of a game the engine reveals the whole board, and battles reveal the pieces they
remove; with the piece ids of the views the tablet can name every piece of every earlier
position, and write a complete game record without asking the referee for it.
"""

from __future__ import annotations

from typing import Any

Position = dict[str, tuple[str, str | None]]


class Replay:
    """Positions (ply 0..n) with ranks filled in from what the tablet learned by the end."""

    def __init__(self, history: dict[int, dict[str, Any]], kinds_by_id: dict[int, tuple[str, str]]):
        if not history:
            raise ValueError("no views to replay")
        plies = sorted(history)
        self.views = [history[p] for p in plies]
        self.complete = plies == list(range(plies[0], plies[0] + len(plies))) and plies[0] == 0
        first = self.views[0]
        self.width, self.height = first["width"], first["height"]
        self.blocked = list(first.get("blocked", ()))
        self.volcanoes = list(first.get("volcanoes", ()))
        self.kinds = dict(kinds_by_id)
        self.positions: list[Position] = [self._position(v) for v in self.views]

    def _position(self, view: dict[str, Any]) -> Position:
        out: Position = {}
        for piece in view.get("pieces", ()):
            color, kind = self.kinds.get(piece["id"], (piece["color"], piece.get("kind")))
            out[piece["square"]] = (color, kind)
        return out

    def last_move(self, index: int) -> str | None:
        """The move that led to position `index`."""
        return self.views[index].get("last_move") if index > 0 else None

    def record(self) -> dict[str, Any] | None:
        """A game record (the engine's format), or None when some rank or move is unknown."""
        first = self.views[0]
        if not self.complete or first.get("ply", 0) != 0:
            return None
        setup: dict[str, dict[str, str]] = {"red": {}, "blue": {}}
        for piece in first.get("pieces", ()):
            known = self.kinds.get(piece["id"])
            if known is None:
                return None
            setup[known[0]][piece["square"]] = known[1]
        moves = [v.get("last_move") for v in self.views[1:]]
        if not all(moves):
            return None
        record: dict[str, Any] = {"variant": first["variant"], "setup": setup,
                                  "to_move": first.get("to_move", "red"), "moves": moves}
        if first.get("volcanoes"):
            record["volcanoes"] = list(first["volcanoes"])
        return record
