"""A board nobody watched (the referee was down, the cable was out) is read once against the last
ruled position: exactly one legal move or attack of the side to move was made unseen and is
ruled; anything else is guided back."""

from engine import Color, Game, Move, Square, get_variant
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.recognition import BoardMatches, BoardMismatch, MoveMade, MoveRecognizer
from firmware_bridge.board.recovery import unseen_move
from firmware_bridge.board.snapshots import StableBoard

S = Square.parse
CLASSIC = get_variant("classic")


def game(**pieces: tuple[Color, str]) -> Game:
    """A classic game with exactly these pieces (and both flags); red to move."""
    layout = {S(name): piece for name, piece in pieces.items()}
    layout.setdefault(S("a1"), (Color.RED, "flag"))
    layout.setdefault(S("j10"), (Color.BLUE, "flag"))
    return Game.from_position(CLASSIC, layout)


def restarted(game: Game, occupied: set[str]) -> tuple[MoveRecognizer, list]:
    """A referee starting on a board that shows ``occupied``; what it reports once the board held
    still long enough for any decision."""
    recognizer = MoveRecognizer(ExpectedPosition.of(game))
    recognizer.resume()
    seen = recognizer.feed(StableBoard.from_squares({S(s) for s in occupied}, 10, 10, 100.0))
    seen += recognizer.poll(100.0 + recognizer.idle_patience_s + 0.01)
    return recognizer, seen


def test_a_step_made_while_the_referee_was_down_is_ruled():
    _, seen = restarted(game(e4=(Color.RED, "major")), {"a1", "j10", "e5"})
    assert [o for o in seen if isinstance(o, MoveMade)] == [MoveMade(Move.parse("e4-e5"), False, 100.0)]


def test_an_unseen_move_waits_until_the_board_holds_still():
    recognizer = MoveRecognizer(ExpectedPosition.of(game(e4=(Color.RED, "major"))))
    recognizer.resume()
    assert recognizer.feed(StableBoard.from_squares({S("a1"), S("j10"), S("e5")}, 10, 10, 100.0)) == []
    assert recognizer.poll(100.1) == []  # a hand may still be on its way
    assert recognizer.poll(100.0 + recognizer.patience_s) == [MoveMade(Move.parse("e4-e5"), False, 100.0)]


def test_a_scouts_long_move_made_unseen_is_ruled():
    _, seen = restarted(game(b2=(Color.RED, "scout")), {"a1", "j10", "b8"})
    assert MoveMade(Move.parse("b2-b8"), False, 100.0) in seen


def test_an_attack_made_unseen_is_ruled_when_only_one_enemy_can_be_attacked():
    # The miner stood on e4, the blue sergeant on e5 was lifted off and the miner put there.
    _, seen = restarted(game(e4=(Color.RED, "miner"), e5=(Color.BLUE, "sergeant")), {"a1", "j10", "e5"})
    assert MoveMade(Move.parse("e4-e5"), True, 100.0) in seen


def test_an_attack_waits_as_long_as_a_player_thinking_with_a_piece_in_hand():
    recognizer = MoveRecognizer(ExpectedPosition.of(game(e4=(Color.RED, "miner"), e5=(Color.BLUE, "sergeant"))))
    recognizer.resume()
    recognizer.feed(StableBoard.from_squares({S("a1"), S("j10"), S("e5")}, 10, 10, 100.0))
    assert recognizer.poll(100.0 + recognizer.patience_s + 0.01) == []
    # The piece comes back down where it was: nothing happened.
    assert recognizer.feed(StableBoard.from_squares({S("a1"), S("j10"), S("e4"), S("e5")}, 10, 10, 101.0)) \
        == [BoardMatches()]


def test_an_attack_with_two_possible_targets_is_guided_back():
    recognizer, seen = restarted(game(e4=(Color.RED, "miner"), e5=(Color.BLUE, "sergeant"),
                                      f4=(Color.BLUE, "scout")), {"a1", "j10", "e5", "f4"})
    assert not any(isinstance(o, MoveMade) for o in seen)
    assert recognizer.guidance() == BoardMismatch((), (S("e4"),), (), "setup")


def test_two_moves_made_unseen_are_guided_back():
    recognizer, seen = restarted(game(e4=(Color.RED, "major"), e7=(Color.BLUE, "major")),
                                 {"a1", "j10", "e5", "e6"})
    assert not any(isinstance(o, MoveMade) for o in seen)
    assert set(recognizer.guidance().fill) == {S("e4"), S("e7")}


def test_a_move_of_the_side_not_to_move_is_guided_back():
    _, seen = restarted(game(e4=(Color.RED, "major"), e7=(Color.BLUE, "major")), {"a1", "j10", "e4", "e6"})
    assert not any(isinstance(o, MoveMade) for o in seen)


def test_a_move_the_rules_refuse_is_guided_back():
    # A major cannot go two squares.
    _, seen = restarted(game(e4=(Color.RED, "major")), {"a1", "j10", "e6"})
    assert not any(isinstance(o, MoveMade) for o in seen)


def test_the_decision_is_taken_once_so_putting_pieces_back_rules_nothing():
    # Both sides moved while the referee was down: guided back. Undoing blue's move first leaves a
    # board one red move away, which is not taken for a move: the decision was made.
    recognizer, seen = restarted(game(e4=(Color.RED, "major"), e7=(Color.BLUE, "major")),
                                 {"a1", "j10", "e5", "e6"})
    assert not recognizer.recovering
    later = recognizer.feed(StableBoard.from_squares({S("a1"), S("j10"), S("e5"), S("e7")}, 10, 10, 110.0))
    later += recognizer.poll(110.0 + recognizer.idle_patience_s + 0.01)
    assert not any(isinstance(o, MoveMade) for o in later)


def test_a_board_that_matches_after_a_restart_just_goes_on():
    recognizer, seen = restarted(game(e4=(Color.RED, "major")), {"a1", "j10", "e4"})
    assert seen == [BoardMatches()] and not recognizer.restoring


def test_without_resume_a_changed_board_is_only_guided_as_before():
    recognizer = MoveRecognizer(ExpectedPosition.of(game(e4=(Color.RED, "major"))))
    seen = recognizer.feed(StableBoard.from_squares({S("a1"), S("j10"), S("e5")}, 10, 10, 100.0))
    seen += recognizer.poll(110.0)
    assert not any(isinstance(o, MoveMade) for o in seen)


def test_the_rule_itself_names_the_one_move():
    position = ExpectedPosition.of(game(e4=(Color.RED, "miner"), e5=(Color.BLUE, "sergeant")))
    assert unseen_move(position, clear=(), fill=(S("e4"),)) == (Move.parse("e4-e5"), True)
    assert unseen_move(position, clear=(S("d4"),), fill=(S("e4"),)) == (Move.parse("e4-d4"), False)
    assert unseen_move(position, clear=(S("d4"),), fill=(S("e4"),), wrong=(S("e5"),)) is None
    assert unseen_move(position, clear=(), fill=(S("e5"),)) is None  # blue is not to move
    assert unseen_move(position, clear=(S("d4"), S("f4")), fill=(S("e4"),)) is None
