"""A referee with a computer seat and a simulated board, driven scan by scan in virtual time.

The referee is never started (no broker, no threads): this harness does what its sensor feed
thread would do (readings -> stabiliser -> ``on_stable``, then ``poll_board``) on the board's
VirtualClock, so a whole game takes seconds. A scripted human plays one seat with ``Hands``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from engine import Color, Move, Square, random_setup
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.board.snapshots import Stabiliser
from firmware_bridge.protocol import crypto
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import OCCUPANCY, SimulatedBoard, VirtualClock
from hardware.sim.hands import NO_FAULTS, FaultRates, Hands


@dataclass
class Squares:
    """What to clear and fill, as Hands.fix reads it."""

    clear: list[Square]
    fill: list[Square]


class ComputerTable:
    """The human's seat paired to a tablet key, the other seat the computer's."""

    def __init__(self, tmp_path, variant: str = "barrage", computer: str = "blue", level: str = "easy",
                 seed: int = 1, faults: FaultRates = NO_FAULTS) -> None:
        self.rng = random.Random(seed)
        self.human = Color(computer).other.value
        self.referee = Referee(RefereeSettings("computer", tmp_path / "journal.db", "mqtt://127.0.0.1:9",
                                               variant=variant, computer=computer, computer_level=level))
        session = self.referee.session
        self.clock = VirtualClock(1000.0)
        self.board = SimulatedBoard(session.variant.width, session.variant.height, OCCUPANCY, self.clock, seed)
        self.source = SimulatedSource(self.board)
        self.referee.attach_board(self.source, Stabiliser(debounce_samples=1, quiet_s=0.02))
        self.hands = Hands(self.board, self.rng, faults, wire=self.source)
        self.made: list[tuple[str, str]] = []  # (move made by hand, move ruled)
        self.rulings: list = []  # every ruling the referee announced, in order

        def heard(rulings: list) -> list:
            self.rulings += rulings  # the last follower hears them all, the computer's included
            return []
        self.referee.publisher.followers.append(heard)

    @property
    def session(self):
        return self.referee.session

    def close(self) -> None:
        self.referee.board.close()
        self.referee.journal.close()

    def thought(self) -> None:
        """Wait for the computer's answer to what it was last asked (it thinks on its own thread)."""
        assert self.referee.computer.wait_idle(60), "the computer never answered"

    def run(self, seconds: float, until=lambda: False) -> bool:
        """Scan for up to ``seconds`` of virtual time; True once ``until()`` holds."""
        feed = self.referee.feed
        assert feed is not None
        end = self.clock() + seconds
        while self.clock() < end:
            self.clock.advance(1.0 / self.source.scan_hz)
            now = self.clock()
            self.source.step(now)
            for reading in self.source.readings():
                stable = feed.stabiliser.feed(reading)
                if stable is not None:
                    self.referee.on_stable(stable)
            stable = feed.stabiliser.poll(now)
            if stable is not None:
                self.referee.on_stable(stable)
            self.referee.poll_board(now)
            self.thought()
            if until():
                return True
        return bool(until())

    def start(self) -> None:
        """The computer sets up, the human pairs and submits a setup, every piece is placed."""
        self.referee.announce()  # what start() does: the computer takes its seat and sets up
        self.thought()
        session = self.session
        assert session.phase == "setup" and set(session.setups) == {self.referee.computer.seat}
        session.pair(self.human, crypto.key_to_text(crypto.PrivateKey.generate().public_key), "tablet")
        setup = {s.name: k for s, k in random_setup(session.variant, Color(self.human), self.rng).items()}
        reply, rulings = session.execute(self.human, {"v": 1, "id": "setup", "seat": self.human, "counter": 1,
                                                      "type": "setup", "args": {"setup": setup}})
        assert reply["ok"], reply
        self.referee.announce(rulings)
        self.thought()
        assert session.phase == "playing"
        self.board.set_position([Square.parse(s) for s in sorted(session.expected_occupancy())])
        assert self.settle(), f"the board never matched: {self.referee.board_check()}"

    def settle(self, seconds: float = 20.0) -> bool:
        """Let the hands finish and follow the referee's guidance until the board matches."""
        end = self.clock() + seconds
        while self.clock() < end:
            self.run(0.25)
            if self.board.pending():
                continue
            self.run(0.15)  # the last change is read, stabilised and ruled on
            check = self.referee.board_check()
            if check is None or self.board.pending():
                continue
            # A match the referee sees while the sensors still settle (a piece hovering between
            # two squares flickers for a quarter of a second) may be a flicker's moment: wait.
            if check["matches"] and check["reading"] and not self.referee.feed.stabiliser.settling():
                return True
            self.run(1.0)  # a lost frame is read again: act only on guidance that stands
            if not check["matches"] and check == self.referee.board_check() and not self.board.pending():
                self.hands.fix(Squares([Square.parse(s) for s in check["clear"]],
                                       [Square.parse(s) for s in check["fill"]]))
                for name in check["wrong"]:  # swap the piece: off the square, the right one on
                    square = Square.parse(name)
                    self.board.after(0.2, partial(self.board.lift, square))
                    self.board.after(0.5, partial(self.board.place, square))
        return False

    def human_move(self) -> Move:
        """A random legal move of the human's side, attacks now and then."""
        game = self.session.game
        moves = game.legal_moves()
        attacks = [m for m in moves if game.piece_at(m.target) is not None]
        return self.rng.choice(attacks) if attacks and self.rng.random() < 0.4 else self.rng.choice(moves)

    def play(self, move: Move, seconds: float = 30.0) -> bool:
        """Make ``move`` by hand; True once a ruling about it came (a move or a refusal)."""
        session = self.session
        seq = session.seq
        self.hands.play(session.game, move)
        ruled = self.run(seconds, lambda: session.seq > seq)
        if ruled:
            last = self.referee.last_board_ruling
            self.made.append((str(move), str(last[0].move) if last else "?"))
        return ruled
