"""A family's own variant, written in TOML, works with every `arbiter` command."""

import json
import subprocess
import sys
from pathlib import Path

from engine import Color, get_variant, named_setup

QUICK = """
name = "family-long-shuffles"
base = "classic"
two_squares_limit = 5
"""


def run_check(record: dict, tmp_path: Path, env_extra: dict) -> subprocess.CompletedProcess:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    env = {"PATH": "", "HOME": str(tmp_path), **env_extra}
    return subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "check", str(path)],
                          capture_output=True, text=True, env=env, timeout=60)


def shuffle_record(variant: str) -> dict:
    classic = get_variant("classic")
    red = named_setup(classic, Color.RED, "corner-fortress")
    blue = named_setup(classic, Color.BLUE, "corner-fortress")
    # Red's scout on a4 and Blue's on j7 run back and forth four times: the classic limit is 3.
    moves = ["a4-a5", "j7-j6", "a5-a4", "j6-j7", "a4-a5", "j7-j6", "a5-a4"]
    return {"variant": variant,
            "setup": {"red": {s.name: k for s, k in red.items()},
                      "blue": {s.name: k for s, k in blue.items()}},
            "moves": moves}


def test_a_variant_file_in_the_config_folder_is_found_by_arbiter_check(tmp_path):
    folder = tmp_path / ".config" / "arbiter" / "variants"
    folder.mkdir(parents=True)
    (folder / "quick.toml").write_text(QUICK)
    result = run_check(shuffle_record("family-long-shuffles"), tmp_path, {})
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["illegal"] is None and verdict["applied"] == 7


def test_the_same_record_in_classic_meets_the_two_squares_rule(tmp_path):
    result = run_check(shuffle_record("classic"), tmp_path, {})
    verdict = json.loads(result.stdout)
    assert verdict["illegal"]["rule"] == "two-squares" and verdict["applied"] == 6


def test_a_broken_variant_file_is_named_and_skipped(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[army]\nwizard = 1\n')
    result = run_check(shuffle_record("classic"), tmp_path, {"ARBITER_VARIANTS": str(broken)})
    assert result.returncode == 0
    assert "variant file skipped" in result.stderr and "broken.toml" in result.stderr
    assert "unknown pieces: wizard" in result.stderr
