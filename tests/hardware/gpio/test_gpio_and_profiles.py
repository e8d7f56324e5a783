"""The Pi's own GPIO matrix (gpiozero mock pins) and the board profiles."""

import pytest
from gpiozero.pins.mock import MockFactory

from engine import Square
from hardware.gpio.matrix import GpioMatrix, MockSwitchMatrix
from hardware.profiles import (
    ProfileError,
    load_profile,
    parse_profile,
    profile_for_variant,
    shipped_profiles,
)


def matrix_for(closed: set[tuple[int, int]], profile_name: str = "10x10", orientation: str = "a1-row0-col0"):
    profile = load_profile(profile_name)
    factory = MockFactory()
    MockSwitchMatrix(factory, profile.gpio_rows, profile.gpio_cols, lambda r, c: (r, c) in closed)
    return GpioMatrix(profile.gpio_rows, profile.gpio_cols, orientation, pin_factory=factory)


def test_a_column_reads_low_only_through_a_closed_switch_on_the_driven_row():
    matrix = matrix_for({(0, 0), (3, 7), (9, 9)})
    try:
        assert [i for i, v in enumerate(matrix.read()) if v] == [0, 37, 99]
    finally:
        matrix.close()


def test_a_full_rectangle_minus_one_corner_does_not_ghost():
    matrix = matrix_for({(2, 2), (2, 5), (6, 2)})
    try:
        values = matrix.read()
        assert not values[6 * 10 + 5] and sum(values) == 3
    finally:
        matrix.close()


def test_every_row_is_released_after_a_scan():
    matrix = matrix_for(set(), "8x8")
    try:
        matrix.read()
        assert all(not row.value for row in matrix.rows)  # active_high=False: off = high = idle
    finally:
        matrix.close()


def test_a_board_turned_round_is_read_the_right_way_up():
    matrix = matrix_for({(0, 0)}, orientation="rotated-180")
    try:
        values = matrix.read()
        assert values[99] and sum(values) == 1
    finally:
        matrix.close()


def test_shipped_profiles_cover_every_board_size():
    assert shipped_profiles() == ["10x10", "8x8"]
    assert profile_for_variant("classic").width == 10
    strategy = profile_for_variant("strategy8")
    assert (strategy.width, strategy.height) == (8, 8)
    assert len(strategy.gpio_rows) == 8 and len(strategy.gpio_cols) == 8


def test_a_profile_with_a_wrong_pin_map_is_refused_with_the_reason():
    data = {"width": 8, "height": 8, "sensor": {"source": "gpio"}, "gpio": {"rows": [1, 2], "cols": [3]}}
    with pytest.raises(ProfileError, match="gpio needs 8 rows and 8 cols"):
        parse_profile(data)
    data["gpio"] = {"rows": list(range(8)), "cols": [7] + list(range(9, 16))}
    with pytest.raises(ProfileError, match="distinct"):
        parse_profile(data)


def test_bad_values_in_a_profile_are_named():
    with pytest.raises(ProfileError, match="sensor.kind"):
        parse_profile({"width": 10, "height": 10, "sensor": {"kind": "psychic"}})
    with pytest.raises(ProfileError, match="width"):
        parse_profile({"width": "ten", "height": 10})
    with pytest.raises(ProfileError, match="no board profile"):
        load_profile("12x12")


def test_a_makers_own_profile_file_loads(tmp_path):
    path = tmp_path / "my-board.toml"
    path.write_text('width = 8\nheight = 8\n[sensor]\nsource = "serial"\nserial_port = "/dev/ttyACM1"\n'
                    'kind = "identifying"\n')
    profile = load_profile(path)
    assert profile.serial_port == "/dev/ttyACM1" and profile.identifying and profile.name == "my-board"
    bad = tmp_path / "bad.toml"
    bad.write_text("width = [")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(bad)


def test_squares_of_a_profile_match_the_engine():
    profile = load_profile("10x10")
    assert Square(profile.width - 1, profile.height - 1).name == "j10"


def test_a_profile_says_whether_volcano_markers_are_sensed():
    base = {"width": 10, "height": 10}
    assert parse_profile(base).volcano_markers_sensed is None  # unknown: learned at setup
    assert parse_profile({**base, "sensor": {"volcano_markers_sensed": True}}).volcano_markers_sensed is True
    assert parse_profile({**base, "sensor": {"volcano_markers_sensed": False}}).volcano_markers_sensed is False
    with pytest.raises(ProfileError, match="volcano_markers_sensed"):
        parse_profile({**base, "sensor": {"volcano_markers_sensed": "yes"}})
