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
from pathlib import Path

import pytest

from tests.system_packages import skip_without

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def xvfb():
    """A virtual X server for the session; its DISPLAY value.

    Xvfb picks a free display number itself (-displayfd), so sessions started at the same moment
    by several people on one machine never share (and lose) one server.
    """
    skip_without("Xvfb", shutil.which("Xvfb") is not None, "the virtual display the app runs on")
    read_end, write_end = os.pipe()
    process = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24",
                                "-nolisten", "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               pass_fds=(write_end,))
    os.close(write_end)
    with os.fdopen(read_end) as told:
        number = told.readline().strip()  # written once the server accepts connections
    if not number.isdigit() or process.poll() is not None:
        pytest.fail("Xvfb did not start")
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
