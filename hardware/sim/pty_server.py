"""Serve a simulated board over a real pseudo-terminal, through the real scanner firmware.

The firmware (hardware/firmware/main.py, the code that runs on the RP2040) runs in a
background thread with the stand-in `machine` module: its row and column pins are wired
to the simulated board as a diode switch matrix, its USB port is the pty's master side.
The Pi side opens `device` (a stable symlink to the pty slave, like /dev/serial/by-id/...)
with pyserial, exactly as it would open the USB port.

Transport faults: drop_frames(n), corrupt_frames(n), unplug() and replug() (the firmware
loses power with the cable: it restarts with a new HELLO and sequence 0).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import threading
import tty

from hardware.firmware import protocol
from hardware.sim.board import IDENTIFYING, SimulatedBoard


class PtyPort:
    """The firmware's port: writes to the pty master, reads what the host sent; injects faults."""

    def __init__(self, master_fd: int, server: PtySerialServer) -> None:
        self.fd = master_fd
        self.server = server

    def write(self, data: bytes) -> None:
        data = self.server._apply_faults(data)
        if not data:
            return
        try:
            os.write(self.fd, data)
        except BlockingIOError:
            pass  # nobody reading and the buffer is full: like USB CDC with no host, drop it
        except OSError as error:
            if error.errno not in (errno.EIO, errno.EBADF):
                raise

    def read(self) -> bytes:
        try:
            return os.read(self.fd, 512)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            return b""  # EIO: the slave side is not open (host not connected yet)


class PtySerialServer:
    """Runs the scanner firmware for a simulated board on a pseudo-terminal."""

    def __init__(self, board: SimulatedBoard, device: str | None = None,
                 scan_hz: int = 200, debounce_scans: int = 3, keepalive_ms: int = 250) -> None:
        self.board = board
        self.scan_hz = scan_hz
        self.debounce_scans = debounce_scans
        self.keepalive_ms = keepalive_ms
        self._tmpdir = None
        if device is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="arbiter-sim-")
            device = os.path.join(self._tmpdir.name, "ttyARBITER0")
        self.device = device
        self._lock = threading.Lock()
        self._drop = 0
        self._corrupt = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._fds: tuple[int, int] | None = None
        self.firmware = None
        self.frames_sent = 0

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> str:
        """Plug in: create the pty, start the firmware thread; returns the device path."""
        if self._thread is not None:
            return self.device
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline before pyserial opens it
        os.set_blocking(master, False)
        self._fds = (master, slave)
        slave_path = os.ttyname(slave)
        if os.path.lexists(self.device):
            os.unlink(self.device)
        os.symlink(slave_path, self.device)
        self._stop = threading.Event()
        self.firmware = self._build_firmware(PtyPort(master, self))
        self._thread = threading.Thread(target=self._run, args=(self.firmware, self._stop),
                                        name="sim-firmware", daemon=True)
        self._thread.start()
        return self.device

    def _build_firmware(self, port: PtyPort):
        from hardware.firmware.sim import activate

        activate()
        import machine

        from hardware.firmware import main as firmware_main

        board = self.board
        config = dict(firmware_main.CONFIG, width=board.width, height=board.height,
                      rows=list(range(board.height)),
                      cols=list(range(32, 32 + board.width)),
                      scan_hz=self.scan_hz, debounce_scans=self.debounce_scans,
                      keepalive_ms=self.keepalive_ms, name=f"sim-{board.width}x{board.height}")
        leds = board.sensor()  # has show(colours)
        if board.sensor_kind == IDENTIFYING:
            return firmware_main.build(port, config, sensor=board.sensor(), leds=leds,
                                       sensor_kind=protocol.SENSOR_IDENTIFYING)
        wiring = machine.SwitchMatrix(config["rows"], config["cols"],
                                      board.closed_switches(str(config["orientation"])))
        return firmware_main.build(port, config, pin=wiring.pin, leds=leds)

    def _run(self, firmware, stop: threading.Event) -> None:
        from hardware.firmware import main as firmware_main

        firmware_main.run(firmware, should_stop=stop.is_set)

    def stop(self) -> None:
        """Shut the firmware down and close the pty."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._thread = None
        if self._fds is not None:
            for fd in self._fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._fds = None
        if os.path.lexists(self.device):
            os.unlink(self.device)

    def close(self) -> None:
        """Stop and remove the temporary directory."""
        self.stop()
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    def __enter__(self) -> PtySerialServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- faults -----------------------------------------------------------------------------

    def unplug(self) -> None:
        """Pull the USB cable: the device disappears and the firmware loses power."""
        self.stop()

    def replug(self) -> str:
        """Plug the cable back in: the firmware boots again (HELLO, sequence 0)."""
        return self.start()

    def drop_frames(self, count: int = 1) -> None:
        """The next count frames are lost on the way."""
        with self._lock:
            self._drop += count

    @property
    def frames_to_drop(self) -> int:
        """How many of the next frames are still to be lost."""
        with self._lock:
            return self._drop

    def corrupt_frames(self, count: int = 1) -> None:
        """The next count frames arrive with a flipped bit."""
        with self._lock:
            self._corrupt += count

    def _apply_faults(self, frame: bytes) -> bytes:
        with self._lock:
            self.frames_sent += 1
            if self._drop:
                self._drop -= 1
                return b""
            if self._corrupt and len(frame) > 2:
                self._corrupt -= 1
                middle = len(frame) // 2
                flipped = frame[middle] ^ 0x10 or frame[middle] ^ 0x01  # never a delimiter
                return frame[:middle] + bytes((flipped,)) + frame[middle + 1:]
        return frame
