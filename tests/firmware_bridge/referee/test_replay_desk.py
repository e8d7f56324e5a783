"""The referee's replay desk: loading a game file, stepping, a crash, and playing on as a game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Move, Square
from firmware_bridge.board.snapshots import StableBoard
from firmware_bridge.referee.journal import Journal, JournalError
from firmware_bridge.referee.replay_desk import ReplayDesk
from firmware_bridge.referee.replay_mode import ReplayError
from firmware_bridge.referee.session import Session

DATA = Path(__file__).parents[2] / "engine" / "stratego" / "data"
RAID = (DATA / "gravon_barrage_marshal_raid.xml").read_text()
# Two marshals walking to and fro: after three moves between the same two squares the two-squares
# rule (ISF; the record keeps the barrage default limit of 3) forbids the fourth.
SHUTTLE = json.dumps({"variant": "barrage",
                      "position": {"red": {"a1": "flag", "a4": "marshal"},
                                   "blue": {"j10": "flag", "j7": "marshal"}},
                      "moves": ["a4-a5", "j7-j6", "a5-a4", "j6-j7", "a4-a5", "j7-j6"]})


def command(seat: str, counter: int, kind: str, **args) -> dict:
    return {"v": 1, "id": f"{seat}-{counter}", "seat": seat, "counter": counter, "type": kind,
            "args": args}


def desk_at(path: Path) -> ReplayDesk:
    """A referee's session and replay desk over the journal at path (as after a restart)."""
    session = Session(Journal(path), "classic")
    if "red" not in session.seats:
        session.pair("red", "r" * 44, "tab-r")
    return ReplayDesk(session)


def test_a_loaded_file_begins_a_new_game_and_the_replay_guides_both_setups(tmp_path):
    desk = desk_at(tmp_path / "j.db")
    before = desk.session.game_id
    mode = desk.load(RAID, "raid.xml")
    assert desk.active and desk.session.game_id != before and desk.session.variant.name == "barrage"
    public = desk.public()
    assert public is not None
    assert (public["phase"], public["ply"], public["length"]) == ("placing", 0, 33)
    assert public["source"] == {"name": "raid.xml", "format": "xml",
                                "players": ["Player 1", "Player 2"]}
    assert public["steps"][0] == {"action": "place", "square": "a1", "color": "red", "kind": "flag"}
    assert len(public["steps"]) == len(public["position"]) == 16
    assert mode.replay.length == 33


@pytest.mark.parametrize(("text", "reason"), [
    ("", "not JSON, Gravon XML or GSN"),
    ("<stratego><game type='barrage'>", "not XML"),
    ('{"variant": "chess", "setup": {}}', "unknown variant"),
    ("#X38FA11 Stratego-Notation v1\ntype 0\nEND\n", "ended before both setups"),
    ("x" * 200_001, "at most 200000"),
])
def test_a_bad_file_is_refused_with_the_reason_and_changes_nothing(tmp_path, text, reason):
    desk = desk_at(tmp_path / "j.db")
    game_id, entries = desk.session.game_id, len(desk.session.journal)
    with pytest.raises(ReplayError) as refused:
        desk.load(text)
    assert reason.lower() in refused.value.message.lower()
    assert refused.value.code == "invalid-replay"
    assert (desk.session.game_id, len(desk.session.journal), desk.active) == (game_id, entries, False)


def test_steps_from_a_tablet_are_carried_out_once_and_a_resent_one_is_answered_again(tmp_path):
    desk = desk_at(tmp_path / "j.db")
    reply, _ = desk.execute("red", command("red", 1, "replay_load", text=RAID, name="raid.xml"))
    assert reply["ok"] and desk.active
    reply, _ = desk.execute("red", command("red", 2, "replay_step", step="forward"))
    assert reply["ok"] and desk.mode is not None and desk.mode.ply == 1
    again, _ = desk.execute("red", command("red", 2, "replay_step", step="forward"))
    assert again["duplicate"] and desk.mode.ply == 1, "a resent step is not stepped twice"
    reply, _ = desk.execute("red", command("red", 3, "replay_step", step="jump", ply=99))
    assert not reply["ok"] and reply["code"] == "invalid-replay" and "between 0 and 33" in reply["message"]
    reply, _ = desk.execute("red", command("red", 4, "move", move="a4-a5"))
    assert not reply["ok"] and reply["code"] == "wrong-phase", "no game move while replaying"
    assert desk.mode.ply == 1


def test_a_crash_keeps_the_replay_its_ply_and_the_answered_commands(tmp_path):
    desk = desk_at(tmp_path / "j.db")
    desk.execute("red", command("red", 1, "replay_load", text=RAID, name="raid.xml"))
    for counter, step in enumerate(("forward", "forward", "back", "forward", "forward"), start=2):
        desk.execute("red", command("red", counter, "replay_step", step=step))
    desk.session.journal.close()  # the process dies here
    desk = desk_at(tmp_path / "j.db")
    assert desk.mode is not None and desk.mode.ply == 3, "every step is journalled"
    desk.execute("red", command("red", 7, "replay_step", step="jump", ply=12))
    desk.session.journal.close()  # and dies again
    again = desk_at(tmp_path / "j.db")
    assert again.active and again.mode is not None
    assert (again.mode.ply, again.mode.phase) == (12, "placing"), "the board is checked again"
    assert again.session.game_id == desk.session.game_id
    resent, _ = again.execute("red", command("red", 7, "replay_step", step="jump", ply=12))
    assert resent["duplicate"]
    again.execute("red", command("red", 8, "replay_stop"))
    assert not again.active
    again.session.journal.close()
    assert not desk_at(tmp_path / "j.db").active, "a stopped replay stays stopped"


def test_play_on_hands_the_session_a_game_with_the_replayed_moves_behind_it(tmp_path):
    desk = desk_at(tmp_path / "j.db")
    desk.load(SHUTTLE, "shuttle.json")
    desk.step("jump", 6)
    rulings, _ = desk.play_on()
    session = desk.session
    assert [r.kind for r in rulings] == ["game_start"] and rulings[0].public_events[0]["type"] == "game_start"
    assert session.phase == "playing" and not desk.active
    assert session.game is not None and session.game.ply == 6
    refusal = session.game.check(Move.parse("a5-a4"))
    assert refusal is not None and refusal.rule == "two-squares", "the replayed moves count"
    assert session.clock.running == "red"
    session.journal.close()
    again = desk_at(tmp_path / "j.db")
    assert again.session.phase == "playing" and not again.active
    assert again.session.game is not None and again.session.game.check(Move.parse("a5-a4")) is not None


def test_no_replay_while_a_game_is_played_and_none_past_the_end(tmp_path):
    desk = desk_at(tmp_path / "j.db")
    desk.load(SHUTTLE)
    desk.step("jump", 6)
    with pytest.raises(ReplayError, match="at its end"):
        desk.step("forward")
    desk.play_on()
    with pytest.raises(ReplayError) as refused:
        desk.load(RAID)
    assert refused.value.code == "wrong-phase"
    with pytest.raises(ReplayError, match="no replay"):
        desk.step("back")


def test_the_board_check_names_the_pieces_and_a_board_of_another_size_is_refused(tmp_path):
    desk = desk_at(tmp_path / "j.db")
    desk.feed(StableBoard.from_squares([], 8, 8))
    with pytest.raises(ReplayError, match="8x8"):
        desk.load(RAID)
    desk.feed(StableBoard.from_squares([Square.parse("e5")], 10, 10))
    desk.load(RAID)
    check = desk.board_check()
    assert check is not None and not check["matches"] and check["reason"] == "setup"
    assert check["plan"][0] == {"action": "remove", "square": "e5"}
    assert {"action": "place", "square": "a1", "color": "red", "kind": "flag"} in check["plan"]


def test_the_command_line_replay_is_kept_at_its_ply_over_a_restart(tmp_path):
    from firmware_bridge.referee.replay_desk import load_replay
    from firmware_bridge.referee.service import Referee, RefereeSettings

    settings = RefereeSettings("b", tmp_path / "j.db", "mqtt://127.0.0.1:1")
    referee = Referee(settings)
    assert load_replay(referee, RAID, "raid.xml")
    referee.replay.step("jump", 7)
    referee.stop()
    again = Referee(settings)
    assert not load_replay(again, RAID, "raid.xml"), "the same file: the journal's replay goes on"
    assert again.replay.mode is not None and again.replay.mode.ply == 7
    assert load_replay(again, SHUTTLE, "shuttle.json") and again.replay.mode.ply == 0
    again.replay.step("jump", 6)
    again.replay.play_on()
    again.stop()
    third = Referee(settings)
    assert not load_replay(third, SHUTTLE, "shuttle.json"), "the game played on from it goes on"
    assert third.session.phase == "playing" and third.session.game is not None
    assert third.session.game.ply == 6
    third.stop()


def test_an_espionage_game_brings_its_own_volcanoes(tmp_path):
    import random

    from engine import Color, Game, get_variant, place_volcanoes, random_setup
    from engine.stratego.records import GameRecord

    rng = random.Random(4)
    variant = get_variant("espionage")
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng),
                           volcanoes=place_volcanoes(variant, rng))
    for _ in range(6):
        game.push(rng.choice(game.legal_moves()))
    desk = desk_at(tmp_path / "j.db")
    desk.load(json.dumps(GameRecord.from_game(game).to_dict()), "espionage.json")
    assert desk.session.volcanoes == game.volcanoes, "the table's markers are the game's"
    public = desk.public()
    assert public is not None and public["volcanoes"] == [s.name for s in game.volcanoes]
    assert public["length"] == 6


def test_a_step_the_journal_refuses_is_not_kept_and_the_replay_goes_on_once_it_writes_again(tmp_path):
    from tests.firmware_bridge.referee.test_storage_failure import FullDisk

    desk = desk_at(tmp_path / "j.db")
    desk.execute("red", command("red", 1, "replay_load", text=RAID, name="raid.xml"))
    reply, _ = desk.execute("red", command("red", 2, "replay_step", step="jump", ply=5))
    assert reply["ok"] and desk.mode.ply == 5
    journal = desk.session.journal
    journal._db = FullDisk(journal._db)
    with pytest.raises(JournalError):
        desk.execute("red", command("red", 3, "replay_step", step="forward"))
    # Applied, refused by the journal, put back: the replay is where its journal says it is.
    assert desk.mode.ply == 5 and desk.session.seats["red"].last_counter == 2
    journal._db = journal._db.db
    reply, _ = desk.execute("red", command("red", 3, "replay_step", step="forward"))
    assert reply["ok"] and desk.mode.ply == 6
    journal.close()
    assert desk_at(tmp_path / "j.db").mode.ply == 6, "the journal holds each step once"
