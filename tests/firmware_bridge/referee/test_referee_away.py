"""Time while the referee is down: clocks paused, nothing charged, and everybody told how long
("the referee was away 12 s; clocks were paused")."""

from __future__ import annotations

import json
import time

from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.downtime import Heartbeat, heartbeat_path
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.service import Referee, RefereeSettings
from firmware_bridge.referee.session import Session
from tests.firmware_bridge.helpers import requires_mosquitto, setup_dict, wait_until

VARIANT = "barrage"
TEN_MINUTES = TimeControl(player_seconds=600)


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def started_game(path, clock: Clock) -> Session:
    session = Session(Journal(path), VARIANT, TEN_MINUTES, now=clock)
    session.pair("red", "r" * 43 + "=", "tab-r")
    session.pair("blue", "b" * 43 + "=", "tab-b")
    for counter, seat in enumerate(("red", "blue"), start=1):
        reply, _ = session.execute(seat, {"v": 1, "id": seat, "seat": seat, "counter": counter,
                                          "type": "setup", "args": {"setup": setup_dict(VARIANT, seat, 3)}})
        assert reply["ok"]
    assert session.clock.running == "red"
    return session


def test_time_spent_while_the_referee_ran_is_charged_and_time_it_was_down_is_not(tmp_path):
    clock = Clock(100.0)
    session = started_game(tmp_path / "j.db", clock)
    clock.now = 130.0  # red thinks for 30 s; the referee's last heartbeat is then
    beat = {"at": 0.0, "game": session.game_id, "seq": session.seq, "clock": session.clock_checkpoint()}
    session.journal.close()
    clock.now = 5.0  # the Pi rebooted: its monotonic clock starts afresh, hours may have passed
    again = Session(Journal(tmp_path / "j.db"), VARIANT, TEN_MINUTES, now=clock)
    assert again.clock.remaining("red", 5.0) == 600  # from the last ruling: 30 s of thinking lost
    assert again.carry_on_clock(beat)
    assert again.clock.remaining("red", 5.0) == 570  # the 30 s are charged, the downtime is not
    clock.now = 15.0
    assert again.clock.remaining("red", 15.0) == 560  # and red's clock runs on
    assert again.clock.remaining("blue", 15.0) == 600


def test_a_heartbeat_of_another_ruling_or_game_is_not_taken(tmp_path):
    clock = Clock(100.0)
    session = started_game(tmp_path / "j.db", clock)
    clock.now = 130.0
    checkpoint = session.clock_checkpoint()
    assert not session.carry_on_clock({"at": 0.0, "game": session.game_id, "seq": session.seq - 1,
                                       "clock": checkpoint})
    assert not session.carry_on_clock({"at": 0.0, "game": "another", "seq": session.seq, "clock": checkpoint})
    assert not session.carry_on_clock({"at": 0.0, "game": session.game_id, "seq": session.seq, "clock": {}})
    assert session.clock.remaining("red", 130.0) == 570  # the running clock is untouched


def test_a_torn_or_missing_heartbeat_is_ignored(tmp_path):
    heartbeat = Heartbeat(tmp_path / "j.db")
    assert heartbeat.read() is None
    heartbeat.path.write_text('{"at": 17')
    assert heartbeat.read() is None
    assert heartbeat_path(":memory:") is None


def test_the_heartbeat_is_written_whole_and_private(tmp_path):
    heartbeat = Heartbeat(tmp_path / "j.db", wall=lambda: 1000.0)
    assert heartbeat.due()
    heartbeat.beat("g", 4, {"remaining": {"red": 1, "blue": 2}, "game_elapsed": 3, "running": "red"})
    assert not heartbeat.due()
    assert heartbeat.read() == {"at": 1000.0, "game": "g", "seq": 4,
                                "clock": {"remaining": {"red": 1, "blue": 2}, "game_elapsed": 3, "running": "red"}}
    assert heartbeat.path.stat().st_mode & 0o077 == 0
    assert Heartbeat(tmp_path / "j.db", wall=lambda: 1012.4).away_s(heartbeat.read()) == 12


def test_a_beat_goes_over_the_last_in_place_and_leaves_nothing_of_a_longer_one(tmp_path):
    # The last run's beat was longer (a long game id, clocks) and left readable by others.
    path = heartbeat_path(tmp_path / "j.db")
    path.write_text(json.dumps({"at": 1.0, "game": "x" * 300, "seq": 123456, "clock": {"running": "blue"}}))
    path.chmod(0o644)
    file_before = path.stat().st_ino
    heartbeat = Heartbeat(tmp_path / "j.db", wall=lambda: 2000.0)
    heartbeat.beat("g", 5, None)
    assert heartbeat.read() == {"at": 2000.0, "game": "g", "seq": 5, "clock": None}
    assert path.stat().st_ino == file_before  # written in place: no rename, no flush forced by one
    assert path.stat().st_mode & 0o077 == 0
    heartbeat.beat("a-much-longer-game-id" * 20, 6, None)  # longer than the file: it grows
    heartbeat.beat("g", 7, None)
    assert heartbeat.read() == {"at": 2000.0, "game": "g", "seq": 7, "clock": None}


@requires_mosquitto
def test_the_restarted_referee_tells_everyone_it_was_away_and_the_clocks_were_paused(mosquitto, tmp_path):
    journal = tmp_path / "journal.db"
    clock = Clock(100.0)
    session = started_game(journal, clock)
    clock.now = 110.0  # red thought for 10 s, then the referee died, 12 s ago
    died = time.time() - 12
    (tmp_path / "journal.db.alive").write_text(json.dumps({
        "at": died, "game": session.game_id, "seq": session.seq,
        "clock": session.clock_checkpoint()}))
    session.journal.close()
    referee = Referee(RefereeSettings("away", journal, mosquitto.url, variant=VARIANT, time_control=TEN_MINUTES))
    display = DisplayClient(mosquitto.url, "away", sign_key=referee.signer.verify_key)
    try:
        assert referee.start()
        assert display.start()
        assert display.wait(lambda c: c.state is not None and c.state.get("referee_back") is not None, 10)
        back = display.state["referee_back"]
        assert back["type"] == "referee_back" and back["clocks"] == "paused"
        assert back["away_s"] in (12, 13)  # whole seconds, measured at the referee's start
        # Red's 10 s are charged; the 12 s while nobody could see the clock run are not.
        assert 578 < display.state["clocks"]["red"] <= 590
        assert display.state["clocks"]["blue"] == 600
        # The running referee beats again; once play goes on, the note is gone.
        assert wait_until(lambda: (referee.heartbeat.read() or {}).get("at", 0) > died, 10)
        move = next(m for m in referee.session.game.legal_moves())
        referee.play(move)
        assert display.wait(lambda c: c.state["seq"] == session.seq + 1 and c.state.get("referee_back") is None, 10)
    finally:
        display.stop()
        referee.stop()

