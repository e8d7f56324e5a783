"""The referee's clocks: player time with increment, total game time."""

from __future__ import annotations

import pytest

from firmware_bridge.referee.clocks import GameClock, TimeControl, parse_duration


def test_the_running_player_is_charged_and_gets_the_increment_when_the_turn_passes():
    clock = GameClock(TimeControl(player_seconds=60, increment=5))
    clock.start("red", now=0)
    clock.turn_passed("blue", now=10)
    assert clock.remaining("red", now=10) == 55
    assert clock.remaining("blue", now=14) == 56


def test_a_fallen_flag_names_the_player():
    clock = GameClock(TimeControl(player_seconds=10))
    clock.start("red", 0)
    assert clock.expired(9.9) is None
    assert clock.expired(10) == ("player", "red")


def test_total_game_time_counts_both_players():
    clock = GameClock(TimeControl(game_seconds=20))
    clock.start("red", 0)
    clock.turn_passed("blue", 12)
    assert clock.expired(19) is None
    assert clock.expired(20) == ("game", None)


def test_a_checkpoint_restores_the_clocks_without_charging_downtime():
    clock = GameClock(TimeControl(player_seconds=60))
    clock.start("red", 0)
    checkpoint = clock.checkpoint(15)
    restored = GameClock.restore(TimeControl(player_seconds=60), checkpoint, now=1000)
    assert restored.remaining("red", 1000) == 45
    assert restored.running == "red"


@pytest.mark.parametrize("text, seconds", [("90m", 5400), ("1h30m", 5400), ("45s", 45), ("600", 600)])
def test_durations_read_like_people_write_them(text, seconds):
    assert parse_duration(text) == seconds


def test_a_time_control_parses_minutes_plus_increment():
    control = TimeControl.parse(game="90m", player="10m+5s")
    assert (control.game_seconds, control.player_seconds, control.increment) == (5400, 600, 5)
    with pytest.raises(ValueError):
        parse_duration("ten minutes")
