"""A player's hands on the simulated board: lifts, holds and placements, with faults on demand.

Hands plays a move the way a person does (lift, hold, place; for an attack both pieces are
lifted and the attacker put on the target, in either order; scouts slide) and follows the
referee's word after a battle. The faults are the ones real hands and cables produce: contact
bounce, misreads, a piece resting between two squares, nudged neighbours, lost and corrupted
frames.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from engine import CaptureEvent, Game, Move, Square
from hardware.sim.board import SimulatedBoard


class BoardDifference(Protocol):
    """What guidance asks of the hands: squares to clear and squares to fill."""

    @property
    def clear(self) -> Iterable[Square]:
        """Squares a piece must come off."""

    @property
    def fill(self) -> Iterable[Square]:
        """Squares a piece must go on."""


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

    def fix(self, mismatch: BoardDifference) -> None:
        """Follow guidance: clear what must be cleared, then fill from the hand."""
        board = self.board
        delay = 0.3
        for square in mismatch.clear:
            board.after(delay, partial(board.lift, square))
            delay += 0.3
        for square in mismatch.fill:
            board.after(delay, partial(board.place, square))
            delay += 0.3
