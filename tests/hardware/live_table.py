"""A minimal referee loop in real time, for games played through a live sensor source."""

from __future__ import annotations

import random
import time

from engine import Game, Move
from firmware_bridge.board.recognition import BoardMatches, BoardWatch, MoveMade
from firmware_bridge.board.snapshots import Stabiliser
from hardware.sim.hands import Hands


class LiveTable:
    """Plays moves by hand on a real-time simulated board and referees them from `source`."""

    def __init__(self, game: Game, board, source, hands: Hands, stabiliser: Stabiliser | None = None):
        self.game = game
        self.board = board
        self.source = source
        self.hands = hands
        self.watch = BoardWatch(game, stabiliser or Stabiliser())
        self.log: list = []

    def pump(self, seconds: float, until=None) -> list:
        seen: list = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for reading in self.source.readings(timeout=0.004):
                seen += self.watch.feed(reading)
            seen += self.watch.poll(time.monotonic())
            if until is not None and seen and until(seen):
                break
        self.log += seen
        return seen

    def wait_until_matching(self, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = self.pump(0.2)
            last = next((o for o in reversed(self.log) if o is not None), None)
            if not self.board.pending() and isinstance(last, BoardMatches) and not seen:
                return True
        return False

    def play(self, move: Move) -> MoveMade:
        """Play a move by hand; returns the ruling (raises if none comes)."""
        attack = self.game.piece_at(move.target) is not None
        self.hands.play(self.game, move)
        seen = self.pump(10.0, until=lambda s: isinstance(s[-1], MoveMade))
        rulings = [o for o in seen if isinstance(o, MoveMade)]
        assert rulings, f"{move} was never ruled; saw {seen}"
        ruling = rulings[0]
        if ruling.move != move:
            return ruling
        while self.board.pending():
            time.sleep(0.01)
        events = self.game.push(move)
        self.log += self.watch.sync()
        self.hands.after_ruling(move, events, attack, lambda piece_id: 100 + piece_id)
        assert self.wait_until_matching(), f"board never matched after {move}: {self.watch.guidance()}"
        return ruling


def random_moves(table: LiveTable, plies: int, rng: random.Random) -> list[tuple[Move, Move]]:
    """Play random legal moves (attacks preferred now and then); pairs of (made, ruled)."""
    results = []
    for _ in range(plies):
        moves = table.game.legal_moves()
        if table.game.result is not None or not moves:
            break
        attacks = [m for m in moves if table.game.piece_at(m.target) is not None]
        move = rng.choice(attacks) if attacks and rng.random() < 0.5 else rng.choice(moves)
        ruling = table.play(move)
        results.append((move, ruling.move))
        if ruling.move != move:
            break
    return results
