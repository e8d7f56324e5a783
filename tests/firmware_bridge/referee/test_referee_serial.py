"""The deployed path: `arbiter referee` reading the scanner firmware over a real pseudo-terminal."""

from __future__ import annotations

import random

import pytest

from engine import Square
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from hardware.sim.board import SimulatedBoard
from hardware.sim.pty_server import PtySerialServer
from tests.firmware_bridge.helpers import journal_sign_key, setup_dict
from tests.firmware_bridge.referee_process import RefereeProcess

VARIANT = "barrage"


@pytest.fixture
def serial_board():
    board = SimulatedBoard(10, 10)
    server = PtySerialServer(board)
    device = server.start()
    yield board, device
    server.close()


def test_the_referee_process_pairs_and_rules_moves_read_over_serial(mosquitto, tmp_path, serial_board):
    board, device = serial_board
    profile = tmp_path / "pty-board.toml"
    profile.write_text(f'name = "pty-board"\nwidth = 10\nheight = 10\nvariants = ["{VARIANT}"]\n'
                       f'[sensor]\nsource = "serial"\nserial_port = "{device}"\n'
                       '[gpio]\n[leds]\nenabled = false\n')
    config = tmp_path / "referee.toml"
    config.write_text(f'[board]\nname = "pty"\nprofile = "{profile}"\ninput = "board"\n'
                      f'[game]\nvariant = "{VARIANT}"\n[broker]\nurl = "{mosquitto.url}"\n'
                      f'[journal]\npath = "{tmp_path / "journal.db"}"\n[announce]\nenabled = false\n')
    process = RefereeProcess(config).start()
    seats = {seat: SeatClient(mosquitto.url, "pty") for seat in ("red", "blue")}
    display = DisplayClient(mosquitto.url, "pty")
    try:
        for client in (*seats.values(), display):
            assert client.start()
        display.pin_key(journal_sign_key(tmp_path / "journal.db"))
        assert display.wait(lambda c: c.state is not None and c.state["board_check"] is not None, 20), \
            "the referee never read the board over the pty"
        for seat, client in seats.items():
            client.pair(seat)
            assert client.wait(lambda c: (c.last_pairing or {}).get("squares"), 10), client.last_pairing
            squares = [Square.parse(name) for name in client.last_pairing["squares"]]
            for square in squares:
                board.place(square)
            assert client.wait(lambda c: c.paired, 10), f"pieces on {squares} did not grant {seat}"
            for square in squares:
                board.remove(square)
        setups = {seat: setup_dict(VARIANT, seat, 21) for seat in seats}
        for seat, client in seats.items():
            client.setup(setups[seat])
        board.set_position([Square.parse(s) for setup in setups.values() for s in setup])
        assert display.wait(lambda c: c.state["phase"] == "playing" and c.state["board_check"]["reading"], 20)
        # A red piece (not a scout: its ruling waits for it to stop) steps forward.
        occupied = {s.name for s in board.occupied()}
        lakes = {"c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"}
        steps = [(Square.parse(s), Square(Square.parse(s).file, Square.parse(s).rank + 1))
                 for s, kind in sorted(setups["red"].items()) if kind not in ("bomb", "flag", "scout")]
        steps = [(a, b) for a, b in steps if b.name not in occupied and b.name not in lakes]
        assert steps, "this setup has no piece that can step forward"
        origin, target = random.Random(4).choice(steps)
        board.move(origin, target)
        for client in seats.values():
            assert client.wait(lambda c: c.view and c.view["last_move"] == f"{origin.name}-{target.name}", 10)
    finally:
        for client in (*seats.values(), display):
            client.stop()
        assert process.stop() == 0
