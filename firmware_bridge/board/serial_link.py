"""The Pi's end of the scanner protocol (docs/serial-protocol.md), over pyserial.

SerialLink runs one background thread that opens the port, decodes frames with the shared
codec (hardware/firmware/protocol.py), checks sequence numbers and hands every good
snapshot on as a Reading. It never gives up: an absent or unplugged device is retried every
`retry_s` until it is back, and `status` / `status_text` say what is going on in words the
referee can show ("board unplugged, retrying", ...).

Recovery rules: a corrupt frame is dropped and a fresh snapshot requested; a duplicate
sequence number is ignored; a gap is counted (snapshots are complete, so the next one is
the truth); silence longer than `silence_s` triggers a request and, if that goes unanswered,
a reopen of the port.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

import serial

from firmware_bridge.board.snapshots import Reading
from hardware.firmware import protocol

REASONS = {protocol.REASON_CHANGE: "change", protocol.REASON_KEEPALIVE: "keepalive",
           protocol.REASON_REQUESTED: "requested"}


class LinkStatus(StrEnum):
    """Where the link stands."""

    STOPPED = "stopped"
    DISCONNECTED = "disconnected"  # no device, or it went away; retrying
    WAITING = "waiting"  # port open, no HELLO yet
    CONNECTED = "connected"  # HELLO received, snapshots flowing
    SILENT = "silent"  # connected but nothing heard for a while


@dataclass(frozen=True)
class BoardInfo:
    """What the scanner said about itself in its HELLO."""

    firmware: tuple[int, int, int]
    width: int
    height: int
    identifying: bool
    scan_hz: int
    name: str


@dataclass
class LinkStats:
    """Counters for the status page and the tests."""

    frames: int = 0
    snapshots: int = 0
    corrupt: int = 0
    duplicates: int = 0
    lost: int = 0  # frames missing according to sequence gaps
    bad_payloads: int = 0
    connects: int = 0
    requests: int = 0
    board_status: list[str] = field(default_factory=list)


class SequenceCheck:
    """Accepts each board frame once and in order: duplicates and stale copies are refused."""

    def __init__(self) -> None:
        self.last: int | None = None
        self.duplicates = 0
        self.lost = 0

    def reset(self, seq: int | None = None) -> None:
        """Start afresh (the board said HELLO: its sequence restarts)."""
        self.last = seq

    def accept(self, seq: int) -> bool:
        """True for a frame newer than the last accepted one; gaps are counted as lost frames."""
        if self.last is None:
            self.last = seq
            return True
        distance = protocol.seq_distance(self.last, seq)
        if distance == 0 or distance >= 0x8000:
            self.duplicates += 1  # a repeat or a stale copy: the newer state is already here
            return False
        self.lost += distance - 1
        self.last = seq
        return True


class SerialLink:
    """Keeps a scanner connected and turns its frames into Readings."""

    def __init__(self, port: str, baudrate: int = 115200,
                 on_reading: Callable[[Reading], None] | None = None,
                 on_status: Callable[[LinkStatus, str], None] | None = None,
                 retry_s: float = 0.5, silence_s: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.baudrate = baudrate
        self.on_reading = on_reading
        self.on_status = on_status
        self.retry_s = retry_s
        self.silence_s = silence_s
        self.clock = clock
        self.readings: queue.Queue[Reading] = queue.Queue(maxsize=1000)
        self.stats = LinkStats()
        self.info: BoardInfo | None = None
        self.status = LinkStatus.STOPPED
        self.status_text = "not started"
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._tx_seq = 0
        self._leds: list[int] | None = None
        self._sequence = SequenceCheck()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- public -------------------------------------------------------------------------

    def start(self) -> None:
        """Start the background thread (returns at once; watch `status`)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="serial-link", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._close()
        self._set_status(LinkStatus.STOPPED, "stopped")

    def wait_connected(self, timeout: float = 5.0) -> bool:
        """Block until the board has said hello (True) or the timeout passed (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status == LinkStatus.CONNECTED:
                return True
            time.sleep(0.01)
        return self.status == LinkStatus.CONNECTED

    def set_leds(self, colours: list[int]) -> None:
        """Show LED colour codes, one per square; remembered and re-sent after a reconnect."""
        self._leds = list(colours)
        self._send(protocol.MSG_SET_LEDS, protocol.pack_leds(self._leds))

    def request_snapshot(self) -> None:
        """Ask the board for HELLO and a full snapshot now."""
        self.stats.requests += 1
        self._send(protocol.MSG_REQUEST, b"")

    # --- thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._open():
                self._stop.wait(self.retry_s)
                continue
            try:
                self._serve()
            except (serial.SerialException, OSError, TypeError) as error:
                # TypeError: pyserial's own bug path when the fd is closed under it
                self._set_status(LinkStatus.DISCONNECTED, f"board unplugged ({error}); retrying")
            self._close()
            if not self._stop.is_set():
                self._stop.wait(self.retry_s)

    def _open(self) -> bool:
        try:
            self._serial = serial.Serial(self.port, self.baudrate, timeout=0.01)
        except (serial.SerialException, OSError) as error:
            self._serial = None
            if self.status != LinkStatus.DISCONNECTED:
                self._set_status(LinkStatus.DISCONNECTED, f"no board at {self.port} ({error}); retrying")
            return False
        self.stats.connects += 1
        self.info = None
        self._sequence = SequenceCheck()
        self._set_status(LinkStatus.WAITING, f"port {self.port} open, waiting for the board")
        self.request_snapshot()
        return True

    def _close(self) -> None:
        with self._write_lock:
            if self._serial is not None:
                with contextlib.suppress(Exception):
                    self._serial.close()
                self._serial = None

    def _serve(self) -> None:
        decoder = protocol.FrameDecoder()
        last_heard = self.clock()
        asked_at = last_heard
        while not self._stop.is_set():
            port = self._serial
            if port is None:
                return
            data = port.read(max(1, port.in_waiting))
            now = self.clock()
            if data:
                errors = decoder.errors
                frames = decoder.feed(data)
                if frames:
                    last_heard = now
                for msg_type, seq, payload in frames:
                    self._handle(msg_type, seq, payload, now)
                if decoder.errors > errors:
                    self.stats.corrupt += decoder.errors - errors
                    self.request_snapshot()  # the lost frame may have been a change
            silent_for = now - last_heard
            if silent_for > self.silence_s and now - asked_at > self.silence_s:
                if silent_for > 3 * self.silence_s:
                    raise serial.SerialException("board silent")
                if self.status == LinkStatus.CONNECTED:
                    self._set_status(LinkStatus.SILENT, "board not answering; asking again")
                asked_at = now
                self.request_snapshot()

    def _handle(self, msg_type: int, seq: int, payload: bytes, now: float) -> None:
        self.stats.frames += 1
        if msg_type == protocol.MSG_HELLO:
            try:
                hello = protocol.unpack_hello(payload)
            except protocol.ProtocolError as error:
                self.stats.bad_payloads += 1
                self._set_status(LinkStatus.WAITING, f"board speaks another protocol: {error}")
                return
            self.info = BoardInfo(hello["firmware"], hello["width"], hello["height"],
                                  hello["sensor_kind"] == protocol.SENSOR_IDENTIFYING,
                                  hello["scan_hz"], hello["name"])
            self._sequence.reset(seq)
            version = ".".join(str(n) for n in self.info.firmware)
            self._set_status(LinkStatus.CONNECTED, f"connected to {self.info.name} "
                             f"({self.info.width}x{self.info.height}, firmware {version})")
            if self._leds is not None and len(self._leds) == self.info.width * self.info.height:
                self._send(protocol.MSG_SET_LEDS, protocol.pack_leds(self._leds))
            return
        duplicates, lost = self._sequence.duplicates, self._sequence.lost
        accepted = self._sequence.accept(seq)
        self.stats.duplicates += self._sequence.duplicates - duplicates
        self.stats.lost += self._sequence.lost - lost
        if not accepted:
            return
        if msg_type == protocol.MSG_SNAPSHOT:
            self._snapshot(payload, now)
        elif msg_type == protocol.MSG_STATUS:
            with contextlib.suppress(protocol.ProtocolError):
                self.stats.board_status.append(protocol.unpack_status(payload)[1])
        else:
            self.stats.bad_payloads += 1

    def _snapshot(self, payload: bytes, now: float) -> None:
        info = self.info
        if info is None:
            self.request_snapshot()  # geometry unknown until HELLO
            return
        kind = protocol.SENSOR_IDENTIFYING if info.identifying else protocol.SENSOR_OCCUPANCY
        try:
            reason, _scan, age_ms, values = protocol.unpack_snapshot(
                kind, info.width * info.height, payload)
        except protocol.ProtocolError:
            self.stats.bad_payloads += 1
            return
        self.stats.snapshots += 1
        if self.status == LinkStatus.SILENT:
            self._set_status(LinkStatus.CONNECTED, f"connected to {info.name}")
        reading = Reading(tuple(values), info.width, info.height, now, info.identifying,
                          REASONS[reason], age_ms / 1000.0)
        if self.on_reading is not None:
            self.on_reading(reading)
        else:
            while True:
                try:
                    self.readings.put_nowait(reading)
                    break
                except queue.Full:  # nobody is consuming: the newest state matters, drop the oldest
                    with contextlib.suppress(queue.Empty):
                        self.readings.get_nowait()

    def _send(self, msg_type: int, payload: bytes) -> None:
        with self._write_lock:
            if self._serial is None:
                return
            frame = protocol.encode_frame(msg_type, self._tx_seq, payload)
            self._tx_seq = (self._tx_seq + 1) & 0xFFFF
            with contextlib.suppress(serial.SerialException, OSError):
                self._serial.write(frame)

    def _set_status(self, status: LinkStatus, text: str) -> None:
        changed = (status, text) != (self.status, self.status_text)
        self.status, self.status_text = status, text
        if changed and self.on_status is not None:
            self.on_status(status, text)
