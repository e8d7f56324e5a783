"""SIGKILL the referee while it reads moves from the board over a real pty.

A move is ruled once its journal entry is committed. Killed before that, the move was never
ruled: the restarted referee finds the board differing from the game and guides the players
to put the piece back. Killed after, the move is in the game exactly once. Either way the
referee's state is the journal's. ARBITER_SOAK_BOARD_KILLS sets the number of kills.
"""

from __future__ import annotations

import os
import random
import time

from engine import Color, Square, get_variant, random_setup
from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import Session
from hardware.sim.board import SimulatedBoard
from hardware.sim.pty_server import PtySerialServer
from tests.firmware_bridge.helpers import requires_mosquitto
from tests.firmware_bridge.referee_process import RefereeProcess

pytestmark = requires_mosquitto
VARIANT = "barrage"
KILLS = int(os.environ.get("ARBITER_SOAK_BOARD_KILLS", "40"))


def prepared_journal(path) -> Session:
    """Both seats paired and both setups in, as after pairing at the board."""
    session = Session(Journal(path), VARIANT)
    rng = random.Random(31)
    for counter, seat in enumerate(("red", "blue"), start=1):
        session.pair(seat, crypto.key_to_text(crypto.PrivateKey.generate().public_key), f"tab-{seat}")
        setup = random_setup(get_variant(VARIANT), Color(seat), rng)
        session.execute(seat, {"v": 1, "id": seat, "seat": seat, "counter": counter, "type": "setup",
                               "args": {"setup": {s.name: k for s, k in setup.items()}}})
    return session


def replayed(path) -> Session:
    journal = Journal(path)
    try:
        return Session(journal, VARIANT)
    finally:
        journal.close()


def test_sigkill_while_reading_the_board_never_loses_or_doubles_a_ruled_move(mosquitto, tmp_path):
    journal = tmp_path / "journal.db"
    session = prepared_journal(journal)
    board = SimulatedBoard(10, 10)
    board.set_position(list(session.game.occupied()))
    session.journal.close()
    server = PtySerialServer(board)
    device = server.start()
    profile = tmp_path / "pty.toml"
    profile.write_text(f'name = "pty"\nwidth = 10\nheight = 10\nvariants = ["{VARIANT}"]\n'
                       f'[sensor]\nsource = "serial"\nserial_port = "{device}"\n[gpio]\n[leds]\nenabled = false\n')
    config = tmp_path / "referee.toml"
    config.write_text(f'[board]\nname = "ptykill"\nprofile = "{profile}"\ninput = "board"\n'
                      f'[game]\nvariant = "{VARIANT}"\n[broker]\nurl = "{mosquitto.url}"\n'
                      f'[journal]\npath = "{journal}"\n[announce]\nenabled = false\n')
    display = DisplayClient(mosquitto.url, "ptykill")
    assert display.start()
    rng = random.Random(8)
    ruled_before: list[str] = []
    outcomes = {"ruled": 0, "not ruled": 0}
    process = None
    try:
        for kill in range(KILLS):
            started = time.time()
            process = RefereeProcess(config).start()
            expected = replayed(journal)
            assert [str(m) for m in expected.game.move_stack] == ruled_before
            # The referee republishes the journal's state and guides the board back if needed.
            assert display.wait(lambda c, s=expected.seq, t=started: c.state and c.state["at"] >= t
                                and c.state["seq"] == s and c.state["board_check"] is not None, 20), \
                f"kill {kill}: the restarted referee published no state"
            check = display.state["board_check"]
            if not check["matches"]:
                assert len(check["clear"]) == 1 and len(check["fill"]) == 1, check
                assert Square.parse(check["clear"][0]) in board.occupied(), (kill, check, sorted(s.name for s in board.occupied()))
                board.move(Square.parse(check["clear"][0]), Square.parse(check["fill"][0]))
            assert display.wait(lambda c: c.state["board_check"]["reading"], 20), f"kill {kill}: board never matched"
            game = expected.game
            if game.result is not None:
                break
            moves = [m for m in game.legal_moves() if game.piece_at(m.target) is None
                     and not game.variant.kinds[game.piece_at(m.origin).kind].scout]
            move = rng.choice(moves)
            board.move(move.origin, move.target)
            time.sleep(rng.uniform(0.0, 0.08))  # the ruling takes ~40 ms: kill before or after it
            process.kill()
            ruled = [str(m) for m in replayed(journal).game.move_stack]
            assert ruled in (ruled_before, ruled_before + [str(move)]), f"kill {kill}: {ruled[-3:]}"
            outcomes["ruled" if ruled != ruled_before else "not ruled"] += 1
            ruled_before = ruled
        print(outcomes)
        if KILLS >= 10:
            assert outcomes["ruled"] and outcomes["not ruled"], outcomes
    finally:
        if process:
            process.kill()
        display.stop()
        server.close()
