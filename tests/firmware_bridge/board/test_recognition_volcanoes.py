"""Volcano markers on the physical board (Espionage): checked where the sensors see them.

The board profile says whether a marker closes a sensor (`volcano_markers_sensed`): if so, every
volcano square must read occupied before moves are read, and stays a fixed obstacle; if not, a
volcano square must read empty like any other; unknown, what it reads at setup is its normal state.
"""

from __future__ import annotations

from engine import Color, Game, Move, Square, get_variant
from firmware_bridge.board.guidance import plan_steps, volcano_marker_steps
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.recognition import (
    BoardMatches,
    BoardMismatch,
    MoveMade,
    MoveRecognizer,
)
from firmware_bridge.board.snapshots import StableBoard

S = Square.parse
VOLCANO = S("e5")


def study() -> Game:
    """Red's corporal on e4 faces the volcano on e5."""
    pieces = {S("a1"): (Color.RED, "headquarters"), S("e4"): (Color.RED, "corporal"),
              S("c3"): (Color.RED, "spy"), S("j10"): (Color.BLUE, "headquarters"),
              S("h8"): (Color.BLUE, "corporal")}
    return Game.from_position(get_variant("espionage"), pieces, volcanoes=(VOLCANO,))


class Hands:
    """Stable boards as hands make them, fed to a recogniser with the profile's marker setting."""

    def __init__(self, sensed: bool | None, with_markers: bool) -> None:
        self.game = study()
        self.recognizer = MoveRecognizer(ExpectedPosition.of(self.game), volcano_markers_sensed=sensed)
        self.occupied = set(self.game.occupied()) | ({VOLCANO} if with_markers else set())
        self.time = 100.0
        self.seen = self.show()

    def show(self, after: float = 0.3) -> list:
        self.time += after
        return self.recognizer.feed(StableBoard.from_squares(self.occupied, 10, 10, self.time))

    def lift(self, square: Square) -> list:
        self.occupied.discard(square)
        return self.show()

    def place(self, square: Square) -> list:
        self.occupied.add(square)
        return self.show()

    def move(self, move: Move) -> list:
        seen = self.lift(move.origin) + self.place(move.target)
        self.time += 1.0
        return seen + self.recognizer.poll(self.time)


def test_sensed_markers_missing_at_setup_are_asked_for_and_no_move_is_read_before():
    hands = Hands(sensed=True, with_markers=False)
    assert hands.seen == [BoardMismatch((), (VOLCANO,), (), "setup")]
    steps = plan_steps((), (VOLCANO,), volcanoes=hands.game.volcanoes)
    assert [step.payload() for step in steps] == [{"action": "marker", "square": "e5"}]
    seen = hands.move(Move.parse("c3-c4"))
    assert not any(isinstance(o, MoveMade) for o in seen), "still guiding: no move read"
    hands.move(Move.parse("c4-c3"))  # the piece goes back
    assert hands.place(VOLCANO) == [BoardMatches()]


def test_a_sensed_marker_is_a_fixed_obstacle_a_lifted_one_is_guided_back():
    hands = Hands(sensed=True, with_markers=True)
    assert hands.seen == [BoardMatches()]
    seen = hands.move(Move.parse("c3-c4"))
    assert seen and isinstance(seen[-1], MoveMade) and seen[-1].move == Move.parse("c3-c4")
    hands.game.push(seen[-1].move)
    assert hands.recognizer.expect(ExpectedPosition.of(hands.game)) == [BoardMatches()]
    hands.lift(VOLCANO)
    hands.time += 5.0
    assert hands.recognizer.poll(hands.time) == [BoardMismatch((), (VOLCANO,), (), "unexpected")]
    assert hands.game.ply == 1, "a lifted marker is no move"
    assert hands.place(VOLCANO) == [BoardMatches()]


def test_unsensed_markers_leave_the_square_empty_and_a_reading_there_is_a_stray_piece():
    hands = Hands(sensed=False, with_markers=False)
    assert hands.seen == [BoardMatches()]
    stray = Hands(sensed=False, with_markers=True)  # something the sensors see stands on e5
    assert stray.seen == [BoardMismatch((VOLCANO,), (), (), "setup")]


def test_a_piece_moved_onto_a_volcano_is_refused_when_markers_are_not_sensed():
    hands = Hands(sensed=False, with_markers=False)
    seen = hands.move(Move.parse("e4-e5"))
    assert seen and isinstance(seen[-1], MoveMade), "read as a move, for the referee to refuse"
    assert hands.game.check(seen[-1].move).message == "e5 is a volcano"


def test_unknown_marker_sensing_takes_what_the_volcano_square_reads_at_setup_as_normal():
    for with_markers in (True, False):
        hands = Hands(sensed=None, with_markers=with_markers)
        assert hands.seen == [BoardMatches()], f"markers seen: {with_markers}"
    learned_empty = Hands(sensed=None, with_markers=False)
    seen = learned_empty.move(Move.parse("e4-e5"))
    assert seen and isinstance(seen[-1], MoveMade) and learned_empty.game.check(seen[-1].move)


def test_the_players_are_told_where_the_markers_go_in_board_order():
    assert [step.payload() for step in volcano_marker_steps([S("h6"), S("b5"), S("d6")])] == [
        {"action": "marker", "square": "b5"}, {"action": "marker", "square": "d6"},
        {"action": "marker", "square": "h6"}]
