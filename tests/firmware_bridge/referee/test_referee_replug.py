"""The scanner's cable pulled and plugged back mid-game: the referee reading the real firmware over
a pty re-reads the board and compares it with the last ruled position before play goes on. A
move made while the cable was out is ruled as if it had been seen (one legal move or attack of
the side to move); anything else is guided back; a replug with nothing changed rules nothing."""

from __future__ import annotations

import pytest

from engine import Square
from firmware_bridge.board.sources import SerialSource
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard
from hardware.sim.pty_server import PtySerialServer
from tests.firmware_bridge.helpers import requires_mosquitto, wait_until

pytestmark = requires_mosquitto
S = Square.parse
VARIANT = "barrage"
# Red's marshal and blue's general face each other down the e file; everything else stays home.
SETUPS = {"red": {"a1": "flag", "b1": "bomb", "c1": "miner", "d1": "scout", "f1": "scout", "g1": "spy",
                  "j1": "general", "e4": "marshal"},
          "blue": {"a10": "flag", "b10": "bomb", "c10": "miner", "d10": "scout", "f10": "scout",
                   "g10": "spy", "j10": "marshal", "e7": "general"}}


@pytest.fixture
def table(mosquitto, tmp_path):
    board = SimulatedBoard(10, 10)
    server = PtySerialServer(board)
    device = server.start()
    referee = Referee(RefereeSettings("replug", tmp_path / "journal.db", mosquitto.url, variant=VARIANT))
    referee.attach_board(SerialSource(device, retry_s=0.05))
    assert referee.start()
    session = referee.session
    session.pair("red", "r" * 43 + "=", "tab-r")
    session.pair("blue", "b" * 43 + "=", "tab-b")
    for counter, seat in enumerate(("red", "blue"), start=1):
        reply, _ = session.execute(seat, {"v": 1, "id": seat, "seat": seat, "counter": counter,
                                          "type": "setup", "args": {"setup": SETUPS[seat]}})
        assert reply["ok"], reply
    board.set_position(list(session.game.occupied()))
    assert wait_until(lambda: reading(referee), 10)
    yield referee, board, server
    referee.stop()
    server.close()


def reading(referee: Referee) -> bool:
    check = referee.last_board_check or {}
    return bool(check.get("reading"))


def moves(referee: Referee) -> list[str]:
    return [str(m) for m in referee.session.game.move_stack]


def play(referee: Referee, board: SimulatedBoard, move: str) -> None:
    """A move made with the cable in: ruled as always."""
    before = len(moves(referee))
    origin, target = (S(s) for s in move.split("-"))
    board.move(origin, target)
    assert wait_until(lambda: len(moves(referee)) == before + 1 and reading(referee), 10), moves(referee)


def replugged(referee: Referee, server: PtySerialServer, while_out) -> None:
    """Pull the cable, let the hands do ``while_out``, plug it back; wait until the board was re-read."""
    reconnects = referee.feed.reconnects
    server.unplug()
    assert wait_until(lambda: referee.feed.source.status == "disconnected", 10)
    while_out()
    server.replug()
    assert wait_until(lambda: referee.feed.reconnects == reconnects + 1
                      and not referee.watcher.recognizer.recovering, 15), "the board was not re-read"


def test_a_replug_with_nothing_changed_rules_nothing(table):
    referee, board, server = table
    play(referee, board, "e4-e5")
    replugged(referee, server, lambda: None)
    assert wait_until(lambda: reading(referee), 10)
    assert moves(referee) == ["e4-e5"]


def test_a_move_made_while_the_cable_was_out_is_ruled_once(table):
    referee, board, server = table
    play(referee, board, "e4-e5")
    replugged(referee, server, lambda: board.move(S("e7"), S("e6")))
    assert wait_until(lambda: reading(referee), 10)
    assert moves(referee) == ["e4-e5", "e7-e6"]


def test_an_attack_made_while_the_cable_was_out_is_ruled(table):
    referee, board, server = table
    play(referee, board, "e4-e5")
    play(referee, board, "e7-e6")

    def attack() -> None:  # the general lifted off, the marshal put on its square
        board.remove(S("e6"))
        board.move(S("e5"), S("e6"))

    replugged(referee, server, attack)
    assert wait_until(lambda: reading(referee), 10)
    assert moves(referee) == ["e4-e5", "e7-e6", "e5-e6"]
    assert referee.session.game.piece_at(S("e6")).kind == "marshal"


def test_two_moves_made_while_the_cable_was_out_are_guided_back(table):
    referee, board, server = table

    def both_move() -> None:
        board.move(S("e4"), S("e5"))
        board.move(S("e7"), S("e6"))

    replugged(referee, server, both_move)
    check = referee.last_board_check
    assert not check["matches"] and set(check["fill"]) == {"e4", "e7"}, check
    assert moves(referee) == []
    board.move(S("e6"), S("e7"))
    board.move(S("e5"), S("e4"))
    assert wait_until(lambda: reading(referee), 10)
    assert moves(referee) == []
    play(referee, board, "e4-e5")  # and play goes on
