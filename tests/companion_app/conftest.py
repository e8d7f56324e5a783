"""Fixtures for the app tests: a private Xvfb display and a runner for Kivy scenarios.

Each scenario runs the real app in its own process (Kivy allows one App per process) and
writes a JSON report and screenshots into a folder the test reads.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.system_packages import skip_without

REPO = Path(__file__).resolve().parents[2]


def _free_display() -> int:
    for number in range(120, 200):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise RuntimeError("no free X display number")


@pytest.fixture(scope="session")
def xvfb():
    """A virtual X server for the session; its DISPLAY value."""
    skip_without("Xvfb", shutil.which("Xvfb") is not None, "the virtual display the app runs on")
    number = _free_display()
    process = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 10
    while not socket.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail("Xvfb did not start")
        time.sleep(0.05)
    yield f":{number}"
    process.terminate()
    process.wait(timeout=10)


def scenario_runner(display: str, folder: Path):
    """A function that runs one scenario by name under `display`, its files under `folder`."""

    def run(name: str, *args: str, timeout: float = 120) -> tuple[dict, Path]:
        out = folder / name
        out.mkdir()
        env = dict(os.environ, DISPLAY=display, ARBITER_TEST="1", ARBITER_APP_HOME=str(folder / "home"),
                   KIVY_HOME=str(folder / "kivy"), PYTHONPATH=str(REPO))
        result = subprocess.run(
            [sys.executable, "-m", "tests.companion_app.kivy_runner", name, str(out), *args],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
        report_path = out / "report.json"
        if not report_path.exists():
            pytest.fail(f"scenario {name} wrote no report (exit {result.returncode}):\n"
                        f"{result.stdout[-3000:]}\n{result.stderr[-6000:]}")
        report = json.loads(report_path.read_text())
        if report.get("error"):
            pytest.fail(f"scenario {name} failed:\n{report['error']}\n{result.stderr[-3000:]}")
        return report, out

    return run


@pytest.fixture
def run_scenario(xvfb, tmp_path):
    """Run a scenario of tests/companion_app/scenarios*.py; return (report, screenshot folder)."""
    return scenario_runner(xvfb, tmp_path)
