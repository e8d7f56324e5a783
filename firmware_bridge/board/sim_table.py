"""A whole table in simulation: players' hands, the simulated board, sensors, recogniser, engine.

Not part of the referee on the Pi (nothing of the referee imports it): this is the harness the
tests and the benches use to play whole games through the simulated sensor grid and the real
recogniser, with faults injected the way real hands and cables produce them
(hardware.sim.hands). Table wires it all on a VirtualClock (SimulatedSource: the firmware logic
and codec in memory), so a game takes milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import Color, Game, Move, get_variant, random_setup
from firmware_bridge.board.recognition import (
    BoardMatches,
    BoardMismatch,
    BoardWatch,
    IllegalAttempt,
    MoveMade,
    Observation,
)
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.board.snapshots import Stabiliser
from hardware.sim.board import IDENTIFYING, OCCUPANCY, SimulatedBoard, VirtualClock
from hardware.sim.hands import NO_FAULTS, FaultRates, Hands


@dataclass
class Tally:
    """What happened to the moves played: the robustness figures."""

    correct: int = 0
    phantom: int = 0  # a move ruled that was not the one made
    missed: int = 0  # a move made and never ruled
    false_alarms: int = 0  # IllegalAttempt / BoardMismatch reported for a legal move well made
    latencies: list[float] = field(default_factory=list)  # last physical change -> ruling
    attack_latencies: list[float] = field(default_factory=list)
    scout_latencies: list[float] = field(default_factory=list)  # held to see if it slides on
    notes: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Merge another tally into this one."""
        self.correct += other.correct
        self.phantom += other.phantom
        self.missed += other.missed
        self.false_alarms += other.false_alarms
        self.latencies += other.latencies
        self.attack_latencies += other.attack_latencies
        self.scout_latencies += other.scout_latencies
        self.notes += other.notes


class Table:
    """A game played on the simulated board in virtual time, through firmware, codec and recogniser."""

    def __init__(self, variant: str = "classic", seed: int = 0, faults: FaultRates = NO_FAULTS,
                 identifying: bool = False, scan_hz: int = 200, game: Game | None = None) -> None:
        self.rng = random.Random(seed)
        self.variant = get_variant(variant)
        if game is None:
            game = Game.from_setup(self.variant, random_setup(self.variant, Color.RED, self.rng),
                                   random_setup(self.variant, Color.BLUE, self.rng), rng=self.rng)
        self.game = game
        self.clock = VirtualClock(1000.0)
        self.board = SimulatedBoard(self.variant.width, self.variant.height,
                                    IDENTIFYING if identifying else OCCUPANCY, self.clock, seed)
        self.board.set_position({square: self.tag_of(piece.id) for square, piece in game.pieces()})
        self.source = SimulatedSource(self.board, scan_hz)
        self.watch = BoardWatch(game, Stabiliser(debounce_samples=1, quiet_s=0.02))
        self.recognizer = self.watch.recognizer
        self.hands = Hands(self.board, self.rng, faults, wire=self.source)
        self.step_s = 1.0 / scan_hz
        self.log: list[Observation] = []

    @staticmethod
    def tag_of(piece_id: int) -> int:
        """The tag glued under a piece (identifying sensors)."""
        return 100 + piece_id

    def run(self, seconds: float, until: Callable[[list[Observation]], bool] | None = None) -> list[Observation]:
        """Advance virtual time scan by scan; stop early once until(observations) is true."""
        seen: list[Observation] = []
        end = self.clock() + seconds
        while self.clock() < end:
            self.clock.advance(self.step_s)
            now = self.clock()
            self.source.step(now)
            new: list[Observation] = []
            for reading in self.source.readings():
                new += self.watch.feed(reading)
            new += self.watch.poll(now)
            seen += new
            self.log += new
            if until is not None and until(seen):
                break
        return seen

    def settle(self) -> list[Observation]:
        """Let the board come to rest and the recogniser report on it."""
        return self.run(1.0, lambda seen: any(isinstance(o, BoardMatches) for o in seen))

    def choose_move(self) -> Move | None:
        """A legal move, preferring attacks now and then so battles are exercised."""
        moves = self.game.legal_moves()
        if not moves:
            return None
        attacks = [m for m in moves if self.game.piece_at(m.target) is not None]
        if attacks and self.rng.random() < 0.4:
            return self.rng.choice(attacks)
        return self.rng.choice(moves)

    def play_move(self, move: Move, tally: Tally) -> bool:
        """Play one move by hand and referee it; False when the game cannot go on."""
        game = self.game
        attack = game.piece_at(move.target) is not None
        self.hands.play(game, move)
        seen = self.run(8.0, lambda s: bool(s) and isinstance(s[-1], MoveMade))
        ruled = seen[-1] if seen and isinstance(seen[-1], MoveMade) else None
        tally.false_alarms += sum(isinstance(o, IllegalAttempt | BoardMismatch) for o in seen)
        if ruled is None:
            tally.missed += 1
            tally.notes.append(f"missed {move} at ply {game.ply}")
            return False
        if ruled.move != move:
            tally.phantom += 1
            tally.notes.append(f"phantom {ruled.move} for {move} at ply {game.ply}")
            return False
        tally.correct += 1
        latency = self.clock() - self.board.last_change
        if self.recognizer.is_scout_move(move):
            tally.scout_latencies.append(latency)
        elif attack:
            tally.attack_latencies.append(latency)
        else:
            tally.latencies.append(latency)
        events = game.push(move)
        self.log += self.watch.sync()
        # A ruling can come while a hand is still settling the piece (resting between squares):
        # the player finishes putting it down before doing what the referee says.
        while self.board.pending():
            self.run(0.05)
        self.hands.after_ruling(move, events, attack, self.tag_of)
        return self._restore(tally)

    def _restore(self, tally: Tally) -> bool:
        """Let the hands finish the battle's removals and the board match again."""
        if self.log and isinstance(self.log[-1], BoardMatches) and not self.board.pending():
            return True
        for _ in range(4):
            seen = self.run(3.0, lambda s: bool(s) and isinstance(s[-1], BoardMatches)
                            and not self.board.pending())
            if seen and isinstance(seen[-1], BoardMatches):
                return True
            if self.board.pending():
                continue
            guidance = self.recognizer.guidance()
            if guidance is None:
                return True
            self.hands.fix(guidance)
        tally.notes.append(f"board never matched after ply {self.game.ply}: {self.recognizer.guidance()}")
        return False

    def play_game(self, max_plies: int = 40) -> Tally:
        """Play a random game by hand until it ends or max_plies; returns the tally."""
        tally = Tally()
        self.settle()
        for _ in range(max_plies):
            if self.game.result is not None:
                break
            move = self.choose_move()
            if move is None or not self.play_move(move, tally):
                break
            self.run(self.rng.uniform(0.0, 0.3))  # the next player thinks
        return tally
