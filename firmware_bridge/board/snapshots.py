"""From raw sensor readings to stable board states.

A Reading is one report of every square (from the serial link, a GPIO scan or the simulated
board). The Stabiliser debounces each square over a few readings (needed for raw GPIO
scans; the serial firmware already debounces, so it uses 1) and then waits until the whole
board has been quiet for `quiet_s` before it hands out a StableBoard. Hands in motion
and a slid scout produce short-lived states; those never become stable unless they last.
A square that chatters (changes `chatter_changes` times within `chatter_window_s`, reverts
to its previous value within `revert_s`, or fills within `revert_s` of a neighbour: a piece
resting across two squares or passing over them, a knocked piece, a worn contact) makes the
board wait `chatter_quiet_s` instead, so a half-placed piece is not read as placed.

Both feed() and poll() return the new StableBoard when one is established, else None; call
poll(now) regularly (every few ms) because a board becomes stable by *not* changing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine import Square


@dataclass(frozen=True)
class Reading:
    """Every square's sensor value at one moment: bool (occupancy) or int tag (0 = empty)."""

    values: tuple
    width: int
    height: int
    time: float
    identifying: bool = False
    reason: str = "scan"  # "change" | "keepalive" | "requested" | "scan"
    changed_ago: float = 0.0  # the source says the values last changed this long before `time`


@dataclass(frozen=True)
class StableBoard:
    """A board state that held still for the quiet period."""

    values: tuple
    width: int
    height: int
    time: float  # when it was recognised as stable
    changed_at: float  # when the last square changed to reach it
    identifying: bool = False
    _occupied: frozenset[Square] = field(default=frozenset(), compare=False, repr=False)
    # Every debounced change since the previous stable board, in order: (square, time, value).
    # States too short to be stable still show here (a target emptied for a moment in an attack).
    events: tuple[tuple[Square, float, object], ...] = field(default=(), compare=False, repr=False)
    # Asks the stabiliser that made this board whether newer changes are still settling, so a
    # recogniser waiting on stillness (a scout's hold) never rules while the board still moves.
    still_settling: Callable[[], bool] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_values(cls, values, width: int, height: int, time: float = 0.0,
                    changed_at: float | None = None, identifying: bool = False,
                    events: tuple = ()) -> StableBoard:
        """Build one, computing the occupied set once."""
        values = tuple(values)
        occupied = frozenset(Square(i % width, i // width) for i, v in enumerate(values) if v)
        return cls(values, width, height, time, time if changed_at is None else changed_at,
                   identifying, occupied, events)

    @classmethod
    def from_squares(cls, occupied, width: int, height: int, time: float = 0.0) -> StableBoard:
        """An occupancy board with exactly these squares occupied."""
        values = [False] * (width * height)
        for square in occupied:
            values[square.rank * width + square.file] = True
        return cls.from_values(values, width, height, time)

    def occupied(self) -> frozenset[Square]:
        """The squares a piece is sensed on."""
        return self._occupied

    def tag_at(self, square: Square) -> int:
        """The tag sensed on a square (0 when empty); occupancy boards report 1 for occupied."""
        value = self.values[square.rank * self.width + square.file]
        return int(value) if self.identifying else (1 if value else 0)


class Stabiliser:
    """Debounces squares over `debounce_samples` readings, then waits for `quiet_s` of stillness."""

    def __init__(self, debounce_samples: int = 1, quiet_s: float = 0.02,
                 chatter_changes: int = 3, chatter_window_s: float = 0.3,
                 chatter_quiet_s: float = 0.25, revert_s: float = 0.08) -> None:
        if debounce_samples < 1:
            raise ValueError("debounce_samples must be at least 1")
        self.debounce_samples = debounce_samples
        self.quiet_s = quiet_s
        self.chatter_changes = chatter_changes
        self.chatter_window_s = chatter_window_s
        self.chatter_quiet_s = chatter_quiet_s
        self.revert_s = revert_s
        self._recent: dict[int, list[float]] = {}  # square index -> times of its recent changes
        self._needed_quiet = quiet_s
        self._events: list[tuple[int, float, object]] = []
        self._filled_at: dict[int, float] = {}  # square index -> when it last became occupied
        self._current: list | None = None
        self._candidate: list = []
        self._streak: list[int] = []
        self._changed_at = 0.0
        self._geometry: tuple[int, int, bool] | None = None
        self._emitted: tuple | None = None
        self.last: StableBoard | None = None

    def reset(self) -> None:
        """Forget everything (after a reconnect the next reading is taken as it is)."""
        self._current = None
        self._emitted = None

    def feed(self, reading: Reading) -> StableBoard | None:
        """Take one reading; returns a StableBoard if the board just became stable."""
        geometry = (reading.width, reading.height, reading.identifying)
        if self._current is None or geometry != self._geometry or \
                len(reading.values) != len(self._current):
            self._geometry = geometry
            self._current = list(reading.values)
            self._candidate = list(reading.values)
            self._streak = [0] * len(reading.values)
            self._changed_at = reading.time
            self._emitted = None
            self._recent.clear()
            self._events = []
            self._filled_at = {}
        else:
            self._debounce(reading)
        return self.poll(reading.time)

    def _debounce(self, reading: Reading) -> None:
        current, candidate, streak = self._current, self._candidate, self._streak
        assert current is not None  # feed() takes the first reading as it is
        needed = self.debounce_samples
        for i, value in enumerate(reading.values):
            if value == current[i]:
                streak[i] = 0
                continue
            if streak[i] and value == candidate[i]:
                streak[i] += 1
            else:
                candidate[i] = value
                streak[i] = 1
            if streak[i] >= needed:
                current[i] = value
                streak[i] = 0
                # A change reported late (its own frame lost) is dated when it happened.
                when = max(self._changed_at, reading.time - reading.changed_ago)
                self._changed_at = when
                self._note_change(i, when, bool(value))
                self._events.append((i, when, value))

    def _note_change(self, index: int, now: float, occupied: bool) -> None:
        horizon = now - self.chatter_window_s
        times = [t for t in self._recent.get(index, ()) if t > horizon]
        reverted = bool(times) and now - times[-1] <= self.revert_s
        times.append(now)
        self._recent[index] = times
        if len(times) >= self.chatter_changes or reverted or (occupied and self._straddled(index, now)):
            self._needed_quiet = max(self.quiet_s, self.chatter_quiet_s)
        if occupied:
            self._filled_at[index] = now

    def _straddled(self, index: int, now: float) -> bool:
        """A neighbour filled at nearly the same moment: one piece resting across two squares."""
        assert self._geometry is not None
        width = self._geometry[0]
        neighbours = [index - width, index + width]
        if index % width:
            neighbours.append(index - 1)
        if index % width != width - 1:
            neighbours.append(index + 1)
        return any(now - self._filled_at.get(n, -1e9) <= self.revert_s for n in neighbours)

    def poll(self, now: float) -> StableBoard | None:
        """A StableBoard if the debounced board has now been quiet long enough and is new."""
        if self._current is None or now - self._changed_at < self._needed_quiet:
            return None
        self._needed_quiet = self.quiet_s
        self._recent.clear()
        values = tuple(self._current)
        if values == self._emitted and not self._events:
            return None
        # Back where it was, but through changes (a target emptied and refilled): report it,
        # the recogniser needs those changes.
        self._emitted = values
        assert self._geometry is not None  # set with the first reading, as _current is
        width, height, identifying = self._geometry
        events = tuple((Square(i % width, i // width), t, v) for i, t, v in self._events)
        self._events = []
        board = StableBoard.from_values(values, width, height, now, self._changed_at,
                                        identifying, events)
        self.last = replace(board, still_settling=self.settling)
        return self.last

    def settling(self) -> bool:
        """True while the board has changed and is not yet stable."""
        return self._current is not None and (bool(self._events) or tuple(self._current) != self._emitted)
