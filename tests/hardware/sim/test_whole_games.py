"""Whole games played by hand on the simulated grid, read over a pty and over mock GPIO, with faults."""

import random

import pytest
from gpiozero.pins.mock import MockFactory

from engine import Move
from firmware_bridge.board.gpio_source import GpioSource
from firmware_bridge.board.snapshots import Stabiliser
from firmware_bridge.board.sources import SerialSource
from hardware.gpio.matrix import GpioMatrix, MockSwitchMatrix
from hardware.profiles import load_profile
from hardware.sim.command import board_for
from hardware.sim.hands import ALL_FAULTS, Hands
from hardware.sim.pty_server import PtySerialServer
from tests.firmware_bridge.helpers import wait_until
from tests.hardware.live_table import LiveTable, random_moves


@pytest.mark.slow  # a soak: a game over the wire
def test_a_game_over_the_serial_protocol_on_a_pty_with_faults_and_an_unplugged_cable():
    rng = random.Random(7)
    board, game = board_for("barrage", identifying=False, seed=7)
    with PtySerialServer(board) as server:
        source = SerialSource(server.device, retry_s=0.05)
        source.start()
        try:
            table = LiveTable(game, board, source, Hands(board, rng, ALL_FAULTS, wire=server))
            assert table.wait_until_matching()
            played = random_moves(table, 6, rng)
            server.unplug()  # the cable is pulled between two moves...
            assert wait_until(lambda: source.status == "disconnected", 10)
            assert "retrying" in source.status_text
            server.replug()  # ...and plugged back in: the game goes on
            assert source.link.wait_connected(5)
            played += random_moves(table, 6, rng)
        finally:
            source.stop()
    assert played and all(made == ruled for made, ruled in played)
    assert game.ply == len(played)


@pytest.mark.slow  # a soak: a game over the wire
def test_a_game_over_mock_gpio_with_bounce_glitches_nudges_and_slides():
    rng = random.Random(11)
    profile = load_profile("8x8")
    board, game = board_for("strategy8", identifying=False, seed=11)
    factory = MockFactory()
    MockSwitchMatrix(factory, profile.gpio_rows, profile.gpio_cols, board.closed_switches())
    matrix = GpioMatrix(profile.gpio_rows, profile.gpio_cols, pin_factory=factory)
    source = GpioSource(matrix, scan_hz=200)
    source.start()
    try:
        # The Pi reads raw switches: the stabiliser debounces them (3 scans), as the firmware would.
        table = LiveTable(game, board, source, Hands(board, rng, ALL_FAULTS),
                          Stabiliser(debounce_samples=3))
        assert table.wait_until_matching()
        played = random_moves(table, 10, rng)
    finally:
        source.stop()
        matrix.close()
    assert played and all(made == ruled for made, ruled in played)
    assert source.scans > 200


@pytest.mark.slow  # a soak: a game over the wire
def test_an_identifying_board_over_a_pty_reads_attacks_by_tag():
    rng = random.Random(5)
    board, game = board_for("duel", identifying=True, seed=5)
    with PtySerialServer(board) as server:
        source = SerialSource(server.device, retry_s=0.05)
        source.start()
        try:
            table = LiveTable(game, board, source, Hands(board, rng))
            assert table.wait_until_matching()
            played = random_moves(table, 6, rng)
        finally:
            source.stop()
    assert played and all(made == ruled for made, ruled in played)
    assert all(isinstance(m, Move) for m, _ in played)
