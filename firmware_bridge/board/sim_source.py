"""The simulated sensor grid as a sensor source: the real firmware logic and codec, in memory.

For tests, benches and the demo. SimulatedSource scans a hardware.sim SimulatedBoard through
the scanner firmware (ScannerFirmware) and the frame codec without a pty; on a VirtualClock,
step(dt) drives it with no threads at all.
"""

from __future__ import annotations

import threading

from firmware_bridge.board.serial_link import SequenceCheck
from firmware_bridge.board.snapshots import Reading
from firmware_bridge.board.threaded_source import ThreadedSource
from hardware.firmware import protocol
from hardware.firmware.scanner import ScannerFirmware
from hardware.profiles import BoardProfile
from hardware.sim.board import IDENTIFYING, OCCUPANCY, SimulatedBoard


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


class SimulatedSource(ThreadedSource):
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


def simulated_source(profile: BoardProfile, board: SimulatedBoard | None = None) -> SimulatedSource:
    """The source for a profile with source = "simulated", on `board` or a new empty one."""
    kind = IDENTIFYING if profile.identifying else OCCUPANCY
    board = board or SimulatedBoard(profile.width, profile.height, kind)
    return SimulatedSource(board, profile.scan_hz, profile.debounce_scans)
