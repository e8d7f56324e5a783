"""The computer player's setup: human-like, and no piece that moves walled in for good."""

from __future__ import annotations

import random

from engine import Color, get_variant
from engine.stratego.notebook import human_setup
from firmware_bridge.bot.player import ComputerPlayer
from firmware_bridge.bot.setups import walled_in

CLASSIC = get_variant("classic")


def test_a_miner_behind_two_bombs_in_the_corner_is_walled_in() -> None:
    assert walled_in(CLASSIC, {"a1": "miner", "b1": "bomb", "a2": "bomb"}) == ["a1"]


def test_pieces_that_can_only_step_onto_each_other_are_walled_in_together() -> None:
    setup = {"a1": "scout", "a2": "sergeant", "b1": "bomb", "b2": "bomb", "a3": "flag"}
    assert walled_in(CLASSIC, setup) == ["a1", "a2"]


def test_a_piece_behind_another_that_may_step_aside_is_free() -> None:
    setup = {"a1": "scout", "a2": "sergeant", "b1": "bomb", "b2": "bomb"}  # a3 is empty
    assert walled_in(CLASSIC, setup) == []


def test_the_bot_never_sets_up_a_piece_it_can_never_move() -> None:
    seeds = range(120)
    library = [walled_in(CLASSIC, human_setup(CLASSIC, Color.RED, random.Random(seed))) for seed in seeds]
    assert sum(bool(squares) for squares in library) >= 5  # the library alone does it now and then
    for seed in seeds:
        setup = ComputerPlayer("classic", Color.RED, "normal", seed=seed).choose_setup()
        assert len(setup) == 40 and walled_in(CLASSIC, setup) == []
