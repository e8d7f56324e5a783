"""The scanner firmware, run under CPython with the stand-in `machine` module."""

from hardware.firmware import protocol
from hardware.firmware.leds import LedChain, chain_index
from hardware.firmware.matrix import Debouncer, MatrixSensor, square_index
from hardware.firmware.scanner import ScannerFirmware
from hardware.firmware.sim import activate

activate()
import machine  # noqa: E402  (the stand-in, after activate())
import neopixel  # noqa: E402


def wired_matrix(closed: set[tuple[int, int]], rows: int = 4, cols: int = 4):
    wiring = machine.SwitchMatrix(list(range(rows)), list(range(10, 10 + cols)),
                                  lambda r, c: (r, c) in closed)
    row_pins = [wiring.pin(i, machine.Pin.OUT, value=1) for i in range(rows)]
    col_pins = [wiring.pin(10 + i, machine.Pin.IN, machine.Pin.PULL_UP) for i in range(cols)]
    return MatrixSensor(row_pins, col_pins)


def test_the_matrix_reads_exactly_the_closed_switches():
    sensor = wired_matrix({(0, 0), (2, 3)})
    values = sensor.read()
    assert [i for i, v in enumerate(values) if v] == [0, 2 * 4 + 3]


def test_three_closed_corners_do_not_ghost_the_fourth_thanks_to_the_diodes():
    sensor = wired_matrix({(0, 0), (0, 1), (1, 0)})
    values = sensor.read()
    assert values[square_index(1, 1, 4, 4)] is False
    assert sum(values) == 3


def test_orientation_maps_matrix_corners_to_squares():
    assert square_index(0, 0, 10, 10, "rotated-180") == 99
    assert square_index(0, 0, 10, 10, "mirrored") == 9
    assert square_index(0, 0, 8, 8, "mirrored-180") == 56


class MemoryPort:
    def __init__(self):
        self.sent = bytearray()
        self.inbox = bytearray()

    def write(self, data):
        self.sent += data

    def read(self):
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def frames(self):
        frames = protocol.FrameDecoder().feed(bytes(self.sent))
        self.sent = bytearray()
        return frames


class Squares:
    def __init__(self, count):
        self.values = [False] * count

    def read(self):
        return list(self.values)


def test_debouncing_needs_three_agreeing_scans_and_ignores_bounce():
    debouncer = Debouncer(1, scans=3)
    assert [debouncer.update([v]) for v in (True, False, True, True)] == [False, False, False, False]
    assert debouncer.update([True]) is True and debouncer.stable == [True]


def test_firmware_says_hello_then_reports_changes_and_keeps_alive():
    squares, port = Squares(16), MemoryPort()
    firmware = ScannerFirmware(squares, port, 4, 4, keepalive_ms=250, name="test")
    firmware.start(0)
    hello, first = port.frames()
    assert hello[0] == protocol.MSG_HELLO and protocol.unpack_hello(hello[2])["name"] == "test"
    assert first[0] == protocol.MSG_SNAPSHOT and first[1] == hello[1] + 1
    squares.values[5] = True
    for now in (5, 10, 15):
        firmware.scan(now)
    (change,) = port.frames()
    reason, _, age, values = protocol.unpack_snapshot(0, 16, change[2])
    assert reason == protocol.REASON_CHANGE and values[5] and age == 0
    firmware.scan(30)  # the same change once more, same sequence number, in case one was lost
    assert port.frames() == [change]
    firmware.scan(200)
    assert port.frames() == []
    firmware.scan(270)
    (keepalive,) = port.frames()
    reason, _, age, _ = protocol.unpack_snapshot(0, 16, keepalive[2])
    assert reason == protocol.REASON_KEEPALIVE and age == 255


def test_firmware_obeys_led_commands_and_reports_bad_ones():
    pixels = neopixel.NeoPixel(machine.Pin(22, machine.Pin.OUT), 16)
    port = MemoryPort()
    firmware = ScannerFirmware(Squares(16), port, 4, 4, leds=LedChain(pixels, 4, 4))
    firmware.start(0)
    port.frames()
    colours = [protocol.LED_OFF] * 16
    colours[4] = protocol.LED_RED  # a2: second rank, first file; the chain snakes back there
    port.inbox += protocol.encode_frame(protocol.MSG_SET_LEDS, 0, protocol.pack_leds(colours))
    firmware.poll_host(1)
    assert pixels.shown[chain_index(4, 4)] == protocol.LED_COLOURS[protocol.LED_RED]
    assert chain_index(4, 4) == 7
    port.inbox += protocol.encode_frame(protocol.MSG_SET_LEDS, 1, b"\x09" * 16)
    port.inbox += b"garbage\x00"
    firmware.poll_host(2)
    (status,) = port.frames()
    assert status[0] == protocol.MSG_STATUS and "LED colour" in protocol.unpack_status(status[2])[1]
    assert firmware.bad_commands == 2


def test_a_request_gets_hello_and_a_fresh_snapshot():
    port = MemoryPort()
    firmware = ScannerFirmware(Squares(16), port, 4, 4)
    firmware.start(0)
    port.frames()
    port.inbox += protocol.encode_frame(protocol.MSG_REQUEST, 0, b"")
    firmware.poll_host(5)
    assert [f[0] for f in port.frames()] == [protocol.MSG_HELLO, protocol.MSG_SNAPSHOT]


def test_main_builds_the_firmware_from_its_pin_map_and_runs_on_the_timer():
    from hardware.firmware import main

    closed = {(0, 0), (9, 9)}
    wiring = machine.SwitchMatrix(main.CONFIG["rows"], main.CONFIG["cols"], lambda r, c: (r, c) in closed)
    port = MemoryPort()
    firmware = main.build(port, pin=wiring.pin)
    scans = []
    main.run(firmware, should_stop=lambda: scans.append(firmware.scan_count) or firmware.scan_count >= 5)
    frames = port.frames()
    assert frames[0][0] == protocol.MSG_HELLO
    _, _, _, values = protocol.unpack_snapshot(0, 100, frames[1][2])
    assert [i for i, v in enumerate(values) if v] == [0, 99]
