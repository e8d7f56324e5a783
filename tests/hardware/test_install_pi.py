"""The Pi's one install command installs only what the referee needs and writes a config it accepts."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "hardware" / "deploy" / "install-pi.sh"


def dry_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(SCRIPT), *args], capture_output=True, text=True, timeout=30,
                          env=dict(os.environ, ARBITER_DRY_RUN="1"))


def test_it_installs_the_pi_extra_only_and_starts_the_service():
    result = dry_run("kitchen")
    assert result.returncode == 0, result.stderr
    steps = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    pip = [step for step in steps if " install " in step and "pip" in step]
    assert len(pip) == 1 and pip[0].endswith(f"{REPO}[pi]")  # no [dev], no Kivy on the Pi
    assert "systemctl enable --now arbiter-referee" in steps
    assert any("99-arbiter-board.rules" in step for step in steps)


def test_a_board_name_that_is_no_topic_level_is_refused():
    result = dry_run("kitchen/table")
    assert result.returncode == 2 and "a-z, 0-9" in result.stderr


def test_the_config_it_writes_is_one_the_referee_accepts(tmp_path):
    from firmware_bridge.referee.config import load_config

    template = re.search(r"<<EOF\n(.*?)\nEOF", SCRIPT.read_text(), re.S)
    assert template is not None
    config_file = tmp_path / "referee.toml"
    config_file.write_text(template.group(1).replace("$BOARD", "kitchen"))
    config = load_config(str(config_file)).check()
    assert (config.board, config.variant, config.profile, config.board_input) == ("kitchen", "classic", "10x10", True)
    assert config.broker_url in (None, "")  # the embedded broker
