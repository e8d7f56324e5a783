"""A replay on the running referee: loaded from a tablet over MQTT, made on the simulated board."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Move, Square
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard
from tests.firmware_bridge.helpers import requires_mosquitto, wait_until
from tests.firmware_bridge.referee.test_referee_board import pair_by_square

pytestmark = requires_mosquitto
RAID = (Path(__file__).parents[2] / "engine" / "stratego" / "data" / "gravon_barrage_marshal_raid.xml").read_text()


@pytest.fixture
def replay_table(mosquitto, tmp_path):
    board = SimulatedBoard(10, 10)
    referee = Referee(RefereeSettings("rp", tmp_path / "journal.db", mosquitto.url))
    referee.attach_board(SimulatedSource(board))
    assert referee.start()
    red = SeatClient(mosquitto.url, "rp", name="red")
    display = DisplayClient(mosquitto.url, "rp", sign_key=referee.signer.verify_key)
    for client in (red, display):
        assert client.start()
    pair_by_square(board, red, "red", referee)
    yield referee, board, red, display
    for client in (red, display):
        client.stop()
    referee.stop()


def replay_of(display: DisplayClient) -> dict:
    return (display.state or {}).get("replay") or {}


def answered(client: SeatClient, command_id: str) -> dict:
    assert client.wait(lambda c: command_id in c.replies, 10), "no reply"
    return client.replies[command_id]


def test_a_tablet_loads_a_gravon_game_and_the_players_replay_it_on_the_board(replay_table):
    referee, board, red, display = replay_table
    reply = answered(red, red.command("replay_load", text=RAID, name="raid.xml"))
    assert reply["ok"], reply
    assert display.wait(lambda c: replay_of(c).get("phase") == "placing", 10)
    state = display.state
    assert state["variant"] == "barrage" and state["board_check"]["reason"] == "setup"
    assert {"action": "place", "square": "a1", "color": "red", "kind": "flag"} in state["board_check"]["plan"]
    assert replay_of(display)["source"]["players"] == ["Player 1", "Player 2"]

    board.set_position([Square.parse(s) for s in replay_of(display)["position"]])
    assert display.wait(lambda c: replay_of(c).get("phase") == "replaying", 10)
    assert replay_of(display)["steps"][0]["action"] == "move"
    assert display.state["board_check"]["plan"] == [
        {"action": "move", "square": "a4", "to": "a6", "color": "red", "kind": "scout", "ply": 1}]

    board.move(Square.parse("a4"), Square.parse("a6"))  # the game's first move, made by hand
    assert display.wait(lambda c: replay_of(c).get("ply") == 1, 10), "the move was not recognised"
    assert replay_of(display)["next"]["attacks"] == {"color": "red", "kind": "scout"}

    assert answered(red, red.command("replay_step", step="back"))["ok"]
    assert display.wait(lambda c: replay_of(c).get("ply") == 0
                        and replay_of(c)["steps"][:1] == [{"action": "put_back", "square": "a6",
                                                            "to": "a4", "color": "red",
                                                            "kind": "scout"}], 10)
    board.move(Square.parse("a6"), Square.parse("a4"))
    assert display.wait(lambda c: replay_of(c)["steps"][0]["action"] == "move", 10)

    reply = answered(red, red.command("replay_load", text="not a game"))
    assert not reply["ok"] and reply["code"] == "invalid-replay"
    assert replay_of(display).get("ply") == 0, "a bad file changes nothing"

    assert answered(red, red.command("replay_play_on"))["ok"]
    assert display.wait(lambda c: c.state["phase"] == "playing" and c.state.get("replay") is None, 10)
    seq = referee.session.seq
    board.move(Square.parse("a4"), Square.parse("a5"))  # now a normal game, read as before
    assert wait_until(lambda: referee.session.seq == seq + 1)
    assert referee.session.game is not None and referee.session.game.last_move == Move.parse("a4-a5")
