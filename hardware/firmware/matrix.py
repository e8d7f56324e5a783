"""Scanning a diode-protected switch matrix and debouncing it, square by square.

Valid MicroPython and CPython. Pins are anything with value() / value(v): machine.Pin on
the RP2040, the stand-in in hardware/firmware/sim/machine.py in tests.
"""

# Orientations: where square a1 (Red's left, back row) sits in matrix coordinates.
ORIENTATIONS = ("a1-row0-col0", "rotated-180", "mirrored", "mirrored-180")


def square_index(row, col, width, height, orientation="a1-row0-col0"):
    """The square index (rank * width + file) that matrix row/column sense."""
    rank, file = row, col
    if orientation in ("rotated-180", "mirrored-180"):
        rank = height - 1 - rank
    if orientation in ("rotated-180", "mirrored"):
        file = width - 1 - file
    return rank * width + file


class MatrixSensor:
    """Rows driven low one at a time, columns pulled up: a column reads low through a closed switch.

    One diode per square (anode at the column side) stops closed switches in other rows from
    ghosting into the column, so any combination of pieces reads correctly.
    """

    def __init__(self, row_pins, col_pins, orientation="a1-row0-col0", settle=None):
        self.row_pins = row_pins
        self.col_pins = col_pins
        self.height = len(row_pins)
        self.width = len(col_pins)
        self._settle = settle  # called after driving a row, e.g. a few microseconds on hardware
        self._index = [
            [square_index(r, c, self.width, self.height, orientation) for c in range(self.width)]
            for r in range(self.height)
        ]
        for pin in row_pins:
            pin.value(1)

    def read(self):
        """One scan: a list of bools, True where a square's switch is closed (occupied)."""
        values = [False] * (self.width * self.height)
        for r, row_pin in enumerate(self.row_pins):
            row_pin.value(0)
            if self._settle is not None:
                self._settle()
            index = self._index[r]
            for c, col_pin in enumerate(self.col_pins):
                if not col_pin.value():
                    values[index[c]] = True
            row_pin.value(1)
        return values


class Debouncer:
    """A square's reported value changes only after `scans` consecutive scans agree on it.

    Contact bounce and one-scan glitches never reach the host; a real change costs
    (scans - 1) scan periods of latency.
    """

    def __init__(self, count, scans=3, initial=False):
        self.scans = scans
        self.stable = [initial] * count
        self._candidate = [initial] * count
        self._streak = [0] * count

    def update(self, raw):
        """Feed one scan; True when any square's debounced value changed."""
        changed = False
        stable, candidate, streak = self.stable, self._candidate, self._streak
        for i, value in enumerate(raw):
            if value == stable[i]:
                streak[i] = 0
                continue
            if value != candidate[i] or streak[i] == 0:
                candidate[i] = value
                streak[i] = 1
            else:
                streak[i] += 1
            if streak[i] >= self.scans:
                stable[i] = value
                streak[i] = 0
                changed = True
        return changed
