"""Sensor sources behind one interface: the simulated board through firmware and codec, GPIO, serial."""

import subprocess
import sys

import pytest
from gpiozero.pins.mock import MockFactory

from engine import Square
from firmware_bridge.board.gpio_source import GpioSource
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.board.sources import (
    SOURCES,
    SerialSource,
    SourceError,
    open_source,
    source_factory,
)
from hardware.firmware import protocol
from hardware.profiles import SOURCES as PROFILE_SOURCES
from hardware.profiles import load_profile, parse_profile
from hardware.sim.board import SimulatedBoard, VirtualClock
from tests.firmware_bridge.helpers import wait_until

S = Square.parse


def occupied(reading):
    return {Square(i % reading.width, i // reading.width) for i, v in enumerate(reading.values) if v}


def simulated(width=10):
    clock = VirtualClock()
    board = SimulatedBoard(width, width, clock=clock)
    board.set_position([S("a1")])
    return clock, board, SimulatedSource(board)


def run(clock, source, seconds):
    readings = []
    for _ in range(int(seconds / 0.005)):
        clock.advance(0.005)
        source.step()
        readings += source.readings()
    return readings


def test_the_simulated_source_reports_the_board_through_the_firmware():
    clock, board, source = simulated()
    first = run(clock, source, 0.01)
    assert occupied(first[0]) == {S("a1")}
    board.move(S("a1"), S("a2"))
    changes = [r for r in run(clock, source, 0.05) if r.reason == "change"]
    assert occupied(changes[0]) == {S("a2")}


def test_a_bounce_never_reaches_the_host():
    clock, board, source = simulated()
    run(clock, source, 0.05)
    board.bounce(S("e5"), 0.009)  # shorter than the firmware's three-scan debounce
    assert all(occupied(r) == {S("a1")} for r in run(clock, source, 0.3))


def test_a_lost_change_frame_is_covered_by_its_repeat():
    clock, board, source = simulated()
    run(clock, source, 0.05)
    source.drop_frames(1)
    board.move(S("a1"), S("b1"))
    readings = run(clock, source, 0.05)
    assert readings and occupied(readings[0]) == {S("b1")} and source.dropped == 1


def test_a_corrupt_frame_is_dropped_and_a_fresh_snapshot_asked_for():
    clock, board, source = simulated()
    run(clock, source, 0.05)
    source.corrupt_frames(2)  # the change and its repeat
    board.move(S("a1"), S("c1"))
    readings = run(clock, source, 0.05)
    assert readings and occupied(readings[-1]) == {S("c1")}
    assert source.decoder.errors == 2


def test_leds_sent_to_the_simulated_source_light_the_board():
    clock, board, source = simulated()
    colours = [protocol.LED_OFF] * 100
    colours[0] = protocol.LED_AMBER
    source.show_leds(colours)
    run(clock, source, 0.02)
    assert board.leds == {S("a1"): "amber"}


def test_the_gpio_source_scans_continuously():
    from hardware.gpio.matrix import GpioMatrix, MockSwitchMatrix

    profile = load_profile("8x8")
    factory = MockFactory()
    MockSwitchMatrix(factory, profile.gpio_rows, profile.gpio_cols, lambda r, c: (r, c) == (1, 2))
    source = GpioSource(GpioMatrix(profile.gpio_rows, profile.gpio_cols, pin_factory=factory), 200)
    source.start()
    readings: list = []
    try:
        assert wait_until(lambda: readings.extend(source.readings(timeout=0.01)) or len(readings) >= 5, 10)
    finally:
        source.stop()
        source.matrix.close()
    assert len(readings) >= 5
    assert occupied(readings[-1]) == {S("c2")}


def test_every_source_a_profile_may_name_is_registered_and_a_stranger_is_refused():
    assert set(SOURCES) == set(PROFILE_SOURCES)
    for name in SOURCES:
        assert callable(source_factory(name))
    with pytest.raises(SourceError, match="no sensor source is called 'carrier-pigeon'"):
        source_factory("carrier-pigeon")


def test_a_board_read_over_serial_loads_neither_gpiozero_nor_the_simulator():
    code = ("import sys; from hardware.profiles import load_profile; "
            "from firmware_bridge.board.sources import open_source; "
            "open_source(load_profile('10x10')); "
            "print(sorted(m for m in sys.modules if m.startswith(('gpiozero', 'hardware.sim', "
            "'firmware_bridge.board.sim_source', 'firmware_bridge.board.gpio_source'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_the_gpio_matrix_is_opened_by_name_on_the_pin_factory_given():
    profile = parse_profile({"width": 4, "height": 4, "sensor": {"source": "gpio"},
                             "gpio": {"rows": [5, 6, 13, 19], "cols": [12, 16, 20, 21]}})
    source = open_source(profile, pin_factory=MockFactory())
    try:
        assert isinstance(source, GpioSource) and source.matrix.width == 4
    finally:
        source.matrix.close()


def test_profiles_open_the_source_they_name():
    serial_profile = load_profile("10x10")
    source = open_source(serial_profile)
    assert isinstance(source, SerialSource) and source.link.port == serial_profile.serial_port
    simulated_profile = parse_profile({"width": 8, "height": 8, "sensor": {"source": "simulated"}})
    assert isinstance(open_source(simulated_profile), SimulatedSource)


def test_a_serial_source_without_a_board_says_so_and_keeps_trying(tmp_path):
    source = SerialSource(str(tmp_path / "ttyNOTHING"), retry_s=0.05)
    source.start()
    try:
        assert wait_until(lambda: source.status == "disconnected", 10)
        assert "retrying" in source.status_text
        assert source.readings(timeout=0.01) == []
    finally:
        source.stop()
