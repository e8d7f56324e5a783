"""The simulated sensor grid: hands, sensing and faults."""

import threading

import pytest

from engine import Square
from hardware.sim.board import IDENTIFYING, SimulatedBoard, VirtualClock

S = Square.parse


def index(square: str, width: int = 10) -> int:
    return S(square).rank * width + S(square).file


@pytest.fixture
def clock():
    return VirtualClock()


def test_tokens_are_lifted_placed_and_moved(clock):
    board = SimulatedBoard(clock=clock)
    board.set_position([S("a1"), S("b2")])
    board.move(S("a1"), S("a2"))
    tag = board.lift(S("b2"))
    assert board.in_hand() == [tag]
    board.place(S("c3"))
    assert board.occupied() == {S("a2"), S("c3")}
    assert board.tokens()[S("c3")] == tag


def test_impossible_actions_are_refused_and_change_nothing(clock):
    board = SimulatedBoard(8, 8, clock=clock)
    board.set_position([S("a1")])
    with pytest.raises(ValueError):
        board.lift(S("b1"))
    with pytest.raises(ValueError):
        board.place(S("a1"))
    with pytest.raises(ValueError):
        board.place(S("i9"))
    assert board.occupied() == {S("a1")}


def test_sensors_read_the_tokens(clock):
    board = SimulatedBoard(clock=clock)
    board.set_position([S("e4")])
    values = board.read_values()
    assert values[index("e4")] is True and sum(values) == 1


def test_identifying_sensors_read_tags(clock):
    board = SimulatedBoard(sensor_kind=IDENTIFYING, clock=clock)
    board.set_position({S("e4"): 42})
    assert board.read_values()[index("e4")] == 42


def test_a_glitch_inverts_exactly_one_reading(clock):
    board = SimulatedBoard(clock=clock)
    board.glitch(S("c3"))
    assert board.read_values()[index("c3")] is True
    assert board.read_values()[index("c3")] is False


def test_a_nudged_piece_reads_empty_for_a_moment(clock):
    board = SimulatedBoard(clock=clock)
    board.set_position([S("d4")])
    board.nudge(S("d4"), 0.05)
    assert board.read_values()[index("d4")] is False
    clock.advance(0.06)
    assert board.read_values()[index("d4")] is True


def test_a_slid_scout_is_sensed_on_every_square_it_passes(clock):
    board = SimulatedBoard(clock=clock)
    board.set_position([S("a2")])
    board.slide(S("a2"), S("a6"), step_s=0.05)
    seen = []
    for _ in range(40):
        values = board.read_values()
        seen.append({sq for sq in ("a2", "a3", "a4", "a5", "a6") if values[index(sq)]})
        clock.advance(0.005)
    touched = set().union(*seen)
    assert touched == {"a3", "a4", "a5", "a6"}
    assert seen[-1] == {"a6"} and board.occupied() == {S("a6")}


def test_a_piece_between_two_squares_makes_both_flicker(clock):
    board = SimulatedBoard(clock=clock, seed=1)
    board.between(S("e4"), S("e5"), 0.2)
    readings = []
    for _ in range(30):
        values = board.read_values()
        readings.append((values[index("e4")], values[index("e5")]))
        clock.advance(0.005)
    assert {r[0] for r in readings} == {True, False} and {r[1] for r in readings} == {True, False}


def test_the_board_is_safe_to_use_from_several_threads():
    board = SimulatedBoard()
    board.set_position([Square(f, 0) for f in range(10)])
    errors = []

    def shuffle(file: int) -> None:
        try:
            for _ in range(200):
                board.move(Square(file, 0), Square(file, 1))
                board.move(Square(file, 1), Square(file, 0))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=shuffle, args=(f,)) for f in range(10)]
    reader = threading.Thread(target=lambda: [board.read_values() for _ in range(500)])
    for thread in [*threads, reader]:
        thread.start()
    for thread in [*threads, reader]:
        thread.join()
    assert errors == []
    assert board.occupied() == {Square(f, 0) for f in range(10)}


def test_listeners_hear_every_change(clock):
    board = SimulatedBoard(clock=clock)
    heard = []
    board.add_listener(lambda: heard.append(len(board.occupied())))
    board.place(S("a1"))
    board.show_leds([1] + [0] * 99)
    assert heard == [1, 1] and board.leds == {S("a1"): "green"}
