"""The computer seat in the referee's config file and on its command line."""

from __future__ import annotations

import pytest

from firmware_bridge.cli.referee import build_config, parse_args
from firmware_bridge.referee.config import ConfigError, load_config


def write(tmp_path, text: str):
    path = tmp_path / "referee.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_config_names_the_computers_seat_and_level(tmp_path):
    config = load_config(write(tmp_path, '[game]\nvariant = "classic"\ncomputer = "blue"\ncomputer_level = "strong"\n'))
    assert (config.computer, config.computer_level) == ("blue", "strong")
    assert load_config(write(tmp_path, '[game]\nvariant = "classic"\n')).computer is None, "two people by default"


@pytest.mark.parametrize(("line", "says"), [('computer = "green"', "red or blue"),
                                             ('computer = "red"\ncomputer_level = "genius"', "genius")])
def test_a_computer_seat_or_level_the_referee_cannot_run_is_refused(tmp_path, line, says):
    with pytest.raises(ConfigError, match=says):
        load_config(write(tmp_path, f"[game]\n{line}\n"))


def test_the_command_line_overrides_the_config(tmp_path):
    path = write(tmp_path, '[game]\ncomputer = "red"\n')
    config = build_config(parse_args(["--config", str(path), "--computer", "blue", "--level", "easy"]))
    assert (config.computer, config.computer_level) == ("blue", "easy")
    with pytest.raises(ConfigError):
        build_config(parse_args(["--computer", "blue", "--level", "nonsense"]))
