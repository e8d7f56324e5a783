"""The Pi's serial link against the real firmware on a real pseudo-terminal, opened with pyserial."""

import os
import time

import pytest

from engine import Square
from firmware_bridge.board.serial_link import LinkStatus, SerialLink
from hardware.firmware import protocol
from hardware.sim.board import SimulatedBoard
from hardware.sim.pty_server import PtySerialServer

S = Square.parse


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def occupied(reading) -> set[Square]:
    return {Square(i % reading.width, i // reading.width) for i, v in enumerate(reading.values) if v}


def latest(link: SerialLink, condition, timeout=5.0):
    """The first reading satisfying condition."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            reading = link.readings.get(timeout=0.05)
        except Exception:
            continue
        if condition(reading):
            return reading
    raise AssertionError("no such reading arrived")


@pytest.fixture
def board():
    board = SimulatedBoard(10, 10)
    board.set_position([S("a1"), S("e4")])
    return board


@pytest.fixture
def server(board):
    with PtySerialServer(board) as server:
        yield server


@pytest.fixture
def link(server):
    link = SerialLink(server.device, retry_s=0.05, silence_s=0.5)
    link.start()
    assert link.wait_connected(5)
    yield link
    link.stop()


def test_the_board_introduces_itself_and_reports_what_stands_on_it(link):
    assert link.info.width == 10 and link.info.height == 10 and not link.info.identifying
    assert link.info.firmware == (1, 0, 0)
    assert "connected to sim-10x10" in link.status_text
    assert occupied(latest(link, lambda r: True)) == {S("a1"), S("e4")}


def test_a_move_on_the_board_arrives_as_a_change(board, link):
    board.move(S("e4"), S("e5"))
    reading = latest(link, lambda r: r.reason == "change")
    assert occupied(reading) == {S("a1"), S("e5")}


def test_corrupt_frames_are_dropped_and_the_state_recovered(board, server, link):
    server.corrupt_frames(2)
    board.move(S("e4"), S("e5"))
    reading = latest(link, lambda r: S("e5") in occupied(r))
    assert occupied(reading) == {S("a1"), S("e5")}
    assert link.stats.corrupt >= 1


def test_garbage_on_the_line_never_reaches_the_referee(board, server, link):
    fds = server._fds
    os.write(fds[0], b"\x00\xff\x13garbage\x00\x02\x01\x01\x00" + bytes(range(1, 200)) + b"\x00")
    board.move(S("e4"), S("e5"))
    reading = latest(link, lambda r: S("e5") in occupied(r))
    assert occupied(reading) == {S("a1"), S("e5")}
    assert link.stats.corrupt >= 1 and link.stats.snapshots >= 2


def test_lost_frames_are_counted_and_the_next_snapshot_is_the_truth(board, server, link):
    server.drop_frames(3)
    board.move(S("e4"), S("e5"))
    assert wait_for(lambda: server.frames_to_drop == 0), "the first move's frames are lost on the way"
    board.move(S("a1"), S("a2"))
    reading = latest(link, lambda r: S("a2") in occupied(r), timeout=3)
    assert occupied(reading) == {S("a2"), S("e5")}
    assert link.stats.lost >= 1


def test_an_unplugged_cable_is_reported_and_retried_until_it_is_back(board, server, link):
    statuses = []
    link.on_status = lambda status, text: statuses.append((status, text))
    server.unplug()
    assert wait_for(lambda: link.status == LinkStatus.DISCONNECTED)
    assert "retrying" in link.status_text
    board.move(S("e4"), S("e6"))  # moved while the cable was out
    server.replug()
    assert link.wait_connected(5)
    reading = latest(link, lambda r: S("e6") in occupied(r))
    assert occupied(reading) == {S("a1"), S("e6")}
    assert link.stats.connects >= 2
    assert [s for s, _ in statuses][:1] == [LinkStatus.DISCONNECTED]


def test_a_board_plugged_in_after_the_referee_started_is_found():
    board = SimulatedBoard(8, 8)
    server = PtySerialServer(board)
    link = SerialLink(server.device, retry_s=0.05)
    link.start()
    try:
        assert wait_for(lambda: link.status == LinkStatus.DISCONNECTED)
        assert "no board at" in link.status_text
        server.start()
        assert link.wait_connected(5)
        assert link.info.width == 8
    finally:
        link.stop()
        server.close()


def test_guidance_leds_reach_the_board_and_survive_a_replug(board, server, link):
    colours = [protocol.LED_OFF] * 100
    colours[S("e4").rank * 10 + S("e4").file] = protocol.LED_RED
    link.set_leds(colours)
    assert wait_for(lambda: board.leds == {S("e4"): "red"})
    server.unplug()
    board.leds = {}
    server.replug()
    assert wait_for(lambda: board.leds == {S("e4"): "red"})


def test_identifying_boards_send_tags():
    board = SimulatedBoard(8, 8, "identifying")
    board.set_position({S("b2"): 1234, S("h8"): 7})
    with PtySerialServer(board) as server:
        link = SerialLink(server.device, retry_s=0.05)
        link.start()
        try:
            assert link.wait_connected(5) and link.info.identifying
            reading = latest(link, lambda r: True)
            assert reading.identifying
            assert reading.values[S("b2").rank * 8 + S("b2").file] == 1234
            assert reading.values[63] == 7
        finally:
            link.stop()


def test_a_port_where_no_board_answers_is_asked_again_and_reopened():
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    link = SerialLink(os.ttyname(slave), retry_s=0.05, silence_s=0.1)
    link.start()
    try:
        assert wait_for(lambda: link.stats.connects >= 2, timeout=5)  # gave up on it and reopened
        assert link.status == LinkStatus.WAITING and "waiting for the board" in link.status_text
        sent = b""
        while True:
            try:
                sent += os.read(master, 4096)
            except BlockingIOError:
                break
        requests = protocol.FrameDecoder().feed(sent)
        assert len(requests) >= 2 and {f[0] for f in requests} == {protocol.MSG_REQUEST}
    finally:
        link.stop()
        os.close(master)
        os.close(slave)
