"""The whole system in one process for the demo: embedded broker, referee, simulated board.

The simulated board (hardware.sim.board) stands where the real one would: every
physical change is read as a stable board and handed to the referee, whose move recognition
(firmware_bridge.board.recognition) turns lifts and placements into moves. The tablets and the
referee display talk to the referee over MQTT like on a real table.
"""

from __future__ import annotations

import logging
import tempfile
import time
from pathlib import Path

from engine import Square, get_variant
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.referee.broker import EmbeddedBroker, free_port
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import OCCUPANCY, SimulatedBoard

log = logging.getLogger(__name__)


class DemoSystem:
    """Broker + referee + simulated board; `changed()` after every physical change."""

    def __init__(self, variant: str = "classic", board: str = "demo", workdir: Path | None = None,
                 host: str = "127.0.0.1", computer: str | None = None, computer_level: str = "normal") -> None:
        self.variant = get_variant(variant)
        self.computer, self.computer_level = computer, computer_level  # the computer's seat, if any
        self.board_name = board
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if not workdir:
            self._tmp = tempfile.TemporaryDirectory(prefix="arbiter-demo-")
            workdir = Path(self._tmp.name)
        self.workdir = Path(workdir)
        self.broker = EmbeddedBroker(host, free_port(host))
        self.board = SimulatedBoard(self.variant.width, self.variant.height, OCCUPANCY)
        self.referee: Referee | None = None
        self.codes: dict[str, str] = {}  # seat -> pairing code (the fallback without a board)
        self.colors: dict[int, str] = {}  # token tag -> "red"/"blue", for drawing the tokens

    def _remember_code(self, seat: str, code: str) -> None:
        # Shown by the board window; a table without a board shows it on the referee display.
        self.codes[seat] = code

    @property
    def url(self) -> str:
        """The broker URL with the board name, as a tablet types it."""
        return f"{self.broker.url}/{self.board_name}"

    def start(self, referee: bool = True) -> None:
        """Start the broker, then the referee (with `referee` False: later, by `start_referee`)."""
        self.broker.start()
        if referee:
            self.start_referee()

    def start_referee(self) -> None:
        """Start the referee on the running broker (moves come from the board)."""
        settings = RefereeSettings(board=self.board_name, journal_path=self.workdir / "journal.db",
                                   broker_url=self.broker.url, variant=self.variant.name,
                                   board_input=True, name="Demo table", computer=self.computer,
                                   computer_level=self.computer_level)
        self.referee = Referee(settings)
        # The real path: firmware logic and codec scanning the board at 200 Hz, the stabiliser,
        # the recogniser, the referee.
        self.referee.attach_board(SimulatedSource(self.board, scan_hz=200))
        self.referee.on_pairing_code = self._remember_code
        self.referee.start()
        deadline = time.monotonic() + 5
        while self.referee.occupancy is None and time.monotonic() < deadline:
            time.sleep(0.01)  # the first stable board: pairing names an empty square from it

    def stop(self) -> None:
        """Stop the referee and the broker."""
        if self.referee is not None:
            self.referee.stop()
        self.broker.stop()
        if self._tmp is not None:
            self._tmp.cleanup()

    # -- the board ----------------------------------------------------------------------------
    def changed(self) -> None:
        """Nothing to do: the referee's sensor feed scans the simulated board by itself."""

    def tick(self) -> None:
        """Nothing to do: rulings that wait on time are polled by the sensor feed."""

    def expected(self) -> frozenset[str]:
        """Squares that must hold a piece now (the referee's word)."""
        assert self.referee is not None
        return self.referee.stratego.expected_occupancy()

    def place_setups(self) -> None:
        """Put every submitted setup's pieces on the board (what the players do by hand)."""
        assert self.referee is not None
        replay = self.referee.replay.public()  # a recorded game: its position, everything public
        if replay is not None:
            for name, (color, _kind) in replay["position"].items():
                if Square.parse(name) not in self.board.occupied():
                    self.colors[self.board.place(Square.parse(name))] = color
            return
        for color, setup in self.referee.stratego.setups.items():
            for square in setup:
                sq = square if isinstance(square, Square) else Square.parse(square)
                if sq not in self.board.occupied():
                    self.colors[self.board.place(sq)] = color

    def color_at(self, square: Square) -> str | None:
        """The colour of the token on a square (the owner's, as a player sees it)."""
        tag = self.board.tokens().get(square)
        return self.colors.get(tag) if tag else None
