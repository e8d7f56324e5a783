"""`arbiter referee` logs its signing-key fingerprint at start: the number a display paired by code
shows (the key reaches the display inside the SPAKE2 exchange, never from ``info``)."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.broker import free_port
from tests.firmware_bridge.helpers import wait_until
from tests.firmware_bridge.referee_process import RefereeProcess

ROOT = Path(__file__).parents[3]


def test_the_console_shows_the_fingerprint_the_display_pinned(tmp_path):
    port = free_port()
    config = tmp_path / "referee.toml"
    config.write_text(f'[board]\nname = "home"\n[journal]\npath = "{tmp_path / "j.db"}"\n'
                      f'[broker]\nembedded_port = {port}\n[log]\nformat = "json"\n[announce]\nenabled = false\n')
    process = RefereeProcess(config).start()
    try:
        display = DisplayClient(f"mqtt://127.0.0.1:{port}", "home")
        assert wait_until(lambda: display.start(wait=1.0), 20), "the embedded broker never came up"
        process.pair_display(display)
        assert display.wait(lambda c: c.info is not None, 15)
        pinned = display.pin.fingerprint
        display.stop()
        assert process.stop() == 0
    finally:
        process.kill()
    lines = [json.loads(line) for line in process.lines if line.startswith("{")]
    said = [line["msg"] for line in lines if line["msg"].startswith("referee key fingerprint")]
    assert said == [f"referee key fingerprint: {pinned} (the referee display must show the same number)"]
