"""`arbiter referee --replay FILE`: the referee starts with a recorded game on the board."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from firmware_bridge.protocol.client import DisplayClient
from tests.firmware_bridge.helpers import journal_sign_key, requires_mosquitto
from tests.firmware_bridge.referee_process import write_config

ROOT = Path(__file__).parents[3]
RAID = ROOT / "tests" / "engine" / "stratego" / "data" / "gravon_barrage_marshal_raid.gsn"


def referee(config: Path, game: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "firmware_bridge.cli.main", "referee",
                             "--config", str(config), "--replay", str(game)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)


@requires_mosquitto
def test_the_referee_publishes_the_replay_of_the_file_it_was_given(mosquitto, tmp_path):
    config = write_config(tmp_path / "r.toml", "cli-replay", mosquitto.url, tmp_path / "j.db",
                          variant="classic")
    display = DisplayClient(mosquitto.url, "cli-replay")
    assert display.start()
    process = referee(config, RAID)
    try:
        display.pin_key(journal_sign_key(tmp_path / "j.db"))
        assert display.wait(lambda c: bool(c.state and c.state.get("replay")), 20), \
            "no replay in the referee's state"
        replay = display.state["replay"]
        assert (replay["phase"], replay["ply"], replay["length"]) == ("placing", 0, 33)
        assert replay["source"] == {"name": RAID.name, "format": "gsn",
                                    "players": ["Player 1", "Player 2"]}
        assert display.state["variant"] == "barrage", "the game's variant, not the config's"
    finally:
        process.terminate()
        assert process.wait(10) == 0
        display.stop()


def test_a_file_that_is_no_game_stops_the_referee_with_the_reason(tmp_path):
    game = tmp_path / "notes.txt"
    game.write_text("shopping list: eggs")
    config = write_config(tmp_path / "r.toml", "cli-replay", "mqtt://127.0.0.1:1", tmp_path / "j.db")
    process = referee(config, game)
    _, error = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "cannot replay" in error and "notes.txt" in error and "not JSON" in error


def test_a_missing_file_is_refused_before_anything_starts(tmp_path):
    config = write_config(tmp_path / "r.toml", "cli-replay", "mqtt://127.0.0.1:1", tmp_path / "j.db")
    process = referee(config, tmp_path / "nowhere.gsn")
    _, error = process.communicate(timeout=30)
    assert process.returncode == 2 and "cannot read the game file" in error
    assert not (tmp_path / "j.db").exists(), "nothing was started"


def test_no_replay_over_a_game_being_played(tmp_path):
    from tests.firmware_bridge.referee.test_crash_recovery_board import prepared_journal

    session = prepared_journal(tmp_path / "j.db")  # both setups in: the game is on
    assert session.phase == "playing"
    session.journal.close()
    config = write_config(tmp_path / "r.toml", "cli-replay", "mqtt://127.0.0.1:1", tmp_path / "j.db")
    process = referee(config, RAID)
    _, error = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "cannot replay" in error and "a game is being played" in error
