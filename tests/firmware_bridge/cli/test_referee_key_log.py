"""`arbiter referee` logs its signing-key fingerprint at start: the number the display must show."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.broker import free_port
from tests.firmware_bridge.helpers import wait_until

ROOT = Path(__file__).parents[3]


def test_the_console_shows_the_fingerprint_the_display_pinned(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.cli.main", "referee", "--board", "home", "--port", str(port),
         "--journal", str(tmp_path / "j.db"), "--no-announce", "--log-format", "json"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        display = DisplayClient(f"mqtt://127.0.0.1:{port}", "home")
        assert wait_until(lambda: display.start(wait=1.0), 20), "the embedded broker never came up"
        assert display.wait(lambda c: c.info is not None, 15)
        pinned = display.pin.fingerprint
        display.stop()
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
    finally:
        if process.poll() is None:
            process.kill()
    lines = [json.loads(line) for line in process.stderr.read().splitlines() if line.startswith("{")]
    said = [line["msg"] for line in lines if line["msg"].startswith("referee key fingerprint")]
    assert said == [f"referee key fingerprint: {pinned} (the referee display must show the same number)"]
