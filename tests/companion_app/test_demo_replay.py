"""`arbiter demo --replay FILE`: a recorded game replayed through broker, referee and simulated board."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RAID = REPO / "tests" / "engine" / "stratego" / "data" / "gravon_barrage_marshal_raid.gsn"


def demo(*args: str, env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "demo", *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)


def headless_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO))
    return env


def test_without_a_display_scripted_hands_replay_the_game_on_the_simulated_board(tmp_path):
    result = demo("--replay", str(RAID), "--plies", "8", env=headless_env(tmp_path))
    out = result.stdout
    assert result.returncode == 0, out + result.stderr[-3000:]
    assert f"{RAID.name} · Red: Player 1 · Blue: Player 2" in out
    assert "Put on a1: Flag, Red." in out
    assert "Move 5: Red moves Spy (1) from e5 to e6. It attacks Marshal (10), Blue." in out
    assert "Spy (1) attacked Marshal (10): the attacker wins." in out
    assert "Replayed 8 moves on the simulated board, each recognised by the referee." in out


def test_a_file_that_is_no_game_is_refused_with_the_reason(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("eggs, milk")
    result = demo("--replay", str(notes), "--headless", env=headless_env(tmp_path))
    assert result.returncode == 2
    assert "cannot replay" in result.stdout and "not JSON, Gravon XML or GSN" in result.stdout


def test_with_a_display_the_windows_open_with_the_replay_loaded(xvfb, tmp_path):
    env = dict(os.environ, DISPLAY=xvfb, ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO),
               KIVY_HOME=str(tmp_path / "kivy"))
    result = demo("--replay", str(RAID), "--quit-after", "5", env=env, timeout=90)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert "broker and referee at mqtt://127.0.0.1:" in result.stdout
    assert f"arbiter demo: replaying {RAID}: put both setups on the board" in result.stdout


def test_a_headless_replay_plays_the_whole_file_unless_told_otherwise(tmp_path):
    from firmware_bridge.referee.replay_mode import read_game

    moves = len(read_game(RAID.read_text("utf-8")).record.moves)
    result = demo("--replay", str(RAID), "--headless", env=headless_env(tmp_path), timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"Replayed {moves} moves on the simulated board" in result.stdout
