"""After a crash the referee guides the players until the physical board matches the game again."""

from __future__ import annotations

import random

from engine import Square
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard
from tests.firmware_bridge.helpers import setup_dict, wait_until

VARIANT = "barrage"


def start_referee(url: str, journal, board: SimulatedBoard) -> Referee:
    referee = Referee(RefereeSettings("rb", journal, url, variant=VARIANT))
    referee.attach_board(SimulatedSource(board))
    assert referee.start()
    return referee


def test_a_restarted_referee_replays_and_guides_the_board_back(mosquitto, tmp_path):
    board = SimulatedBoard(10, 10)
    journal = tmp_path / "journal.db"
    referee = start_referee(mosquitto.url, journal, board)
    display = DisplayClient(mosquitto.url, "rb", sign_key=referee.signer.verify_key)
    assert display.start()
    try:
        session = referee.session
        session.pair("red", "r" * 43 + "=", "tab-r")
        session.pair("blue", "b" * 43 + "=", "tab-b")
        for counter, seat in enumerate(("red", "blue"), start=1):
            reply, rulings = session.execute(seat, {"v": 1, "id": seat, "seat": seat, "counter": counter,
                                                    "type": "setup", "args": {"setup": setup_dict(VARIANT, seat, 8)}})
            assert reply["ok"]
        board.set_position(list(session.game.occupied()))
        assert wait_until(lambda: (referee.last_board_check or {}).get("reading"), 10)
        move = random.Random(1).choice([m for m in session.game.legal_moves()
                                        if session.game.piece_at(m.target) is None
                                        and not referee.watcher.recognizer.is_scout_move(m)])
        board.move(move.origin, move.target)
        assert wait_until(lambda: session.game.ply == 1, 10)
        seq = session.seq
        referee.link.client.disconnect()  # no goodbye: as good as a crash for the clients
        referee.link.client.loop_stop()
        referee.stopping.set()
        referee.feed.stop()
        referee.journal.close()

        # While the referee is down, someone knocks a piece off the board.
        knocked = next(iter(sorted(board.occupied(), key=lambda s: (s.rank, s.file))))
        board.remove(knocked)
        referee = start_referee(mosquitto.url, journal, board)
        assert referee.session.seq == seq and referee.session.game.ply == 1
        assert display.wait(lambda c: c.state["board_check"] and c.state["board_check"]["fill"] == [knocked.name], 10)
        assert not display.state["board_check"]["matches"]
        board.place(Square.parse(knocked.name))
        assert display.wait(lambda c: c.state["board_check"]["matches"] and c.state["board_check"]["reading"], 10)
    finally:
        display.stop()
        referee.stop()
