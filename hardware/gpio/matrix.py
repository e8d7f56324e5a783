"""Scanning the switch matrix from the Pi's own GPIO with gpiozero.

Wiring (docs/hardware.md): each row pin drives one rank, each column pin reads one file
with the Pi's internal pull-up, and every square has a reed switch in series with a diode
from its column to its row. Scanning drives one row low at a time: a column then reads low
exactly when that row's switch in it is closed; the diodes keep other closed switches from
creating phantom paths.

MockSwitchMatrix wires gpiozero's MockFactory pins the same way for tests and benches:
its column pins compute their level from the row pins and a closed(row, col) function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gpiozero import InputDevice, OutputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.firmware.matrix import square_index


class GpioMatrix:
    """A rows x columns switch matrix read through gpiozero devices."""

    def __init__(self, row_pins: Sequence[int | str], col_pins: Sequence[int | str],
                 orientation: str = "a1-row0-col0", pin_factory=None) -> None:
        self.height = len(row_pins)
        self.width = len(col_pins)
        self.rows: list[OutputDevice] = []
        self.cols: list[InputDevice] = []
        try:
            # active_high=False: on() pulls the row low, which is what selects it.
            self.rows = [OutputDevice(p, active_high=False, initial_value=False, pin_factory=pin_factory)
                         for p in row_pins]
            self.cols = [InputDevice(p, pull_up=True, pin_factory=pin_factory) for p in col_pins]
        except Exception:
            self.close()
            raise
        self._index = [[square_index(r, c, self.width, self.height, orientation)
                        for c in range(self.width)] for r in range(self.height)]

    def read(self) -> list[bool]:
        """One full scan: True where a square's switch is closed."""
        values = [False] * (self.width * self.height)
        cols = self.cols
        for row, index in zip(self.rows, self._index, strict=True):
            row.on()
            for c, col in enumerate(cols):
                if col.is_active:  # pull-up input: active means pulled low through the switch
                    values[index[c]] = True
            row.off()
        return values

    def close(self) -> None:
        """Release the pins."""
        for device in self.rows + self.cols:
            device.close()
        self.rows, self.cols = [], []


class _MatrixRowPin(MockPin):
    """A mock output that keeps no history (a scan toggles it thousands of times a second)."""

    def _change_state(self, value):
        self._state = value
        return True


class _MatrixColumnPin(MockPin):
    """A mock input that reads low when a row driven low has a closed switch in this column."""

    def __init__(self, factory, info, matrix: MockSwitchMatrix, column: int):
        self._matrix = matrix
        self._column = column
        super().__init__(factory, info)

    def _get_state(self):
        if self._function == "input" and self._matrix.column_pulled_low(self._column):
            return False
        return self._state


class MockSwitchMatrix:
    """Pins on a gpiozero MockFactory wired as a diode-protected switch matrix."""

    def __init__(self, factory: MockFactory, row_pins: Sequence[int], col_pins: Sequence[int],
                 closed: Callable[[int, int], bool]) -> None:
        self.closed = closed
        self.row_pins = [factory.pin(p, pin_class=_MatrixRowPin) for p in row_pins]
        self.col_pins = [factory.pin(p, pin_class=_MatrixColumnPin, matrix=self, column=c)
                         for c, p in enumerate(col_pins)]

    def column_pulled_low(self, column: int) -> bool:
        """True when some row is driven low and its switch in this column is closed."""
        for row, pin in enumerate(self.row_pins):
            if pin._function == "output" and not pin._state and self.closed(row, column):
                return True
        return False
