"""A replay on the simulated board in virtual time: hands, sensors, firmware, codec, the controller.

The harness of the replay tests: the same simulated board, scanner firmware and stabiliser the
sim_table harness uses, with a `ReplayMode` reading the board instead of a game's recogniser.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Move, Square
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.board.snapshots import Stabiliser
from firmware_bridge.referee.replay_mode import ReplayMode
from hardware.sim.board import SimulatedBoard, VirtualClock
from hardware.sim.hands import NO_FAULTS, FaultRates, Hands


def tag_of(piece_id: int) -> int:
    """The tag glued under a piece (the simulated board keeps one per piece)."""
    return 100 + piece_id


class ReplayTable:
    """An empty simulated board, a replay controller reading it, and a pair of hands."""

    def __init__(self, mode: ReplayMode, seed: int = 0, faults: FaultRates = NO_FAULTS) -> None:
        self.mode = mode
        variant = mode.game.variant
        self.rng = random.Random(seed)
        self.clock = VirtualClock(1000.0)
        self.board = SimulatedBoard(variant.width, variant.height, clock=self.clock, seed=seed)
        self.source = SimulatedSource(self.board, 200)
        self.stabiliser = Stabiliser(debounce_samples=1, quiet_s=0.02)
        self.hands = Hands(self.board, self.rng, faults, wire=self.source)

    def run(self, seconds: float, until: Callable[[], bool] | None = None) -> bool:
        """Advance virtual time scan by scan; True as soon as until() holds (None: run it all)."""
        end = self.clock() + seconds
        while self.clock() < end:
            self.clock.advance(0.005)
            now = self.clock()
            self.source.step(now)
            for reading in self.source.readings():
                stable = self.stabiliser.feed(reading)
                if stable is not None:
                    self.mode.feed(stable)
            stable = self.stabiliser.poll(now)
            if stable is not None:
                self.mode.feed(stable)
            self.mode.poll(now)
            if until is not None and until():
                return True
        return until is None

    def matches(self) -> bool:
        """The board is at rest and matches the replay's position."""
        return not self.board.pending() and self.mode.has_board and self.mode.mismatch() is None

    def follow_steps(self) -> None:
        """Do what the steps say (place, remove, put back), one hand at a time."""
        delay = 0.2
        for step in self.mode.steps():
            square = Square.parse(step["square"])
            if step["action"] == "place":
                tag = tag_of(self._piece_id(square))
                self.board.after(delay, lambda s=square, t=tag: self.board.place(s, t))
            elif step["action"] == "replace":  # the wrong piece off, the right one on
                tag = tag_of(self._piece_id(square))
                self.board.after(delay, lambda s=square: self.board.discard(self.board.lift(s)))
                delay += 0.2
                self.board.after(delay, lambda s=square, t=tag: self.board.place(s, t))
            elif step["action"] == "remove":
                self.board.after(delay, lambda s=square: self.board.discard(self.board.lift(s)))
            elif step["action"] == "put_back":
                to = Square.parse(step["to"])
                self.board.after(delay, lambda a=square, b=to: self.board.move(a, b))
            delay += self.rng.uniform(0.15, 0.4)

    def _piece_id(self, square: Square) -> int:
        piece = self.mode.game.piece_at(square)
        assert piece is not None, f"nothing belongs on {square}"
        return piece.id

    def settle(self, attempts: int = 6) -> bool:
        """Follow the steps until the board matches the replay's position."""
        for _ in range(attempts):
            if self.run(3.0, self.matches):
                return True
            while self.board.pending():  # the hands are still busy with the last steps
                if self.run(3.0, self.matches):
                    return True
            self.follow_steps()
        return self.matches()

    def play(self, move: Move) -> bool:
        """Make a move by hand; True when the controller stepped on to the next ply."""
        game, ply = self.mode.game, self.mode.ply
        attack = game.piece_at(move.target) is not None
        self.hands.play(game, move)
        if not self.run(8.0, lambda: self.mode.ply == ply + 1):
            return False
        while self.board.pending():
            self.run(0.05)
        self.hands.after_ruling(move, self.mode.last_events, attack, tag_of)
        return True
