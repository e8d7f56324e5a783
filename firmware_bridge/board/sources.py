"""Sensor sources: the serial scanner, the Pi's GPIO matrix and the simulated board, one interface.

Every source produces Readings (firmware_bridge.board.snapshots) for the stabiliser:

    source = open_source(profile)             # or SerialSource / GpioSource / SimulatedSource
    source.start()
    for reading in source.readings(timeout=0.005):   # what arrived; waits up to timeout
        ...
    source.show_leds(colour_codes)            # guidance LEDs, where the board has them
    source.status, source.status_text         # "connected", "disconnected", ... for the referee
    source.stop()

SimulatedSource (firmware_bridge.board.sim_source) can also run on a VirtualClock: step(dt) scans the simulated board through the
real firmware logic and codec in memory (no threads, no pty), which is how the robustness bench
plays thousands of games in minutes.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from firmware_bridge.board.serial_link import LinkStatus, SerialLink
from firmware_bridge.board.snapshots import Reading
from hardware.profiles import BoardProfile

if TYPE_CHECKING:  # types only: neither is loaded when the board is read over serial
    from gpiozero import Factory as PinFactory

    from hardware.sim.board import SimulatedBoard


class SensorSource(Protocol):
    """What the referee needs from any sensor grid."""

    @property
    def status(self) -> str:
        """Where the source stands: "connected", "disconnected", "stopped", ..."""

    @property
    def status_text(self) -> str:
        """The status in words, for people ("board unplugged ...; retrying")."""

    def start(self) -> None:
        """Begin producing readings."""

    def stop(self) -> None:
        """Stop and release the hardware."""

    def readings(self, timeout: float = 0.0) -> list[Reading]:
        """Readings that arrived since the last call, waiting up to timeout for the first."""

    def show_leds(self, colours: list[int]) -> None:
        """Light the guidance LEDs (one colour code per square); ignored without LEDs."""


def _drain(q: queue.Queue[Reading], timeout: float) -> list[Reading]:
    try:
        out = [q.get(timeout=timeout) if timeout > 0 else q.get_nowait()]
    except queue.Empty:
        return []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


class ThreadedSource:
    """What the GPIO and simulated sources share: a reading queue, a status and a scan thread."""

    def __init__(self, queue_size: int = 0) -> None:
        self.queue: queue.Queue[Reading] = queue.Queue(maxsize=queue_size)
        self.status = "stopped"
        self.status_text = "not started"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _start_thread(self, name: str) -> bool:
        """Start ``_run`` on a thread unless one runs; True if it was started now."""
        if self._thread is not None:
            return False
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        return True

    def _run(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        """Stop the scan thread and wait for it (at most 2 s)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self.status, self.status_text = "stopped", "stopped"

    def readings(self, timeout: float = 0.0) -> list[Reading]:
        """Readings that arrived since the last call, waiting up to timeout for the first."""
        return _drain(self.queue, timeout)


class SerialSource:
    """A scanner microcontroller on a serial port (reconnects by itself)."""

    def __init__(self, port: str, baudrate: int = 115200, retry_s: float = 0.5) -> None:
        self.link = SerialLink(port, baudrate, retry_s=retry_s)

    @property
    def status(self) -> str:
        return str(self.link.status)

    @property
    def status_text(self) -> str:
        return self.link.status_text

    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    def readings(self, timeout: float = 0.0) -> list[Reading]:
        return _drain(self.link.readings, timeout)

    def show_leds(self, colours: list[int]) -> None:
        self.link.set_leds(colours)

    def connected(self) -> bool:
        """True while snapshots flow."""
        return self.link.status == LinkStatus.CONNECTED


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


def open_source(profile: BoardProfile, board: SimulatedBoard | None = None,
                pin_factory: PinFactory | None = None) -> SensorSource:
    """The sensor source a board profile describes (a simulated board for source = "simulated")."""
    if profile.source == "serial":
        return SerialSource(profile.serial_port, profile.baudrate)
    if profile.source == "gpio":
        from hardware.gpio.matrix import GpioMatrix

        matrix = GpioMatrix(profile.gpio_rows, profile.gpio_cols, profile.orientation, pin_factory)
        return GpioSource(matrix, profile.scan_hz)
    # Imported here, not at the top: a referee on a Pi reading a real board never loads the
    # simulator (nor gpiozero when it reads over serial).
    from firmware_bridge.board.sim_source import simulated_source

    return simulated_source(profile, board)
