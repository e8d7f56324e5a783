"""A whole famous game replayed through the simulated board, sensors and firmware, faults on.

The games are the Gravon barrage game in tests/engine/stratego/data (a scout duel, a spy taking the
marshal, a general losing to the marshal, a marshal raid to the flag: every kind of battle) and
the 110-move duel of the archive-shapes corpus.
The hands set both setups up from the steps, then make each move the controller shows; the
controller must step on exactly once per move, never on a wrong one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Move, Square
from firmware_bridge.referee.replay_mode import ReplayMode
from hardware.sim.hands import ALL_FAULTS
from tests.firmware_bridge.referee.replay_table import ReplayTable

DATA = Path(__file__).parents[2] / "engine" / "stratego" / "data"
RAID = (DATA / "gravon_barrage_marshal_raid.xml").read_text()


def next_move(mode: ReplayMode) -> Move:
    step = mode.steps()[0]
    assert step["action"] == "move", f"expected the game's next move, got {step}"
    return Move.parse(f"{step['square']}-{step['to']}")


@pytest.mark.parametrize(("name", "plies", "seed"), [
    ("gravon_barrage_marshal_raid.xml", 33, 3),
    ("gravon/duell-flag-captured.xml", 110, 1),
])
def test_a_whole_gravon_game_replays_through_the_simulated_board_with_faults(name, plies, seed):
    mode = ReplayMode((DATA / name).read_text(), name)
    table = ReplayTable(mode, seed=seed, faults=ALL_FAULTS)
    table.run(0.5)
    assert mode.phase == "placing"
    assert [s["action"] for s in mode.steps()] == ["place"] * len(mode.replay.position()), \
        "both setups, square by square"
    assert table.settle(), f"the setups never matched: {mode.steps()}"
    assert mode.phase == "replaying" and mode.ply == 0
    while mode.phase == "replaying":
        ply = mode.ply
        move = next_move(mode)
        assert move == mode.replay.moves[ply], "the step shown is the game's move"
        assert table.play(move), f"ply {ply + 1} ({move}) was not recognised: {mode.steps()}"
        assert mode.ply == ply + 1, "stepped on exactly once"
        assert table.settle(), f"the board never matched after ply {ply + 1}: {mode.steps()}"
    assert mode.phase == "end" and mode.ply == mode.replay.length == plies
    assert mode.game.result is not None and mode.game.result.reason == "flag-captured"


@pytest.mark.parametrize(("wrong", "why"), [
    ("g4-f4", "a legal move, but not the game's"),
    ("g4-g5", "a move the rules refuse (into a lake)"),
])
def test_a_wrong_move_on_the_board_is_guided_back_and_the_replay_waits(wrong, why):
    mode = ReplayMode(RAID)
    table = ReplayTable(mode, seed=5)
    assert table.settle()
    expected = next_move(mode)  # a4-a6, the red scout
    table.hands.play(mode.game, Move.parse(wrong))  # the red marshal steps out instead
    assert table.run(5.0, lambda: mode.wrong_move is not None), why
    assert mode.ply == 0 and str(mode.wrong_move) == wrong, "a move that is not the game's is not taken"
    origin, target = wrong.split("-")
    assert mode.steps()[0] == {"action": "put_back", "square": target, "to": origin,
                               "color": "red", "kind": "marshal"}
    assert table.settle()
    assert mode.wrong_move is None and next_move(mode) == expected, "then the game's move again"
    assert table.play(expected) and mode.ply == 1


def test_back_over_a_battle_puts_both_pieces_back_on_the_board():
    mode = ReplayMode(RAID)
    table = ReplayTable(mode, seed=7)
    assert table.settle()
    for _ in range(5):  # up to the spy taking the marshal on e6
        assert table.play(next_move(mode)) and table.settle()
    assert mode.last_battles == [{"attacker": "spy", "defender": "marshal", "outcome": "attacker"}]
    mode.back()
    assert mode.steps() == [
        {"action": "put_back", "square": "e6", "to": "e5", "color": "red", "kind": "spy"},
        {"action": "place", "square": "e6", "color": "blue", "kind": "marshal"}]
    assert table.settle() and mode.ply == 4
    assert next_move(mode) == Move.parse("e5-e6"), "and the spy's attack is shown again"


def test_a_jump_guides_the_board_to_the_position_at_that_ply():
    mode = ReplayMode(RAID)
    table = ReplayTable(mode, seed=9)
    assert table.settle()
    mode.jump(12)  # after the general lost to the marshal on f5
    assert mode.phase == "placing"
    board_squares = set(table.board.occupied())
    expected = set(mode.replay.position())
    assert {s["square"] for s in mode.steps() if s["action"] == "remove"} \
        == {s.name for s in board_squares - expected}
    assert table.settle() and mode.phase == "replaying" and mode.ply == 12
    assert table.board.occupied() == frozenset(expected)


def test_forward_ahead_of_the_board_asks_for_the_moves_and_back_undoes_one_never_made():
    mode = ReplayMode(RAID)
    table = ReplayTable(mode, seed=11)
    assert table.settle()
    mode.jump(2)  # after the scouts' battle on a6
    assert table.settle() and mode.phase == "replaying"
    mode.forward()
    mode.forward()
    mode.forward()
    assert [s["ply"] for s in mode.steps()] == [3, 4, 5], "the moves to make, in order"
    mode.back()  # the spy's attack was never made on the board: nothing to put back
    assert [(s["action"], s["square"], s["to"]) for s in mode.steps()] == [
        ("move", "e4", "e5"), ("move", "e7", "e6")]
    table.board.move(Square.parse("e4"), Square.parse("e5"))
    table.run(0.5)
    table.board.move(Square.parse("e7"), Square.parse("e6"))
    assert table.run(3.0, table.matches) and mode.ply == 4
    assert mode.steps()[0]["action"] == "move" and mode.steps()[0]["ply"] == 5
