"""A small stand-in for MicroPython's `machine` module: Pin, Timer, idle, with a wiring model.

Pins read their level from a Wiring object; SwitchMatrix wires a diode-protected switch
matrix so a column pin reads low exactly when a row driven low has a closed switch on it.
"""

import threading
import time


class Wiring:
    """What the pins are connected to: driven levels by pin id, and how inputs read."""

    def __init__(self):
        self.levels = {}
        self.lock = threading.Lock()

    def drive(self, pin_id, level):
        """An output pin sets its level."""
        self.levels[pin_id] = level

    def read(self, pin_id, pull):
        """The level an input pin sees; floating inputs follow their pull resistor."""
        return 1 if pull == Pin.PULL_UP else 0

    def pin(self, pin_id, mode=-1, pull=None, value=None):
        """A Pin on this wiring (machine.Pin's signature)."""
        return Pin(pin_id, mode, pull, value, wiring=self)


class SwitchMatrix(Wiring):
    """Rows and columns of switches, one diode per square; closed(row, col) says which are shut."""

    def __init__(self, row_ids, col_ids, closed):
        super().__init__()
        self.row_of = {pin_id: r for r, pin_id in enumerate(row_ids)}
        self.col_of = {pin_id: c for c, pin_id in enumerate(col_ids)}
        self.closed = closed
        self._low_rows = set()

    def drive(self, pin_id, level):
        super().drive(pin_id, level)
        row = self.row_of.get(pin_id)
        if row is not None:
            if level:
                self._low_rows.discard(row)
            else:
                self._low_rows.add(row)

    def read(self, pin_id, pull):
        col = self.col_of.get(pin_id)
        if col is not None:
            # The diode lets current flow only from the column into a row driven low.
            for row in self._low_rows:
                if self.closed(row, col):
                    return 0
        return super().read(pin_id, pull)


DEFAULT_WIRING = Wiring()


class Pin:
    """machine.Pin: value() reads, value(v) drives; also callable like on MicroPython."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode=-1, pull=None, value=None, wiring=None):
        self.id = pin_id
        self.wiring = wiring or DEFAULT_WIRING
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=None, value=None):
        """Reconfigure the pin."""
        if mode != -1:
            self.mode = mode
        elif not hasattr(self, "mode"):
            self.mode = Pin.IN
        self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, level=None):
        """Read the pin, or drive it when level is given."""
        if level is None:
            if self.mode == Pin.OUT:
                return self.wiring.levels.get(self.id, 0)
            return self.wiring.read(self.id, self.pull)
        self.wiring.drive(self.id, 1 if level else 0)
        return None

    __call__ = value

    def on(self):
        """Drive high."""
        self.value(1)

    def off(self):
        """Drive low."""
        self.value(0)


class Timer:
    """machine.Timer: a periodic callback on a background thread."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, timer_id=-1, **kwargs):
        self._stop = threading.Event()
        self._thread = None
        if kwargs:
            self.init(**kwargs)

    def init(self, mode=PERIODIC, freq=None, period=None, callback=None):
        """Start calling callback(timer) every period ms or freq times per second."""
        self.deinit()
        interval = 1.0 / freq if freq else (period or 1000) / 1000.0
        self._stop = threading.Event()

        def tick():
            deadline = time.monotonic()
            while not self._stop.is_set():
                deadline += interval
                delay = deadline - time.monotonic()
                if delay > 0 and self._stop.wait(delay):
                    return
                if delay < -interval:  # fell behind (machine busy): skip, as hardware would
                    deadline = time.monotonic()
                callback(self)
                if mode == Timer.ONE_SHOT:
                    return

        self._thread = threading.Thread(target=tick, name="machine.Timer", daemon=True)
        self._thread.start()

    def deinit(self):
        """Stop the timer."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)
        self._thread = None


def idle():
    """Wait a little for the next interrupt."""
    time.sleep(0.0002)


def unique_id():
    """The board's serial number."""
    return b"SIMBOARD"


def freq():
    """CPU clock in Hz."""
    return 125_000_000
