"""A whole table in simulation: players' hands, the simulated board, sensors, recogniser, engine.

Not part of the referee on the Pi: this is the harness the tests, the benches and
`arbiter sim --selfplay` use to play whole games through the simulated sensor grid, with
faults injected the way real hands and cables produce them.

Hands plays a move the way a person does (lift, hold, place; for an attack both pieces are
lifted and the attacker put on the target, in either order; scouts slide) and follows the
referee's word after a battle. Table wires it all on a VirtualClock (SimulatedSource: the
firmware logic and codec in memory), so a game takes milliseconds; the same Hands also
drive a real-time board served over a pty or mock GPIO.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import CaptureEvent, Color, Game, Move, Square, get_variant, random_setup
from firmware_bridge.recognition import (
    BoardMatches,
    BoardMismatch,
    BoardWatch,
    IllegalAttempt,
    MoveMade,
    Observation,
)
from firmware_bridge.sensors import SimulatedSource
from firmware_bridge.snapshots import Stabiliser
from hardware.simulated_board import IDENTIFYING, OCCUPANCY, SimulatedBoard, VirtualClock


@dataclass(frozen=True)
class FaultRates:
    """How often each fault happens, per move (probabilities 0..1)."""

    bounce: float = 0.0  # contact bounce when a piece is put down
    glitch: float = 0.0  # a one-scan misread somewhere on the board
    between: float = 0.0  # the piece first rests between its target and a neighbour
    slide: float = 0.0  # a scout's long move is slid over the squares between
    nudge: float = 0.0  # a neighbouring piece is knocked and loses contact for a moment
    drop: float = 0.0  # a frame is lost on the cable
    corrupt: float = 0.0  # a frame arrives corrupted


NO_FAULTS = FaultRates()
ALL_FAULTS = FaultRates(bounce=0.5, glitch=0.5, between=0.15, slide=1.0, nudge=0.25,
                        drop=0.15, corrupt=0.15)


class Hands:
    """A player's hands on a SimulatedBoard: every action is scheduled on the board's clock."""

    def __init__(self, board: SimulatedBoard, rng: random.Random, faults: FaultRates = NO_FAULTS,
                 wire=None) -> None:
        self.board = board
        self.rng = rng
        self.faults = faults
        self.wire = wire  # has drop_frames / corrupt_frames (SimulatedSource, PtySerialServer)
        self._last_between = False  # the last piece put down rested between two squares first

    def _chance(self, rate: float) -> bool:
        return rate > 0 and self.rng.random() < rate

    def play(self, game: Game, move: Move) -> float:
        """Schedule the physical move; returns how many seconds until the last change."""
        board, rng, faults = self.board, self.rng, self.faults
        attack = game.piece_at(move.target) is not None
        piece = game.piece_at(move.origin)
        scout = piece is not None and game.variant.kinds[piece.kind].scout
        hold = rng.uniform(0.15, 0.4)
        end = hold
        if attack:
            attacker_tag = board.tokens()[move.origin]
            first, second = (move.origin, move.target) if rng.random() < 0.5 else (move.target, move.origin)
            gap = rng.uniform(0.2, 0.4)
            board.after(0.0, lambda: board.lift(first))
            board.after(gap, lambda: board.lift(second))
            end = gap + max(hold, 0.15)
            self._put_down(move.target, attacker_tag, end)
        elif scout and move.origin.distance(move.target) > 1 and self._chance(faults.slide):
            step = rng.uniform(0.04, 0.09)
            board.slide(move.origin, move.target, step)
            end = step * (move.origin.distance(move.target) - 1)
            if self._chance(faults.bounce):
                board.after(end, lambda: board.bounce(move.target))
        else:
            tag = board.tokens()[move.origin]
            board.after(0.0, lambda: board.lift(move.origin))
            self._put_down(move.target, tag, hold)
            end = hold + (0.25 if self._last_between else 0.0)
        self._background_faults(game, move, end)
        return end

    def _put_down(self, square: Square, tag: int, at: float) -> None:
        board = self.board
        self._last_between = False
        if self._chance(self.faults.between):
            neighbour = self._free_neighbour(square)
            if neighbour is not None:
                self._last_between = True
                board.after(at, lambda: board.between(square, neighbour, 0.25))
                at += 0.25
        board.after(at, lambda: board.place(square, tag))
        if self._chance(self.faults.bounce):
            board.after(at, lambda: board.bounce(square, self.rng.uniform(0.004, 0.015)))

    def _free_neighbour(self, square: Square) -> Square | None:
        occupied = self.board.occupied()
        options = [Square(square.file + df, square.rank + dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        options = [s for s in options if 0 <= s.file < self.board.width and 0 <= s.rank < self.board.height
                   and s not in occupied]
        return self.rng.choice(options) if options else None

    def _background_faults(self, game: Game, move: Move, end: float) -> None:
        board, rng, faults = self.board, self.rng, self.faults
        if self._chance(faults.glitch):
            square = rng.choice(board.squares())
            board.after(rng.uniform(0, end), lambda: board.glitch(square))
        if self._chance(faults.nudge):
            around = [s for s in board.occupied() if s not in (move.origin, move.target)
                      and (s.touches(move.origin) or s.touches(move.target))]
            if around:
                square = rng.choice(around)
                board.after(rng.uniform(0, end), lambda: board.nudge(square, rng.uniform(0.02, 0.08)))
        if self.wire is not None:
            if self._chance(faults.drop):
                board.after(rng.uniform(0, end), lambda: self.wire.drop_frames(1))
            if self._chance(faults.corrupt):
                board.after(rng.uniform(0, end), lambda: self.wire.corrupt_frames(1))

    def after_ruling(self, move: Move, events: list, attack: bool, tag_of: Callable[[int], int]) -> None:
        """Do what the referee says after a battle: captured pieces off, a winning defender back."""
        if not attack:
            return
        board = self.board
        captured = {e.piece_id for e in events if isinstance(e, CaptureEvent)}
        in_hand = board.in_hand()
        on_target = board.tokens().get(move.target)
        defender_tag = in_hand[0] if in_hand else None  # the attacker was put down, not the defender
        delay = self.rng.uniform(0.3, 0.8)
        attacker_lost = any(tag_of(pid) == on_target for pid in captured)
        if attacker_lost:
            board.after(delay, lambda: board.discard(board.lift(move.target)))
            delay += self.rng.uniform(0.2, 0.5)
        if defender_tag is not None:
            if any(tag_of(pid) == defender_tag for pid in captured):
                board.after(delay, lambda: board.discard(defender_tag))
            else:
                board.after(delay, lambda: board.place(move.target, defender_tag))

    def fix(self, mismatch: BoardMismatch) -> None:
        """Follow guidance: clear what must be cleared, then fill from the hand."""
        board = self.board
        delay = 0.3
        for square in mismatch.clear:
            board.after(delay, lambda s=square: board.lift(s))
            delay += 0.3
        for square in mismatch.fill:
            board.after(delay, lambda s=square: board.place(s))
            delay += 0.3


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
        self.log += self.recognizer.sync()
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
