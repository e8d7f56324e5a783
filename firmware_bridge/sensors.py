"""Sensor sources: the serial scanner, the Pi's GPIO matrix and the simulated board, one interface.

Every source produces Readings (firmware_bridge.snapshots) for the stabiliser:

    source = open_source(profile)             # or SerialSource / GpioSource / SimulatedSource
    source.start()
    for reading in source.readings(timeout=0.005):   # what arrived; waits up to timeout
        ...
    source.show_leds(colour_codes)            # guidance LEDs, where the board has them
    source.status, source.status_text         # "connected", "disconnected", ... for the referee
    source.stop()

SimulatedSource can also run on a VirtualClock: step(dt) scans the simulated board through the
real firmware logic and codec in memory (no threads, no pty), which is how the robustness bench
plays thousands of games in minutes.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Protocol

from firmware_bridge.serial_link import LinkStatus, SequenceCheck, SerialLink
from firmware_bridge.snapshots import Reading
from hardware.firmware import protocol
from hardware.firmware.scanner import ScannerFirmware
from hardware.profiles import BoardProfile
from hardware.simulated_board import IDENTIFYING, SimulatedBoard


class SensorSource(Protocol):
    """What the referee needs from any sensor grid."""

    status: str
    status_text: str

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


class _ThreadedSource:
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


class GpioSource(_ThreadedSource):
    """The switch matrix scanned by the Pi itself (hardware.gpio_matrix), on a thread."""

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


class _MemoryPort:
    """A firmware port into a list of bytes, with the simulated cable's faults."""

    def __init__(self, source: SimulatedSource) -> None:
        self.source = source
        self.inbox = bytearray()

    def write(self, data: bytes) -> None:
        self.source._wire(data)

    def read(self) -> bytes:
        data, self.inbox = bytes(self.inbox), bytearray()
        return data


class SimulatedSource(_ThreadedSource):
    """The simulated board read through the real firmware logic and codec, in memory.

    Use step(dt) on a VirtualClock (deterministic, fast) or start() for a real-time thread.
    Faults on the wire: drop_frames(n), corrupt_frames(n).
    """

    def __init__(self, board: SimulatedBoard, scan_hz: int = 200, debounce_scans: int = 3,
                 keepalive_ms: int = 250) -> None:
        super().__init__()
        self.board = board
        self.scan_hz = scan_hz
        kind = protocol.SENSOR_IDENTIFYING if board.sensor_kind == IDENTIFYING else protocol.SENSOR_OCCUPANCY
        self.sensor_kind = kind
        self.port = _MemoryPort(self)
        self.firmware = ScannerFirmware(board.sensor(), self.port, board.width, board.height, kind,
                                        leds=board.sensor(), scan_hz=scan_hz,
                                        debounce_scans=debounce_scans, keepalive_ms=keepalive_ms)
        self.decoder = protocol.FrameDecoder()
        self.sequence = SequenceCheck()
        self.dropped = 0
        self.corrupted = 0
        self._drop = 0
        self._corrupt = 0
        self._tx_seq = 0
        self._next_scan: float | None = None
        self._scan_time = board.clock()
        self._lock = threading.Lock()

    def _now_ms(self) -> int:
        return int(self.board.clock() * 1000)

    def _wire(self, frame: bytes) -> None:
        if self._drop:
            self._drop -= 1
            self.dropped += 1
            return
        if self._corrupt:
            self._corrupt -= 1
            self.corrupted += 1
            middle = len(frame) // 2
            frame = frame[:middle] + bytes((frame[middle] ^ 0x10 or frame[middle] ^ 0x01,)) + frame[middle + 1:]
        errors = self.decoder.errors
        for msg_type, seq, payload in self.decoder.feed(frame):
            if msg_type == protocol.MSG_HELLO:
                self.sequence.reset(seq)
            elif msg_type == protocol.MSG_SNAPSHOT and self.sequence.accept(seq):
                squares = self.board.width * self.board.height
                reason, _scan, age_ms, values = protocol.unpack_snapshot(self.sensor_kind, squares, payload)
                self.queue.put(Reading(tuple(values), self.board.width, self.board.height,
                                       self._scan_time, self.sensor_kind == protocol.SENSOR_IDENTIFYING,
                                       "change" if reason == protocol.REASON_CHANGE else "keepalive",
                                       age_ms / 1000.0))
        if self.decoder.errors > errors:
            self.request_snapshot()  # as the serial link does on a corrupt frame

    def request_snapshot(self) -> None:
        """The host's resync request, delivered to the firmware."""
        self.port.inbox += protocol.encode_frame(protocol.MSG_REQUEST, self._tx_seq, b"")
        self._tx_seq += 1

    def drop_frames(self, count: int = 1) -> None:
        """Lose the next count frames."""
        self._drop += count

    def corrupt_frames(self, count: int = 1) -> None:
        """Flip a bit in the next count frames."""
        self._corrupt += count

    def step(self, until: float | None = None) -> None:
        """Run every scan that is due by `until` (default: the board clock's now)."""
        with self._lock:
            now = self.board.clock() if until is None else until
            period = 1.0 / self.scan_hz
            if self._next_scan is None:
                self.firmware.start(self._now_ms())
                self._next_scan = now + period
                self.status, self.status_text = "connected", "simulated board"
            while self._next_scan <= now:
                self._scan_time = self._next_scan
                self.firmware.scan(int(self._next_scan * 1000))
                self.firmware.poll_host(int(self._next_scan * 1000))
                self._next_scan += period

    def start(self) -> None:
        """Scan in real time on a thread (board clock must be time.monotonic)."""
        self._start_thread("sim-source")

    def _run(self) -> None:
        while not self._stop.wait(1.0 / self.scan_hz):
            self.step()

    def show_leds(self, colours: list[int]) -> None:
        self.port.inbox += protocol.encode_frame(protocol.MSG_SET_LEDS, self._tx_seq,
                                                 protocol.pack_leds(colours))
        self._tx_seq += 1


def open_source(profile: BoardProfile, board: SimulatedBoard | None = None,
                pin_factory=None) -> SensorSource:
    """The sensor source a board profile describes (a simulated board for source = "simulated")."""
    if profile.source == "serial":
        return SerialSource(profile.serial_port, profile.baudrate)
    if profile.source == "gpio":
        from hardware.gpio_matrix import GpioMatrix

        matrix = GpioMatrix(profile.gpio_rows, profile.gpio_cols, profile.orientation, pin_factory)
        return GpioSource(matrix, profile.scan_hz)
    kind = IDENTIFYING if profile.identifying else "occupancy"
    board = board or SimulatedBoard(profile.width, profile.height, kind)
    return SimulatedSource(board, profile.scan_hz, profile.debounce_scans)
