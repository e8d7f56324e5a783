"""RP2040 entry point: copy protocol.py, matrix.py, leds.py, scanner.py and this file to the board.

MicroPython runs main.py at boot. CONFIG below is the pin map a maker edits to match the
wiring (docs/hardware.md). Under CPython the tests import this module with the stand-ins of
hardware/firmware/sim first on sys.path, and call build() and run() with a pseudo-terminal
standing in for the USB port.
"""

import sys
import time

import machine

try:
    import neopixel
except ImportError:
    neopixel = None

try:
    from hardware.firmware import protocol
    from hardware.firmware.leds import LedChain
    from hardware.firmware.matrix import MatrixSensor
    from hardware.firmware.scanner import ScannerFirmware
except ImportError:  # on the RP2040 the modules sit side by side
    import protocol  # type: ignore[no-redef]
    from leds import LedChain  # type: ignore[no-redef]
    from matrix import MatrixSensor  # type: ignore[no-redef]
    from scanner import ScannerFirmware  # type: ignore[no-redef]

CONFIG = {
    "name": "arbiter-10x10",
    "width": 10,
    "height": 10,
    "rows": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],  # GP pins driving ranks 1..10 (through the diodes)
    "cols": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],  # GP pins reading files a..j (pull-ups)
    "orientation": "a1-row0-col0",
    "led_pin": 22,  # WS2812 data; None when the board has no LEDs
    "serpentine": True,
    "scan_hz": 200,
    "debounce_scans": 3,
    "keepalive_ms": 250,
}


def ticks_ms():
    """Milliseconds from a free-running clock (time.ticks_ms on MicroPython)."""
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


class UsbPort:
    """The USB CDC serial port as seen from MicroPython: stdout out, stdin polled in."""

    def __init__(self):
        import select

        import micropython

        micropython.kbd_intr(-1)  # frames contain 0x03 bytes; they must not stop the program
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._out = sys.stdout.buffer
        self._in = sys.stdin.buffer

    def write(self, data):
        """Send bytes to the host."""
        self._out.write(data)

    def read(self):
        """Whatever bytes the host has sent, without blocking."""
        data = bytearray()
        while self._poll.poll(0) and len(data) < 512:
            data.extend(self._in.read(1))
        return bytes(data)


def build(port, config=CONFIG, pin=machine.Pin, sensor=None, leds=None,
          sensor_kind=protocol.SENSOR_OCCUPANCY):
    """The firmware object for a board wired as in config; sensor/leds override the defaults."""
    if sensor is None:
        rows = [pin(p, machine.Pin.OUT, value=1) for p in config["rows"]]
        cols = [pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in config["cols"]]
        sensor = MatrixSensor(rows, cols, config["orientation"])
    if leds is None and config.get("led_pin") is not None and neopixel is not None:
        count = config["width"] * config["height"]
        pixels = neopixel.NeoPixel(pin(config["led_pin"], machine.Pin.OUT), count)
        leds = LedChain(pixels, config["width"], config["height"], config["serpentine"])
    return ScannerFirmware(
        sensor, port, config["width"], config["height"], sensor_kind, leds,
        config["scan_hz"], config["debounce_scans"], config["keepalive_ms"], config["name"])


def run(firmware, should_stop=None):
    """Scan on a hardware timer, answer the host in between, forever (or until should_stop())."""
    due = [0]

    def on_timer(_timer):
        due[0] += 1

    firmware.start(ticks_ms())
    timer = machine.Timer(-1)
    timer.init(mode=machine.Timer.PERIODIC, freq=firmware.scan_hz, callback=on_timer)
    try:
        while should_stop is None or not should_stop():
            if due[0]:
                due[0] = 0  # missed ticks are dropped: scanning late is better than scanning twice
                firmware.scan(ticks_ms())
            firmware.poll_host(ticks_ms())
            machine.idle()
    finally:
        timer.deinit()


if __name__ == "__main__":
    run(build(UsbPort()))
