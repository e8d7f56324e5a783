"""Squares and moves are named chess-style: files from Red's left, ranks from Red's back row."""

import pytest

from engine import Move, Square


def test_a1_is_reds_back_left_corner():
    assert Square.parse("a1") == Square(0, 0)
    assert Square.parse("j10") == Square(9, 9)
    assert Square(9, 9).name == "j10"


@pytest.mark.parametrize("text", ["", "a0", "1a", "a", "A1x", "aa1", "a100", None, 5])
def test_nonsense_is_not_a_square(text):
    with pytest.raises(ValueError):
        Square.parse(text)


def test_moves_read_and_print_as_in_records():
    move = Move.parse("a4-a5")
    assert move == Move(Square.parse("a4"), Square.parse("a5"))
    assert str(move) == "a4-a5"
    assert Move.parse("B2xB7") == Move.parse("b2-b7")


def test_a_long_move_passes_over_the_squares_between():
    assert [s.name for s in Move.parse("a1-a4").squares_between()] == ["a2", "a3"]
    assert Move.parse("a1-b2").squares_between() == []


def test_touching_includes_diagonals():
    assert Square.parse("e5").touches(Square.parse("f6"))
    assert not Square.parse("e5").touches(Square.parse("e7"))
    assert not Square.parse("e5").touches(Square.parse("e5"))
