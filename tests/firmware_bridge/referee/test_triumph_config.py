"""A referee for Napoleon's Triumph is configured for tablets and two people, or refused clearly."""

from __future__ import annotations

import pytest

from firmware_bridge.referee.config import ConfigError, RefereeConfig, load_config


def test_a_triumph_referee_is_played_on_the_tablets(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text('[board]\nname = "austerlitz"\ninput = "tablets"\n[game]\nvariant = "napoleons-triumph"\n'
                    'player_time = "30m"\n', encoding="utf-8")
    config = load_config(path)
    assert config.variant == "napoleons-triumph" and not config.board_input


@pytest.mark.parametrize("options, said", [
    ({"board_input": True}, "without sensors"),
    ({"profile": "10x10"}, "without sensors"),
    ({"computer": "blue"}, "no computer player"),
    ({"moves_per_turn": 1}, "no such option"),
])
def test_what_the_block_game_cannot_do_is_refused_with_the_reason(options, said):
    with pytest.raises(ConfigError, match=said):
        RefereeConfig(variant="napoleons-triumph", **options).check()


def test_an_unknown_game_names_the_block_game_among_the_known_ones():
    with pytest.raises(ConfigError, match="napoleons-triumph"):
        RefereeConfig(variant="napoleon").check()
