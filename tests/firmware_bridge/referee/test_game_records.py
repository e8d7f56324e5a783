"""Every finished game is kept as a record beside the journal, and `arbiter check` replays it to
the result the table ruled: for the Stratego family over the real referee and broker, and for a
whole battle of Napoleon's Triumph."""

from __future__ import annotations

import json
import random

import pytest

from engine.stratego.records import check_record
from engine.triumph.records import check_triumph_record
from firmware_bridge.bot.triumph_script import choose_action
from firmware_bridge.cli.check import main as check_main
from firmware_bridge.referee.game_records import RecordShelf
from tests.firmware_bridge.helpers import start_table, submit_setups
from tests.firmware_bridge.referee.test_triumph_session import started


@pytest.fixture
def table(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db")
    yield table
    table.close()


def test_a_resigned_game_is_kept_as_a_record_that_check_replays_to_the_same_result(table, tmp_path, capsys):
    submit_setups(table)
    rng = random.Random(5)
    for _ in range(6):
        game = table.referee.session.game
        client = table.seat(game.to_move.value)
        command_id = client.move(str(rng.choice(game.legal_moves())))
        assert client.wait(lambda c, i=command_id: i in c.replies, 10)
    command_id = table.blue.resign()
    assert table.blue.wait(lambda c, i=command_id: i in c.replies, 10)
    # The display hears where the finished game was kept.
    assert table.display.wait(lambda c: c.state["phase"] == "over" and c.state.get("record"), 10)
    kept = tmp_path / "records" / table.display.state["record"]
    assert kept.is_file()
    assert check_record(json.loads(kept.read_text()))["result"] == {"winner": "red", "reason": "resignation"}
    assert check_main([str(kept)]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["reason"] == "resignation"
    # Kept once: more rulings of the same (finished) game write nothing new.
    assert table.referee.records.keep() is None
    assert len(list((tmp_path / "records").iterdir())) == 1


def test_a_game_that_ended_before_a_crash_is_kept_when_the_referee_starts_again(tmp_path):
    session, tablets = started(tmp_path)
    tablets.send("red", "resign")
    shelf = RecordShelf(session, tmp_path / "j.db", "b1")
    assert shelf.name_for(session.game_id) is None  # nobody kept it: the referee "crashed" here
    path = shelf.keep()
    assert path is not None and path.parent == tmp_path / "records"
    verdict = check_triumph_record(json.loads(path.read_text()))
    assert verdict["illegal"] is None and verdict["result"]["winner"] == "french"
    # A restarted referee finds the file rather than writing it again.
    assert RecordShelf(session, tmp_path / "j.db", "b1").name_for(session.game_id) == path.name


def test_a_whole_battle_is_kept_and_replays_to_the_result_the_table_ruled(tmp_path):
    session, tablets = started(tmp_path)
    shelf = RecordShelf(session, tmp_path / "j.db", "b1")
    rng = random.Random(2)
    for _ in range(3000):
        if session.phase != "playing":
            break
        waiting = session.game.awaiting()
        seat = "red" if waiting[0] == "allied" else "blue"
        view = session.seat_state(seat)["view"]
        reply, rulings = tablets.act(seat, **choose_action(view, rng))
        assert reply["ok"], reply
        shelf.follow(rulings)
    assert session.phase == "over"
    kept = tmp_path / "records" / shelf.name_for(session.game_id)
    verdict = check_triumph_record(json.loads(kept.read_text()))
    assert verdict["illegal"] is None
    assert verdict["result"]["winner"] == session.game.result["winner"]


def test_a_folder_that_cannot_be_written_is_logged_and_changes_nothing(tmp_path, caplog):
    session, tablets = started(tmp_path)
    tablets.send("blue", "resign")
    (tmp_path / "records").write_text("a file where the folder should be")
    shelf = RecordShelf(session, tmp_path / "j.db", "b1")
    assert shelf.keep() is None
    assert "could not be kept" in caplog.text
    assert session.phase == "over"
