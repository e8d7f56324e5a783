"""The computer seat in the running referee: over MQTT, with a board and without one."""

from __future__ import annotations

import random

from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard
from tests.firmware_bridge.helpers import pair_by_code, setup_dict, wait_until
from tests.firmware_bridge.referee.test_referee_board import pair_by_square


def started(mosquitto, tmp_path, board: bool) -> tuple[Referee, SeatClient, DisplayClient]:
    """A referee whose red seat is the computer's; the human's blue tablet paired and set up."""
    referee = Referee(RefereeSettings("cpu", tmp_path / "journal.db", mosquitto.url, variant="barrage",
                                      computer="red", computer_level="easy"))
    sim_board = SimulatedBoard(10, 10)
    if board:
        referee.attach_board(SimulatedSource(sim_board))
    assert referee.start()
    blue, display = SeatClient(mosquitto.url, "cpu", name="Anna"), DisplayClient(mosquitto.url, "cpu", sign_key=referee.signer.verify_key)
    for client in (blue, display):
        assert client.start()
    assert display.wait(lambda c: c.state and c.state["seats"]["red"]["setup_ready"] and c.state["seats"]["red"]["online"], 10), \
        "the computer took its seat and set up"
    if board:
        pair_by_square(sim_board, blue, "blue", referee)
    else:
        pair_by_code(referee, blue, "blue")
    command_id = blue.setup(setup_dict("barrage", "blue", 2))
    assert blue.wait(lambda c: command_id in c.replies and c.replies[command_id]["ok"], 10)
    return referee, blue, display


def test_with_a_board_the_display_shows_the_computers_move_to_make(mosquitto, tmp_path):
    referee, blue, display = started(mosquitto, tmp_path, board=True)
    try:
        assert display.wait(lambda c: c.state["phase"] == "playing" and c.state.get("computer_move"), 10)
        shown = display.state["computer_move"]
        assert shown["seat"] == "red" and shown["move"] == str(referee.computer.move)
        step = {"action": "move", "square": shown["square"], "to": shown["to"], "color": "red"}
        assert display.state["board_check"]["plan"][-1] == step
        assert referee.session.game.ply == 0, "the move waits for a hand on the board"
    finally:
        for client in (blue, display):
            client.stop()
        referee.stop()


def test_without_a_board_the_computer_answers_each_move_of_the_tablet(mosquitto, tmp_path):
    referee, blue, display = started(mosquitto, tmp_path, board=False)
    rng = random.Random(4)
    try:
        game = referee.session.game
        for _ in range(12):
            assert wait_until(lambda: game.result is not None or game.to_move.value == "blue")
            if game.result is not None:
                break
            assert display.state.get("computer_move") is None, "without a board nobody makes its move by hand"
            ply = game.ply
            with referee.lock:
                move = str(rng.choice(game.legal_moves()))
            command_id = blue.move(move)
            assert blue.wait(lambda c, i=command_id: i in c.replies, 10) and blue.replies[command_id]["ok"]
            assert wait_until(lambda p=ply: game.ply >= p + 2 or game.result is not None), "the computer answered"
        assert game.ply >= 2
        assert blue.wait(lambda c: c.view and c.view["ply"] == game.ply, 10)
    finally:
        for client in (blue, display):
            client.stop()
        referee.stop()
