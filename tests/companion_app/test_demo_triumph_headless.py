"""`arbiter demo --game triumph` without a display: a whole scripted battle through the embedded
broker and the real referee, each tablet's instructions told in the chosen language."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_demo(tmp_path, *options: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO))
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "demo", "--game", "triumph",
                             *options], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


def test_the_battle_is_played_to_its_result_and_each_tablet_tells_its_own_blocks(tmp_path):
    out = run_demo(tmp_path)
    assert "no display found" in out and "Napoleon's Triumph, 2 December 1805" in out
    assert out.count("The referee accepted the set-up. ✓") == 2
    # The Allies act first at 7:00; the French reinforcements come on later in the day; the
    # battle lasts to 16:00 unless an army breaks first.
    assert "7:00 " in out and ("16:00" in out or "is demoralised" in out)
    assert "▸ Move" in out and "▸ Show your" in out and "▸ Bring" in out
    assert " won. (" in out and " actions in " in out


def test_the_demo_speaks_german(tmp_path):
    out = run_demo(tmp_path, "--lang", "de", "--seed", "3")
    assert "Der Schiedsrichter hat die Aufstellung angenommen. ✓" in out
    assert "▸ Bewege " in out and "▸ Zeige deine " in out and " Aktionen in " in out


def test_the_windowed_triumph_demo_opens_its_windows_and_closes_them(xvfb, tmp_path):
    env = dict(os.environ, DISPLAY=xvfb, ARBITER_APP_HOME=str(tmp_path), PYTHONPATH=str(REPO),
               KIVY_HOME=str(tmp_path / "kivy"))
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "demo", "--game", "triumph",
                             "--display", "--quit-after", "8"],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert "Napoleon's Triumph runs on this computer (broker and referee at mqtt://127.0.0.1:" in result.stdout
    url = result.stdout.split("referee at ")[1].split(")")[0]
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert url not in ps  # the tablets and the display went with the codes window
