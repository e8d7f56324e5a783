"""The referee's board side: sensor readings -> stable boards -> the recogniser -> rulings.

One thread reads the sensor source, stabilises, and hands each stable board and each poll to
:class:`BoardWatcher`, which owns the MoveRecognizer and turns its observations into calls on
the referee (rulings, guidance, pairing by a piece on a square), together with the position the
session's last ruling left. LEDs show the guidance where the board has them.

A board nobody watched (the referee starting in the middle of a game after a crash, the sensor
link coming back after the cable was out) is compared with the last ruled position once before
moves are read again: one unseen legal move is ruled (firmware_bridge.board.recovery), anything
else guided back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from engine import Move
from firmware_bridge.board.guidance import as_plan, led_colours, plan_steps
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.recognition import (
    BoardMatches,
    BoardMismatch,
    MoveMade,
    MoveRecognizer,
)
from firmware_bridge.board.snapshots import Stabiliser, StableBoard

log = logging.getLogger(__name__)


class BoardWatcher:
    """Reads the board against the position the session's rulings leave; reports the moves seen.

    The session hands over an ExpectedPosition with every call (the same object until a ruling
    changes it); the watcher never sees the game.
    """

    def __init__(self, on_move: Callable[[MoveMade], None],
                 volcano_markers_sensed: bool | None = None) -> None:
        self.on_move = on_move
        self.volcano_markers_sensed = volcano_markers_sensed  # see recognition's docstring
        self.recognizer: MoveRecognizer | None = None
        self.guidance: BoardMismatch | None = None
        self.board: StableBoard | None = None
        self.last_illegal: Move | None = None
        self._position: ExpectedPosition | None = None
        # The referee starts: if a game is under way, its board went unwatched while it was down.
        self._resume_first = True

    def follow(self, position: ExpectedPosition | None) -> bool:
        """The position the board must show now (None: no game is being played); True when it
        changed what the board must show."""
        if position is self._position:
            return False
        self._position = position
        resume, self._resume_first = self._resume_first, False
        if position is None:
            changed = self.recognizer is not None
            self.recognizer = None
            return changed
        if self.recognizer is None or self.recognizer.position.game != position.game:
            # A new game: its pieces are new pieces (tags, beliefs and all are forgotten).
            self.recognizer = MoveRecognizer(position, volcano_markers_sensed=self.volcano_markers_sensed)
            if resume:
                self.recognizer.resume()
            if self.board is not None:
                self._handle(self.recognizer.feed(self.board))
            return True
        if position == self.recognizer.position:  # a ruling that left the board as it was
            return False
        self.last_illegal = None
        self._handle(self.recognizer.expect(position))
        return True

    def feed(self, board: StableBoard, position: ExpectedPosition | None) -> None:
        """A new stable board."""
        self.board = board
        self.follow(position)
        if self.recognizer is not None:
            self._handle(self.recognizer.feed(board))

    def poll(self, now: float, position: ExpectedPosition | None) -> bool:
        """Reports that wait on time (a scout's hold, patience), and the position of a ruling made
        elsewhere (a tablet's takeback, a resignation); True if anything happened."""
        changed = self.follow(position)
        if self.recognizer is None:
            return changed
        observations = self.recognizer.poll(now)
        self._handle(observations)
        return changed or bool(observations)

    def ruled(self, position: ExpectedPosition | None) -> None:
        """A ruling changed the position: let the recogniser read it and guide."""
        self.follow(position)

    def resume(self) -> None:
        """The sensors were away (the link to the board dropped and came back): read the board
        afresh against the last ruled position before reading moves again."""
        log.info("the board is read again after the sensors were away")
        self.last_illegal = None
        if self.recognizer is not None:
            self.recognizer.resume()

    def refused(self, move: Move) -> None:
        """The session refused (or ignored) a move seen on the board: it is to be put back."""
        self.last_illegal = move
        if self.recognizer is not None:
            self.recognizer.refused(move)

    def _handle(self, observations: list) -> None:
        for observation in observations:
            if isinstance(observation, MoveMade):
                self.on_move(observation)
            elif isinstance(observation, BoardMismatch):
                self.guidance = observation
            elif isinstance(observation, BoardMatches):
                self.guidance = None
                self.last_illegal = None

    def check(self) -> dict:
        """The board_check of the public state: what to change on the board, nearest first."""
        if self.recognizer is None or self.board is None:
            return board_check_dict(None, reading=False)
        # reading: moves are read again (the recogniser confirmed the board after a restore).
        return board_check_dict(self.recognizer.guidance(), reading=not self.recognizer.restoring,
                                volcanoes=self.recognizer.position.volcanoes)

    def leds(self, width: int, height: int, last_move=None) -> list[int]:
        """LED colours for the current guidance."""
        guidance = self.recognizer.guidance() if self.recognizer and self.board else None
        if self.recognizer is None or guidance is None:
            return led_colours(width, height, last_move=last_move)
        volcanoes = self.recognizer.position.volcanoes if self.recognizer else ()
        steps = plan_steps(guidance.clear, guidance.fill, guidance.wrong, volcanoes=volcanoes)
        return led_colours(width, height, steps, illegal=self.last_illegal)


def board_check_dict(guidance: BoardMismatch | None, reading: bool, volcanoes=()) -> dict:
    """The public ``board_check``: squares to clear/fill/replace, the reason, and the same as
    a plan of steps ({"action": "remove", "square": "d7"}, firmware_bridge.protocol.board_steps)."""
    if guidance is None:
        return {"matches": True, "clear": [], "fill": [], "wrong": [], "reason": None,
                "reading": reading, "plan": []}
    steps = plan_steps(guidance.clear, guidance.fill, guidance.wrong, volcanoes=volcanoes)
    return {"matches": False, "clear": [s.name for s in guidance.clear],
            "fill": [s.name for s in guidance.fill], "wrong": [s.name for s in guidance.wrong],
            "reason": guidance.reason, "reading": reading, "plan": as_plan(steps)}


class SensorFeed:
    """A thread: source readings -> Stabiliser -> ``on_stable``; ``on_poll`` every few ms."""

    def __init__(self, source, on_stable: Callable[[StableBoard], None],
                 on_poll: Callable[[float], None], stabiliser: Stabiliser | None = None,
                 clock: Callable[[], float] = time.monotonic, period: float = 0.004,
                 on_resume: Callable[[], None] | None = None) -> None:
        self.source = source
        self.on_stable, self.on_poll = on_stable, on_poll
        self.on_resume = on_resume  # the source connected again after it was lost
        self.reconnects = 0
        self._status = "stopped"
        self._connected_once = False
        self.stabiliser = stabiliser or Stabiliser(debounce_samples=1, quiet_s=0.02)
        self.clock, self.period = clock, period
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the source and the reading thread."""
        self.source.start()
        self._thread = threading.Thread(target=self._run, name="sensor-feed", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop reading and stop the source."""
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self.source.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._watch_status()
                for reading in self.source.readings(timeout=self.period):
                    stable = self.stabiliser.feed(reading)
                    if stable is not None:
                        self.on_stable(stable)
                now = self.clock()
                stable = self.stabiliser.poll(now)
                if stable is not None:
                    self.on_stable(stable)
                self.on_poll(now)
            except Exception:  # a bad frame or a bug in one board state must not stop the referee
                log.exception("sensor feed step failed")
                time.sleep(self.period)

    def _watch_status(self) -> None:
        """Tell ``on_resume`` when the source is connected again (a replugged cable)."""
        status = str(getattr(self.source, "status", "connected"))
        before, self._status = self._status, status
        if status != "connected" or before in ("connected", "silent"):
            return
        if not self._connected_once:
            self._connected_once = True  # the first connection: the watcher resumes by itself
            return
        # Readings from before the link dropped must not be mixed with the board as it is now.
        self.stabiliser.reset()
        log.warning("the board is connected again (%s)", getattr(self.source, "status_text", ""))
        if self.on_resume is not None:
            self.on_resume()
        self.reconnects += 1  # counted once resumed: a test waiting on it sees the board re-read
