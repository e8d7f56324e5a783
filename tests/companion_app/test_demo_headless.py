"""`arbiter demo` on a machine without a display: says so, then plays through the real system."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_demo_without_display_plays_a_scripted_game_through_broker_referee_and_board(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO))
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.cli", "demo", "--plies", "16"],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "no display found" in out
    # Both tablets took their seats by a piece put on the square the referee named.
    assert "Red: Take your seat (a piece put on" in out
    assert "Blue: Take your seat (a piece put on" in out
    # Sixteen moves were ruled from the simulated board, then a draw was agreed.
    assert " 16. Blue " in out
    assert "Draw — Reason: both players agreed to a draw" in out
    # Each tablet told its own side of every battle.
    assert "Your " in out and "attacked your" in out
    assert "no hidden enemy rank among them" in out
