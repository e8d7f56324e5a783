"""The switch matrix scanned by the Pi itself (hardware.gpio.matrix), as a sensor source.

Opened by name ("gpio", sources.SOURCES): only a referee whose profile names the GPIO matrix
imports this module, and gpiozero with it.
"""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Callable
from typing import Any

from firmware_bridge.board.snapshots import Reading
from firmware_bridge.board.threaded_source import ThreadedSource
from hardware.gpio.matrix import GpioMatrix
from hardware.profiles import BoardProfile


class GpioSource(ThreadedSource):
    """The switch matrix scanned by the Pi itself (hardware.gpio.matrix), on a thread."""

    def __init__(self, matrix, scan_hz: int = 200, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(queue_size=2000)
        self.matrix = matrix
        self.scan_hz = scan_hz
        self.clock = clock
        self.scans = 0

    def start(self) -> None:
        """Scan the matrix on a thread."""
        if self._start_thread("gpio-scan"):
            self.status, self.status_text = "connected", f"scanning the GPIO matrix at {self.scan_hz} Hz"

    def _run(self) -> None:
        period = 1.0 / self.scan_hz
        deadline = time.monotonic()
        while not self._stop.is_set():
            values = tuple(self.matrix.read())
            self.scans += 1
            # Every scan goes out, unchanged ones too: the stabiliser debounces by counting scans.
            reading = Reading(values, self.matrix.width, self.matrix.height, self.clock())
            with contextlib.suppress(queue.Full):
                self.queue.put_nowait(reading)
            deadline += period
            delay = deadline - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            else:
                deadline = time.monotonic()

    def show_leds(self, colours: list[int]) -> None:
        """The GPIO board drives no LED chain of its own yet (docs/hardware.md)."""


def gpio_source(profile: BoardProfile, pin_factory: Any = None) -> GpioSource:
    """The GPIO matrix a profile names (rows, columns, orientation), on ``pin_factory``
    (gpiozero's default when None; its mock factory in tests)."""
    matrix = GpioMatrix(profile.gpio_rows, profile.gpio_cols, profile.orientation, pin_factory)
    return GpioSource(matrix, profile.scan_hz)
