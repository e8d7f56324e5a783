"""When the journal cannot be written the referee rules nothing, says so plainly, and recovers.

Two ways to fill the storage: SQLite's own error injected at the connection (every INSERT fails
with "database or disk is full", what SQLite says on ENOSPC), and, where this machine lets us
mount one, a real 192 KiB filesystem that the journal fills up.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
from pathlib import Path

import pytest

from engine import Move
from firmware_bridge.board.recognition import MoveMade
from firmware_bridge.referee.journal import Journal, JournalError
from firmware_bridge.referee.service import Referee
from tests.firmware_bridge.helpers import requires_mosquitto, start_table, submit_setups


class FullDisk:
    """The journal's SQLite connection on a full disk: every INSERT fails as SQLite fails then."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


def fill_the_disk(referee: Referee) -> None:
    with referee.lock:
        referee.journal._db = FullDisk(referee.journal._db)  # type: ignore[assignment]


def free_the_disk(referee: Referee) -> None:
    with referee.lock:
        referee.journal._db = referee.journal._db.db  # type: ignore[attr-defined]


def a_legal_move(referee: Referee) -> str:
    game = referee.session.game
    moves = [m for m in game.legal_moves() if game.piece_at(m.target) is None]
    return str(random.Random(1).choice(moves))


@requires_mosquitto
def test_a_full_disk_rules_nothing_tells_everyone_and_play_goes_on_once_there_is_room(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db")
    try:
        submit_setups(table)
        referee, red = table.referee, table.red
        seq, ply = referee.session.seq, referee.session.game.ply
        fill_the_disk(referee)
        move = a_legal_move(referee)
        command_id = red.move(move)
        assert red.wait(lambda c: command_id in c.replies)
        reply = red.replies[command_id]
        assert not reply["ok"] and reply["code"] == "storage-full"
        assert reply["message"] == "the referee cannot record moves: storage full"
        # Nothing was ruled, in memory or anywhere else.
        assert (referee.session.seq, referee.session.game.ply) == (seq, ply)
        problem = {"code": "storage-full", "message": "the referee cannot record moves: storage full"}
        for client in (table.display, red, table.blue):
            assert client.wait(lambda c: (c.state if c is table.display else c.public_state or {})
                               .get("problem") == problem), "not everyone was told"
        free_the_disk(referee)
        command_id = red.move(move)
        assert red.wait(lambda c: command_id in c.replies)
        assert red.replies[command_id]["ok"]
        assert referee.session.game.ply == ply + 1
        assert table.display.wait(lambda c: c.state.get("problem") is None and c.state["seq"] == seq + 1)
    finally:
        table.close()


@requires_mosquitto
def test_a_board_move_that_cannot_be_journalled_is_guided_back_not_kept(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db")
    try:
        submit_setups(table)
        referee = table.referee
        ply = referee.session.game.ply
        fill_the_disk(referee)
        move = Move.parse(a_legal_move(referee))
        with referee.lock:  # as the board feed calls it: a move the recogniser saw
            referee.board.rule_board_move(MoveMade(move))
        assert referee.session.game.ply == ply
        assert referee.problem == {"code": "storage-full",
                                   "message": "the referee cannot record moves: storage full"}
    finally:
        table.close()


@pytest.fixture
def tiny_filesystem(tmp_path):
    """A real 192 KiB filesystem (tmpfs), where this machine lets us mount one."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=192k", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a small filesystem here (needs root)")
    yield mount
    subprocess.run(["umount", str(mount)], check=False)


def test_a_journal_on_a_really_full_filesystem_stores_no_half_batch(tiny_filesystem: Path):
    journal = Journal(tiny_filesystem / "journal.db")
    written = 0
    with pytest.raises(JournalError) as raised:
        while written < 10_000:
            journal.append_all("g1", [("move", {"move": "a4-a5", "n": written, "pad": "x" * 900}),
                                      ("reply", {"n": written, "pad": "y" * 900})])
            written += 1
    assert raised.value.code == "storage-full"
    kept = list(journal.entries("g1"))
    assert len(kept) == 2 * written  # every batch whole, none half
    journal.close()
