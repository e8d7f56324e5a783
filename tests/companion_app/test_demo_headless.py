"""`arbiter demo` on a machine without a display: says so, then plays through the real system."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


BUSY_SECONDS = 300  # a loader stops by itself after this, even if the test process is killed
BUSY_LOOP = f"import time\nend = time.monotonic() + {BUSY_SECONDS}\nwhile time.monotonic() < end: pass"


def _play_the_headless_demo(tmp_path, timeout: float) -> str:
    """Run `arbiter demo` without a display; check what it tells; return its output."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO))
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "demo", "--plies", "16"],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "no display found" in out
    # Both tablets took their seats by pieces put on the two squares each named.
    assert "Red: Take your seat (pieces put on" in out
    assert "Blue: Take your seat (pieces put on" in out
    # Sixteen moves were ruled from the simulated board, then a draw was agreed.
    assert " 16. Blue " in out
    assert "Draw — Reason: both players agreed to a draw" in out
    # Each tablet told its own side of every battle.
    assert "Your " in out and "attacked your" in out
    assert "never an enemy piece's rank its player was not allowed to know" in out
    return out


def test_demo_without_display_plays_a_scripted_game_through_broker_referee_and_board(tmp_path):
    _play_the_headless_demo(tmp_path, timeout=120)


def test_the_headless_demo_ends_well_while_busy_processes_load_every_core(tmp_path):
    # A loaded machine (a CI run) delivers the referee's messages at other moments: the end of
    # the game once reached the tablets before the view that carried its result.
    loaders = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(os.cpu_count() or 2)]
    try:
        _play_the_headless_demo(tmp_path, timeout=BUSY_SECONDS)
    finally:
        for loader in loaders:
            loader.kill()
            loader.wait()


def test_demo_with_a_display_opens_board_and_tablet_windows_and_closes_them(xvfb, tmp_path):
    env = dict(os.environ, DISPLAY=xvfb, ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO),
               KIVY_HOME=str(tmp_path / "kivy"))
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "demo", "--quit-after", "6"],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=90)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert "broker and referee at mqtt://127.0.0.1:" in result.stdout
    assert "no display found" not in result.stdout
    # The tablets (child processes connected to this demo's broker) are gone with the board window.
    url = result.stdout.split("referee at ")[1].split(")")[0]
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert url not in ps


def test_closing_any_window_of_the_demo_ends_it(xvfb, tmp_path):
    """A tablet window closed (its process ends): the board window and the other windows close too."""
    env = dict(os.environ, DISPLAY=xvfb, ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO),
               KIVY_HOME=str(tmp_path / "kivy"))
    demo = subprocess.Popen([sys.executable, "-m", "firmware_bridge.cli.main", "demo"], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = demo.stdout.readline()
        while "referee at " not in first:
            first = demo.stdout.readline()
            assert first, "the demo printed no broker address"
        url = first.split("referee at ")[1].split(")")[0]

        def windows() -> list[int]:
            rows = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True).stdout
            return [int(row.split()[0]) for row in rows.splitlines() if url in row and " tablet " in row]

        deadline = time.monotonic() + 60
        while len(windows()) < 3:  # both tablets and the referee display
            assert time.monotonic() < deadline, "the tablet windows did not open"
            time.sleep(0.2)
        os.kill(windows()[0], signal.SIGTERM)  # as closing its window ends it
        assert demo.wait(timeout=60) == 0
        deadline = time.monotonic() + 20
        while windows():
            assert time.monotonic() < deadline, "a window of the demo stayed open"
            time.sleep(0.2)
    finally:
        if demo.poll() is None:
            demo.kill()
