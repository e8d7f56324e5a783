"""The scanner firmware's logic: scan, debounce, report snapshots, obey LED commands.

Valid MicroPython and CPython. Hardware comes in through plain objects so that the same
code runs on the RP2040 (main.py wires machine.Pin, USB serial, neopixel) and in tests
(the simulated board wires stand-ins):
    sensor.read() -> list of values, one per square (bool, or int tag for identifying sensors)
    port.write(data) ; port.read() -> bytes available now (b"" if none)
    leds.show(colour_codes)   (optional)
"""

try:
    from hardware.firmware import protocol
    from hardware.firmware.matrix import Debouncer
except ImportError:  # on the RP2040 the modules sit side by side
    import protocol  # type: ignore[no-redef]
    from matrix import Debouncer  # type: ignore[no-redef]

FIRMWARE_VERSION = (1, 0, 0)


class ScannerFirmware:
    """One scanner: call scan(now_ms) at the scan rate and poll_host() often."""

    def __init__(self, sensor, port, width, height, sensor_kind=protocol.SENSOR_OCCUPANCY,
                 leds=None, scan_hz=200, debounce_scans=3, keepalive_ms=250, name="arbiter",
                 repeat_ms=15):
        self.sensor = sensor
        self.port = port
        self.width = width
        self.height = height
        self.sensor_kind = sensor_kind
        self.leds = leds
        self.scan_hz = scan_hz
        self.keepalive_ms = keepalive_ms
        self.name = name
        initial = False if sensor_kind == protocol.SENSOR_OCCUPANCY else 0
        self.debouncer = Debouncer(width * height, debounce_scans, initial)
        self.decoder = protocol.FrameDecoder()
        self.seq = 0
        self.scan_count = 0
        self._last_sent_ms = None
        self._last_change_ms = 0
        self.repeat_ms = repeat_ms
        self._repeat = None  # (due_ms, frame): a change report sent again with the same seq
        self.bad_commands = 0

    def _send(self, msg_type, payload):
        frame = protocol.encode_frame(msg_type, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFFFF
        self._write(frame)
        return frame

    def _write(self, frame):
        try:  # noqa: SIM105 -- MicroPython has no contextlib
            self.port.write(frame)
        except OSError:
            pass  # host not listening (cable out, buffer full): the next snapshot carries the state

    def send_hello(self):
        """Announce firmware version, geometry and sensor kind."""
        self._send(protocol.MSG_HELLO, protocol.pack_hello(
            FIRMWARE_VERSION, self.width, self.height, self.sensor_kind, self.scan_hz, self.name))

    def send_snapshot(self, reason, now_ms=None):
        """Send the full debounced board state and how long ago it last changed."""
        age = 0 if now_ms is None else now_ms - self._last_change_ms
        frame = self._send(protocol.MSG_SNAPSHOT, protocol.pack_snapshot(
            self.sensor_kind, reason, self.scan_count, self.debouncer.stable, age))
        if now_ms is not None:
            self._last_sent_ms = now_ms
            if reason == protocol.REASON_CHANGE and self.repeat_ms:
                # Every change goes out twice (same seq: the host drops the copy) so that one
                # lost frame never hides a lift that was put back before the next report.
                self._repeat = (now_ms + self.repeat_ms, frame)

    def start(self, now_ms=0):
        """Say hello and report the initial state (first scans are taken as they are)."""
        raw = self.sensor.read()
        self.debouncer.stable = list(raw)
        self._last_change_ms = now_ms
        self.send_hello()
        self.send_snapshot(protocol.REASON_REQUESTED, now_ms)

    def scan(self, now_ms):
        """One scan: debounce, and report on change or when the keep-alive is due."""
        changed = self.debouncer.update(self.sensor.read())
        self.scan_count = (self.scan_count + 1) & 0xFFFFFFFF
        if self._repeat is not None and now_ms >= self._repeat[0]:
            self._write(self._repeat[1])
            self._repeat = None
        if changed:
            self._last_change_ms = now_ms
            self.send_snapshot(protocol.REASON_CHANGE, now_ms)
        elif self._last_sent_ms is None or now_ms - self._last_sent_ms >= self.keepalive_ms:
            self.send_snapshot(protocol.REASON_KEEPALIVE, now_ms)

    def poll_host(self, now_ms=None):
        """Read and obey whatever commands the host has sent."""
        data = self.port.read()
        if not data:
            return
        errors_before = self.decoder.errors
        for msg_type, _seq, payload in self.decoder.feed(data):
            self._handle(msg_type, payload, now_ms)
        self.bad_commands += self.decoder.errors - errors_before

    def _handle(self, msg_type, payload, now_ms):
        if msg_type == protocol.MSG_REQUEST:
            self.send_hello()
            self.send_snapshot(protocol.REASON_REQUESTED, now_ms)
        elif msg_type == protocol.MSG_SET_LEDS:
            try:
                colours = protocol.unpack_leds(self.width * self.height, payload)
            except protocol.ProtocolError as error:
                self.bad_commands += 1
                self._send(protocol.MSG_STATUS, protocol.pack_status(1, str(error)))
                return
            if self.leds is not None:
                self.leds.show(colours)
        else:
            self.bad_commands += 1
            self._send(protocol.MSG_STATUS, protocol.pack_status(1, "unknown command " + str(msg_type)))
