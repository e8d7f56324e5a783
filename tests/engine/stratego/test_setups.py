"""Setups: every piece of the army in the player's zone, with precise messages otherwise."""

import random

import pytest

from engine import (
    Color,
    Square,
    get_variant,
    named_setup,
    named_setups,
    random_setup,
    validate_setup,
)

SHIPPED = ["classic", "barrage", "duel", "compact", "strategy8"]


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("color", list(Color))
def test_random_setups_are_legal(name, color):
    variant = get_variant(name)
    for seed in range(20):
        assert validate_setup(variant, color, random_setup(variant, color, random.Random(seed))) == []


@pytest.mark.parametrize("name", SHIPPED)
def test_named_setups_are_legal_for_both_sides(name):
    variant = get_variant(name)
    assert named_setups(variant)
    for setup_name in named_setups(variant):
        for color in Color:
            assert validate_setup(variant, color, named_setup(variant, color, setup_name)) == []


def test_blue_sees_a_named_setup_from_the_other_side_of_the_board():
    classic = get_variant("classic")
    red = named_setup(classic, Color.RED, "corner-fortress")
    blue = named_setup(classic, Color.BLUE, "corner-fortress")
    assert red[Square.parse("b1")] == "flag"
    assert blue[Square.parse("i10")] == "flag"


def test_a_missing_scout_is_named():
    classic = get_variant("classic")
    setup = random_setup(classic, Color.BLUE, random.Random(1))
    scout_square = next(sq for sq, kind in setup.items() if kind == "scout")
    del setup[scout_square]
    errors = validate_setup(classic, Color.BLUE, setup)
    assert "Blue has 7 Scouts, needs 8" in errors
    assert any(error.startswith("Blue's zone must be full") for error in errors)


def test_a_piece_outside_the_zone_is_named():
    classic = get_variant("classic")
    setup = random_setup(classic, Color.RED, random.Random(2))
    square = next(iter(setup))
    setup[Square.parse("e5")] = setup.pop(square)
    assert "e5 is outside Red's zone" in validate_setup(classic, Color.RED, setup)


def test_a_lake_and_a_foreign_piece_are_named():
    classic = get_variant("classic")
    setup = random_setup(classic, Color.RED, random.Random(3))
    setup[Square.parse("c5")] = "scout"
    setup[Square.parse("a1")] = "dragon"
    errors = validate_setup(classic, Color.RED, setup)
    assert "c5 is a lake" in errors
    assert "Red has a dragon, which classic does not use" in errors


def test_barrage_zones_need_not_be_full():
    barrage = get_variant("barrage")
    setup = random_setup(barrage, Color.RED, random.Random(4))
    assert len(setup) == 8
    assert validate_setup(barrage, Color.RED, setup) == []
