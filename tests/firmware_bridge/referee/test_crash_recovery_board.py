"""SIGKILL the referee while it reads moves from the board over a real pty.

A move is ruled once its journal entry is committed. Killed after that, the move is in the game
exactly once. Killed before, the move was made on the board but never ruled: the restarted
referee reads the board, finds it one legal move away from the last ruled position and rules
that move as if it had seen it. Every fourth round the opponent also moves while the referee is
down: if the first move was not ruled, the board is two moves away and the players are guided
back; if it was, the opponent's move is the one unseen move and is ruled. Either way the
referee's state is the journal's, and no move is lost or doubled.
ARBITER_SOAK_BOARD_KILLS sets the number of kills (CI: 30; a soak: hundreds).
"""

from __future__ import annotations

import os
import random
import time

import pytest

from engine import Color, get_variant, random_setup
from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import Session
from hardware.sim.board import SimulatedBoard
from hardware.sim.pty_server import PtySerialServer
from tests.firmware_bridge.helpers import journal_sign_key, requires_mosquitto
from tests.firmware_bridge.referee_process import RefereeProcess

pytestmark = requires_mosquitto
VARIANT = "barrage"
KILLS = int(os.environ.get("ARBITER_SOAK_BOARD_KILLS", "30"))


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


def steps(game) -> list:
    """Moves of the side to move onto an empty square, no scout (a scout's ruling waits longer)."""
    return [m for m in game.legal_moves() if game.piece_at(m.target) is None
            and not game.variant.kinds[game.piece_at(m.origin).kind].scout]


@pytest.mark.slow  # a soak: kills over a pty
def test_sigkill_between_a_board_move_and_its_ruling_loses_no_move(mosquitto, tmp_path):
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
    unruled: list = []  # moves made on the board that the journal did not hold at the kill
    outcomes = {"ruled before the kill": 0, "ruled on restart": 0, "guided back": 0}
    process = None
    try:
        for kill in range(KILLS):
            started = time.time()
            process = RefereeProcess(config).start()
            if display.pin.key is None:
                display.pin_key(journal_sign_key(journal))
            seq = replayed(journal).seq
            if len(unruled) == 1:
                # The one unseen move is ruled by the restarted referee, as if it had seen it.
                assert display.wait(lambda c, s=seq, t=started: c.state and c.state["at"] >= t
                                    and c.state["seq"] == s + 1 and c.state["board_check"]["reading"], 20), \
                    f"kill {kill}: the unseen move {unruled[0]} was not ruled on restart"
                outcomes["ruled on restart"] += 1
                ruled_before.append(str(unruled[0]))
            elif len(unruled) == 2:
                # Two moves: guided back, nothing ruled; the players put both pieces back.
                assert display.wait(lambda c, t=started: c.state and c.state["at"] >= t and c.state["board_check"]
                                    and len(c.state["board_check"]["fill"]) == 2, 20), f"kill {kill}: no guidance"
                for move in reversed(unruled):
                    board.move(move.target, move.origin)
                outcomes["guided back"] += 1
            assert display.wait(lambda c, t=started: c.state and c.state["at"] >= t and c.state["board_check"]
                                and c.state["board_check"]["reading"], 20), f"kill {kill}: board never matched"
            unruled = []
            expected = replayed(journal)
            assert [str(m) for m in expected.game.move_stack] == ruled_before, f"kill {kill}"
            game = expected.game
            if game.result is not None or not steps(game):
                break
            move = rng.choice(steps(game))
            board.move(move.origin, move.target)
            made = [move]
            time.sleep(rng.uniform(0.0, 0.08))  # the ruling takes ~40 ms: kill before or after it
            process.kill()
            ruled = [str(m) for m in replayed(journal).game.move_stack]
            assert ruled in (ruled_before, ruled_before + [str(move)]), f"kill {kill}: {ruled[-3:]}"
            if ruled != ruled_before:
                outcomes["ruled before the kill"] += 1
                ruled_before, made = ruled, []
            if kill % 4 == 3:  # while the referee is down, the opponent moves too
                game.push(move)
                if game.result is None and steps(game):
                    answer = rng.choice(steps(game))
                    board.move(answer.origin, answer.target)
                    made.append(answer)
            unruled = made
        print(f"{KILLS} kills: {outcomes}")
        if KILLS >= 20:
            assert all(outcomes.values()), outcomes
    finally:
        if process:
            process.kill()
        display.stop()
        server.close()
