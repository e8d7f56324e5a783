"""`arbiter referee`: config file, command line, embedded broker, clean stop, LAN announcement."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.protocol.discovery import Announcer, discover
from firmware_bridge.referee.broker import free_port
from firmware_bridge.referee.config import ConfigError, load_config
from tests.firmware_bridge.helpers import journal_sign_key, wait_until

ROOT = Path(__file__).parents[3]


def test_a_full_config_file_is_read(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text("""
[board]
name = "kitchen"
title = "Kitchen table"
profile = "10x10"
[game]
variant = "duel"
game_time = "90m"
player_time = "10m+5s"
[broker]
url = "mqtts://referee:pw@broker.local:8883"
[broker.seats]
red = "r"
blue = "b"
[journal]
path = "/tmp/j.db"
[log]
format = "json"
""")
    config = load_config(path)
    assert (config.board, config.variant, config.board_input) == ("kitchen", "duel", True)
    assert config.time_control.game_seconds == 5400 and config.time_control.increment == 5
    assert config.seat_accounts == {"red": ("red", "r"), "blue": ("blue", "b")}


@pytest.mark.parametrize("text, message", [
    ("[bord]\nname = 'x'", "unknown section"),
    ("[board]\nnmae = 'x'", "unknown keys"),
    ("[board]\nname = 'a/b'", "board name"),
    ("[game]\nvariant = 'chess'", "unknown variant"),
    ("[game]\nplayer_time = 'ten minutes'", "duration"),
    ("[broker]\nurl = 'http://x'", "mqtt://"),
    ("[broker.seats]\ngreen = 'x'", "red and blue"),
    ("[board\n", "not valid TOML"),
])
def test_a_bad_config_is_refused_with_what_to_fix(tmp_path, text, message):
    path = tmp_path / "referee.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def run_referee(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "firmware_bridge.cli.main", "referee", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_bad_config_exits_with_status_2_and_a_message(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text("[game]\nvariant = 'chess'\n")
    process = run_referee("--config", str(path))
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2 and "unknown variant" in err


def test_without_a_broker_the_referee_runs_an_embedded_one_and_stops_cleanly(tmp_path):
    port = free_port()
    process = run_referee("--board", "home", "--port", str(port), "--journal", str(tmp_path / "j.db"),
                          "--no-announce", "--log-format", "json", "--variant", "barrage")
    try:
        display = DisplayClient(f"mqtt://127.0.0.1:{port}", "home")
        assert wait_until(lambda: display.start(wait=1.0), 20), "the embedded broker never came up"
        display.pin_key(journal_sign_key(tmp_path / "j.db"))
        assert display.wait(lambda c: c.state is not None and c.info is not None, 15)
        assert display.info["variant"] == "barrage" and display.state["phase"] == "setup"
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
        display.stop()
    finally:
        if process.poll() is None:
            process.kill()
    logs = process.stderr.read()
    assert '"msg": "referee ready' in logs  # structured: one JSON object a line


def test_the_board_is_found_on_the_lan_by_zeroconf():
    announcer = Announcer("zc-test", 1883, "k" * 44, "Test table", addresses=["127.0.0.1"],
                          interfaces=["127.0.0.1"])
    announcer.start()
    try:
        found = [b for b in discover(5.0, interfaces=["127.0.0.1"]) if b.board == "zc-test"]
        assert found and found[0].broker_url == "mqtt://127.0.0.1:1883"
        assert found[0].referee_key == "k" * 44 and found[0].title == "Test table"
    finally:
        announcer.stop()
