"""Turning readings into stable board states: bounce, chatter, late reports."""

from engine import Square
from firmware_bridge.board.snapshots import Reading, Stabiliser, StableBoard


def reading(occupied: set[int], time: float, changed_ago: float = 0.0) -> Reading:
    return Reading(tuple(i in occupied for i in range(4)), 2, 2, time, changed_ago=changed_ago)


def test_the_first_reading_becomes_stable_after_the_quiet_period():
    stabiliser = Stabiliser(quiet_s=0.02)
    assert stabiliser.feed(reading({0}, 1.0)) is None
    assert stabiliser.poll(1.01) is None
    board = stabiliser.poll(1.02)
    assert board.occupied() == {Square(0, 0)} and board.changed_at == 1.0


def test_a_state_is_reported_once():
    stabiliser = Stabiliser(quiet_s=0.02)
    stabiliser.feed(reading({0}, 1.0))
    assert stabiliser.poll(1.05) is not None
    assert stabiliser.feed(reading({0}, 1.3)) is None  # a keep-alive with nothing new
    assert stabiliser.poll(2.0) is None


def test_a_board_still_changing_is_not_stable():
    stabiliser = Stabiliser(quiet_s=0.02)
    stabiliser.feed(reading(set(), 1.0))
    stabiliser.poll(1.1)
    stabiliser.feed(reading({1}, 1.2))
    stabiliser.feed(reading({1, 2}, 1.215))
    assert stabiliser.poll(1.225) is None
    assert stabiliser.settling()
    board = stabiliser.poll(1.24)
    assert board.occupied() == {Square(1, 0), Square(0, 1)}
    assert [(square, value) for square, _, value in board.events] == [(Square(1, 0), True), (Square(0, 1), True)]


def test_per_square_debounce_ignores_a_one_scan_glitch():
    stabiliser = Stabiliser(debounce_samples=3, quiet_s=0.02)
    stabiliser.feed(reading(set(), 1.0))
    stabiliser.poll(1.1)
    stabiliser.feed(reading({3}, 1.105))  # one scan only
    for t in (1.11, 1.115, 1.12, 1.2):
        stabiliser.feed(reading(set(), t))
    assert stabiliser.poll(1.3) is None
    for t in (1.305, 1.31, 1.315):
        stabiliser.feed(reading({3}, t))
    assert stabiliser.poll(1.34).occupied() == {Square(1, 1)}


def test_a_square_that_flips_back_at_once_makes_the_board_wait_longer():
    stabiliser = Stabiliser(quiet_s=0.02, chatter_quiet_s=0.25)
    stabiliser.feed(reading(set(), 1.0))
    stabiliser.poll(1.1)
    stabiliser.feed(reading({0}, 1.2))
    stabiliser.feed(reading(set(), 1.23))  # back within 30 ms: a hovering piece
    stabiliser.feed(reading({0}, 1.26))
    assert stabiliser.poll(1.3) is None
    assert stabiliser.poll(1.5) is None
    assert stabiliser.poll(1.52) is not None


def test_a_change_whose_report_was_lost_is_dated_when_it_happened():
    stabiliser = Stabiliser(quiet_s=0.02)
    stabiliser.feed(reading(set(), 1.0))
    stabiliser.poll(1.1)
    board = stabiliser.feed(reading({2}, 1.5, changed_ago=0.2))  # a keep-alive tells of it late
    assert board is not None and board.changed_at == 1.3


def test_a_target_emptied_and_refilled_between_stable_states_is_still_reported():
    stabiliser = Stabiliser(quiet_s=0.05)
    stabiliser.feed(reading({0}, 1.0))
    stabiliser.poll(1.1)
    stabiliser.feed(reading(set(), 1.2))
    stabiliser.feed(reading({0}, 1.29))  # refilled before anyone polled the empty state
    assert stabiliser.poll(1.3) is None
    board = stabiliser.poll(1.35)
    assert board is not None and board.occupied() == {Square(0, 0)}
    assert [value for _, _, value in board.events] == [False, True]


def test_identifying_boards_report_tags():
    board = StableBoard.from_values([0, 17, 0, 4], 2, 2, identifying=True)
    assert board.occupied() == {Square(1, 0), Square(1, 1)}
    assert board.tag_at(Square(1, 0)) == 17 and board.tag_at(Square(0, 0)) == 0
