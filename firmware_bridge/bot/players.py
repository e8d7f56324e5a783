"""Baseline players for matches: a random mover and a simple heuristic player.

Both are seats like the computer player: they read only their view and redacted events. The
heuristic attacks known weaker pieces, keeps away from known stronger ones, and otherwise moves
at random.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.stratego.combat import Outcome, resolve_battle
from engine.stratego.notebook import human_setup
from engine.stratego.pieces import Color
from engine.stratego.variants import get_variant
from firmware_bridge.bot.board import SearchBoard
from firmware_bridge.bot.seat import COLOR_CODE, SeatMemory


class Player(Protocol):
    """What `arbiter match` (and the referee) needs of a seat."""

    def choose_setup(self) -> dict[str, str]:
        """Square name -> kind for this seat's army."""
        ...

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
        """Read one update; answer a move when it is this seat's turn."""
        ...


class RandomPlayer:
    """Plays a uniformly random legal move (as far as its seat can tell)."""

    def __init__(self, variant_name: str, color: Color | str, seed: int | None = None) -> None:
        self.variant = get_variant(variant_name)
        self.color = Color(color)
        self.rng = random.Random(seed)
        self.memory = SeatMemory(self.variant, self.color.value)

    def choose_setup(self) -> dict[str, str]:
        """A human-like setup, as people place their pieces."""
        return dict(human_setup(self.variant, self.color, self.rng))

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
        """A random legal move when it is our turn."""
        self.memory.observe(view, events)
        if view.get("result") is not None or view.get("to_move") != self.color.value:
            return None
        board, moves = self._moves(view)
        if not moves:
            return None
        return self.pick(board, moves, view)

    def _moves(self, view: dict[str, Any]) -> tuple[SearchBoard, list[tuple[int, int]]]:
        # Enemy kinds do not change where our pieces may go: any placeholder will do.
        placeholder = next(iter(self.variant.army))
        world = {int(p["id"]): placeholder for p in view["pieces"] if p["kind"] is None}
        board = self.memory.board(view, world)
        refused = set(self.memory.refused)
        refused.update((view.get("chase_warning") or {}).get("refused", []))
        moves = [m for m in board.moves(COLOR_CODE[self.color.value])
                 if board.move_name(*m) not in refused]
        return board, moves

    def pick(self, board: SearchBoard, moves: list[tuple[int, int]], view: dict[str, Any]) -> str:
        """Choose among the legal moves."""
        return board.move_name(*self.rng.choice(moves))


class HeuristicPlayer(RandomPlayer):
    """Attacks known weaker pieces, avoids known stronger ones, otherwise random."""

    def pick(self, board: SearchBoard, moves: list[tuple[int, int]], view: dict[str, Any]) -> str:
        """The best-scoring move, ties broken at random."""
        known: dict[int, str] = {}  # square -> kind of enemy pieces we know
        width = self.variant.width
        for piece in view["pieces"]:
            if piece["color"] != self.color.value and piece["kind"] is not None:
                square = piece["square"]
                known[(int(square[1:]) - 1) * width + ord(square[0]) - ord("a")] = piece["kind"]
        scored = []
        for origin, target in moves:
            mine = board.kind_name(board.cells[origin])
            score = self.rng.random()
            if target in known:
                outcome = resolve_battle(self.variant, mine, known[target])
                score += {Outcome.ATTACKER: 10.0, Outcome.BOTH: 2.0, Outcome.DEFENDER: -10.0}[outcome]
            score -= 5.0 * self._danger(board, mine, target, known)
            score += 3.0 * self._danger(board, mine, origin, known)
            scored.append((score, origin, target))
        _, origin, target = max(scored)
        return board.move_name(origin, target)

    def _danger(self, board: SearchBoard, mine: str, square: int, known: dict[int, str]) -> int:
        """1 when a known enemy next to `square` would beat our piece attacking it."""
        for neighbour in board.neighbours[square]:
            enemy = known.get(neighbour)
            if (enemy is not None and self.variant.kinds[enemy].mobile
                    and resolve_battle(self.variant, enemy, mine) is Outcome.ATTACKER):
                return 1
        return 0
