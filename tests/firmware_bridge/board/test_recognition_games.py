"""Whole games played by simulated hands, in simulated time, with every fault switched on.

Each move goes through the real firmware logic, the frame codec, the stabiliser and the
recogniser; the referee must rule exactly the move made: never another (phantom), never none.
"""

import pytest

from engine import Move, Square
from firmware_bridge.board.guidance import Step, led_colours, plan_steps
from firmware_bridge.board.sim_table import Table, Tally
from firmware_bridge.protocol.board_steps import StepAction
from hardware.firmware import protocol
from hardware.sim.hands import ALL_FAULTS, NO_FAULTS

S = Square.parse


@pytest.mark.slow  # a soak: whole games with every fault
@pytest.mark.parametrize("variant", ["classic", "barrage", "strategy8", "espionage"])
def test_games_with_all_faults_are_refereed_without_phantom_or_missed_moves(variant):
    tally = Tally()
    for seed in range(12):
        tally.add(Table(variant, seed, ALL_FAULTS).play_game(30))
    assert tally.phantom == 0, tally.notes
    assert tally.missed == 0, tally.notes
    assert tally.correct >= 120


def test_games_on_identifying_sensors_are_refereed_by_tag():
    tally = Tally()
    for seed in range(6):
        tally.add(Table("duel", seed, ALL_FAULTS, identifying=True).play_game(30))
    assert (tally.phantom, tally.missed) == (0, 0), tally.notes
    assert tally.correct >= 30


def test_a_clean_move_is_ruled_within_the_quiet_period_and_debounce():
    tally = Table("classic", 3, NO_FAULTS).play_game(20)
    # three scans of firmware debounce plus the 20 ms quiet period, in simulated time
    assert tally.latencies and max(tally.latencies) <= 0.05


def test_guidance_moves_a_stray_piece_to_the_nearest_gap_and_lights_the_board():
    steps = plan_steps(clear=[S("e6"), S("a9")], fill=[S("e5")], focus=S("e5"))
    assert steps == [Step(StepAction.MOVE, S("e6"), S("e5")), Step(StepAction.REMOVE, S("a9"))]
    colours = led_colours(10, 10, steps, illegal=Move.parse("b1-b3"))
    assert colours[S("a9").rank * 10] == protocol.LED_RED
    assert colours[S("e5").rank * 10 + 4] == protocol.LED_GREEN
    assert colours[S("b3").rank * 10 + 1] == protocol.LED_AMBER
