"""A virtual sensor grid: tokens on squares, hands that move them, and faults on demand.

The board only knows squares and tokens, never pieces or rules. Its sensors are read with
`read_values(now)`: one value per square (index = rank * width + file), a bool for
occupancy sensors or an int tag (0 = empty) for identifying sensors. The real transports
sit on top: hardware.sim.pty_server serves it through the scanner firmware over a pseudo-terminal,
hardware.gpio.matrix's mock pins read it as a switch matrix.

Thread-safe: the demo window, a pty server thread and tests may call it at once.
Time comes from `clock` (time.monotonic by default; a VirtualClock makes benches fast).
Physical actions that take time (a slide, a bounce) are scheduled on that clock.
"""

from __future__ import annotations

import heapq
import itertools
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from engine import Square

OCCUPANCY = "occupancy"
IDENTIFYING = "identifying"


class VirtualClock:
    """A clock that only moves when told to: simulated time for fast, repeatable runs."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        self.now += seconds


@dataclass
class _Override:
    """A fault that changes what one square's sensor reads for a while."""

    square: Square
    start: float
    end: float
    mode: str  # "empty" | "occupied" | "flicker"
    tag: int = 0


class SimulatedBoard:
    """Tokens on a grid of squares, lifted and placed like by hand, read like a sensor grid."""

    def __init__(self, width: int = 10, height: int = 10, sensor_kind: str = OCCUPANCY,
                 clock: Callable[[], float] = time.monotonic, seed: int | None = None) -> None:
        if sensor_kind not in (OCCUPANCY, IDENTIFYING):
            raise ValueError(f"unknown sensor kind {sensor_kind!r}")
        self.width = width
        self.height = height
        self.sensor_kind = sensor_kind
        self.clock = clock
        self.rng = random.Random(seed)
        self._lock = threading.RLock()
        self._tokens: dict[Square, int] = {}
        self._hand: list[int] = []  # tokens lifted and not yet placed, last lifted last
        self._overrides: list[_Override] = []
        self._glitches: dict[Square, int] = {}  # square -> scans still to be inverted
        self._schedule: list[tuple[float, int, Callable[[], object]]] = []
        self._order = itertools.count()
        self._next_tag = itertools.count(1)
        self._listeners: list[Callable[[], None]] = []
        self.leds: dict[Square, str] = {}  # square -> colour name, as the firmware last lit them
        self.last_change = clock()  # when the physical board last changed (for latency benches)

    # --- geometry ---------------------------------------------------------------------

    def squares(self) -> list[Square]:
        """Every square, in sensor index order."""
        return [Square(i % self.width, i // self.width) for i in range(self.width * self.height)]

    def index(self, square: Square) -> int:
        """The sensor index of a square."""
        self._check(square)
        return square.rank * self.width + square.file

    def _check(self, square: Square) -> None:
        if not (0 <= square.file < self.width and 0 <= square.rank < self.height):
            raise ValueError(f"{square} is not on a {self.width}x{self.height} board")

    # --- hands ------------------------------------------------------------------------

    def set_position(self, squares: Iterable[Square] | dict[Square, int]) -> None:
        """Put tokens on exactly these squares (tags given, or fresh ones)."""
        with self._lock:
            self._tokens = {}
            self._hand = []
            items = squares.items() if isinstance(squares, dict) else ((s, None) for s in squares)
            for square, tag in items:
                self._check(square)
                self._tokens[square] = tag if tag else next(self._next_tag)
            self._changed()

    def lift(self, square: Square) -> int:
        """Take the token off a square into the hand; returns its tag."""
        with self._lock:
            self._advance()
            if square not in self._tokens:
                raise ValueError(f"no token on {square} to lift")
            tag = self._tokens.pop(square)
            self._hand.append(tag)
            self._changed()
            return tag

    def place(self, square: Square, token: int | None = None) -> int:
        """Put a token on an empty square: the given tag, else the last one lifted, else a new one."""
        with self._lock:
            self._advance()
            self._check(square)
            if square in self._tokens:
                raise ValueError(f"{square} is already occupied")
            if token is None:
                token = self._hand.pop() if self._hand else next(self._next_tag)
            elif token in self._hand:
                self._hand.remove(token)
            self._tokens[square] = token
            self._changed()
            return token

    def move(self, origin: Square, target: Square) -> None:
        """Lift a token and put it on an empty square in one go."""
        with self._lock:
            self.place(target, self.lift(origin))

    def remove(self, square: Square) -> int:
        """Take a token off the board for good (a captured piece); returns its tag."""
        with self._lock:
            tag = self.lift(square)
            self._hand.remove(tag)
            return tag

    def discard(self, token: int) -> None:
        """Put a token from the hand into the box (a captured piece leaves the game)."""
        with self._lock:
            self._hand.remove(token)

    def occupied(self) -> frozenset[Square]:
        """The squares with a token on them (the truth, without sensor faults)."""
        with self._lock:
            self._advance()
            return frozenset(self._tokens)

    def tokens(self) -> dict[Square, int]:
        """Tag of the token on each occupied square."""
        with self._lock:
            self._advance()
            return dict(self._tokens)

    def in_hand(self) -> list[int]:
        """Tags lifted and not yet put down."""
        with self._lock:
            return list(self._hand)

    def add_listener(self, callback: Callable[[], None]) -> None:
        """Call callback() (from any thread) after every physical change, e.g. to redraw."""
        with self._lock:
            self._listeners.append(callback)

    def _changed(self) -> None:
        self.last_change = self.clock()
        for callback in list(self._listeners):
            callback()

    # --- things that take time ---------------------------------------------------------

    def after(self, delay: float, action: Callable[[], object]) -> None:
        """Run action on the board's clock once delay seconds have passed."""
        with self._lock:
            heapq.heappush(self._schedule, (self.clock() + delay, next(self._order), action))

    def pending(self) -> bool:
        """True while scheduled actions (slides, settling pieces) are still to happen."""
        with self._lock:
            self._advance()
            return bool(self._schedule)

    def _advance(self) -> None:
        now = self.clock()
        while self._schedule and self._schedule[0][0] <= now:
            _, _, action = heapq.heappop(self._schedule)
            action()

    def slide(self, origin: Square, target: Square, step_s: float = 0.06) -> None:
        """Slide a token in a straight line: it passes over (and is sensed on) every square between."""
        path = _straight_path(origin, target)
        with self._lock:
            tag = self.lift(origin)
            for i, square in enumerate(path):
                self.after(i * step_s, partial(self._touch, square, tag, step_s * 1.2))
            self.after(len(path) * step_s, lambda: self.place(target, tag))

    def _touch(self, square: Square, tag: int, duration: float) -> None:
        if square not in self._tokens:
            now = self.clock()
            self._overrides.append(_Override(square, now, now + duration, "occupied", tag))
            self._changed()

    # --- sensor faults ------------------------------------------------------------------

    def bounce(self, square: Square, duration: float = 0.012) -> None:
        """Contact bounce: the square's reading chatters for a short while from now."""
        self._add_override(square, duration, "flicker")

    def glitch(self, square: Square, scans: int = 1) -> None:
        """The next `scans` readings of a square come out inverted (noise, a stray magnet)."""
        with self._lock:
            self._glitches[square] = self._glitches.get(square, 0) + scans

    def between(self, square_a: Square, square_b: Square, duration: float = 0.3) -> None:
        """A piece resting between two squares: both readings flicker for duration."""
        self._add_override(square_a, duration, "flicker")
        self._add_override(square_b, duration, "flicker")

    def nudge(self, square: Square, duration: float = 0.08) -> None:
        """A neighbour knocked by a hand: its sensor loses the piece for a moment."""
        self._add_override(square, duration, "empty")

    def _add_override(self, square: Square, duration: float, mode: str) -> None:
        with self._lock:
            self._check(square)
            now = self.clock()
            self._overrides.append(_Override(square, now, now + duration, mode,
                                             self._tokens.get(square, 0) or next(self._next_tag)))
            self._changed()

    # --- sensing -------------------------------------------------------------------------

    def read_values(self) -> list:
        """What the sensors read now: one value per square, faults included."""
        with self._lock:
            self._advance()
            now = self.clock()
            identifying = self.sensor_kind == IDENTIFYING
            values: list = [0] * (self.width * self.height) if identifying else \
                [False] * (self.width * self.height)
            for square, tag in self._tokens.items():
                values[square.rank * self.width + square.file] = tag if identifying else True
            if self._overrides:
                self._overrides = [o for o in self._overrides if o.end > now]
                for override in self._overrides:
                    index = override.square.rank * self.width + override.square.file
                    if override.mode == "empty":
                        present = False
                    elif override.mode == "occupied":
                        present = True
                    else:
                        present = self.rng.random() < 0.5
                    values[index] = (override.tag if present else 0) if identifying else present
            for square, left in list(self._glitches.items()):
                index = square.rank * self.width + square.file
                if identifying:
                    values[index] = 0 if values[index] else 0xBEEF
                else:
                    values[index] = not values[index]
                if left <= 1:
                    del self._glitches[square]
                else:
                    self._glitches[square] = left - 1
            return values

    def sensor(self) -> _BoardSensor:
        """A firmware sensor object (read() -> values) reading this board directly."""
        return _BoardSensor(self)

    def closed_switches(self, orientation: str = "a1-row0-col0") -> Callable[[int, int], bool]:
        """closed(row, col) for a switch matrix wired to this board; one board read per scan."""
        from hardware.firmware.matrix import square_index

        last_read: float | None = None
        values: list[object] = []

        def closed(row: int, col: int) -> bool:
            nonlocal last_read, values
            now = self.clock()
            # A matrix scan takes well under a millisecond: read the board once per scan.
            if last_read is None or now - last_read > 0.001:
                values = self.read_values()
                last_read = now
            return bool(values[square_index(row, col, self.width, self.height, orientation)])

        return closed

    def show_leds(self, colours: list[int]) -> None:
        """Take the LED colour codes the firmware was told to show."""
        from hardware.firmware import protocol

        names = {protocol.LED_GREEN: "green", protocol.LED_RED: "red", protocol.LED_AMBER: "amber",
                 protocol.LED_BLUE: "blue", protocol.LED_WHITE: "white"}
        with self._lock:
            self.leds = {square: names[code] for square, code in zip(self.squares(), colours, strict=True)
                         if code in names}
        for callback in list(self._listeners):
            callback()


class _BoardSensor:
    """The firmware's view of the board: read() as a scan, show() for the LED chain."""

    def __init__(self, board: SimulatedBoard) -> None:
        self.board = board

    def read(self) -> list:
        return self.board.read_values()

    def show(self, colours: list[int]) -> None:
        self.board.show_leds(colours)


def _straight_path(origin: Square, target: Square) -> list[Square]:
    """The squares strictly between two squares on a line (empty if not on a line)."""
    df = (target.file > origin.file) - (target.file < origin.file)
    dr = (target.rank > origin.rank) - (target.rank < origin.rank)
    if df and dr:
        return []
    path = []
    square = Square(origin.file + df, origin.rank + dr)
    while square != target:
        path.append(square)
        square = Square(square.file + df, square.rank + dr)
    return path
