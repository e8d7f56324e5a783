"""Reading moves off the board: each test is one thing players do with their hands."""

import pytest

from engine import Color, Game, IllegalMove, Move, Square, get_variant
from firmware_bridge.board.position import ExpectedPosition, Placed
from firmware_bridge.board.recognition import (
    BoardMatches,
    BoardMismatch,
    MoveMade,
    MoveRecognizer,
)
from firmware_bridge.board.setup_check import setup_from_tags, setup_mismatches
from firmware_bridge.board.snapshots import StableBoard

S = Square.parse
CLASSIC = get_variant("classic")


def position(**pieces: tuple[Color, str]) -> Game:
    """A classic game with exactly these pieces; the flags keep the game from being over."""
    layout = {S(name): piece for name, piece in pieces.items()}
    layout.setdefault(S("a1"), (Color.RED, "flag"))
    layout.setdefault(S("j10"), (Color.BLUE, "flag"))
    return Game.from_position(CLASSIC, layout)


class Hands:
    """Feeds the recogniser the stable boards a player's hands produce, with a clock; rules like
    the referee's session: pushes a move, then hands the recogniser the new position."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.recognizer = MoveRecognizer(ExpectedPosition.of(game))
        self.occupied = set(game.occupied())
        self.time = 100.0
        self.seen = self.show(0.0)

    def show(self, after: float) -> list:
        self.time += after
        board = StableBoard.from_squares(self.occupied, 10, 10, self.time)
        return self.recognizer.feed(board)

    def lift(self, square: str, after: float = 0.3) -> list:
        self.occupied.discard(S(square))
        return self.show(after)

    def place(self, square: str, after: float = 0.3) -> list:
        self.occupied.add(S(square))
        return self.show(after)

    def wait(self, seconds: float) -> list:
        self.time += seconds
        return self.recognizer.poll(self.time)

    def push(self, observation: MoveMade) -> list:
        self.game.push(observation.move)
        return self.ruled()

    def ruled(self) -> list:
        """The game changed (a ruling): the recogniser gets the position it must now see."""
        return self.recognizer.expect(ExpectedPosition.of(self.game))


def test_the_board_matching_the_game_is_confirmed_at_the_start():
    hands = Hands(position(e4=(Color.RED, "major")))
    assert hands.seen == [BoardMatches()]


def test_a_piece_lifted_and_put_down_on_an_empty_square_is_a_move():
    hands = Hands(position(e4=(Color.RED, "major")))
    assert hands.lift("e4") == []
    assert hands.place("e5") == [MoveMade(Move.parse("e4-e5"), attack=False, settled_at=hands.time)]


def test_after_the_ruling_the_board_is_confirmed():
    hands = Hands(position(e4=(Color.RED, "major")))
    hands.lift("e4")
    made = hands.place("e5")[0]
    assert hands.push(made) == [BoardMatches()]


def test_an_attack_is_read_when_the_defender_is_lifted_first():
    hands = Hands(position(e4=(Color.RED, "major"), e5=(Color.BLUE, "captain")))
    hands.lift("e5")
    hands.lift("e4")
    assert hands.place("e5") == [MoveMade(Move.parse("e4-e5"), attack=True, settled_at=hands.time)]


def test_an_attack_is_read_when_the_attacker_is_lifted_first():
    hands = Hands(position(e4=(Color.RED, "major"), e5=(Color.BLUE, "captain")))
    hands.lift("e4")
    hands.lift("e5")
    assert [type(o) for o in hands.place("e5")] == [MoveMade]


def test_a_knocked_neighbour_that_comes_straight_back_is_no_attack():
    hands = Hands(position(e4=(Color.RED, "major"), e5=(Color.BLUE, "captain")))
    hands.lift("e4")
    hands.lift("e5", after=0.1)
    assert hands.place("e5", after=0.04) == []  # e5 was empty for 40 ms: a nudge, not an attack
    assert [o.move for o in hands.place("d4")] == [Move.parse("e4-d4")]


def test_a_neighbour_knocked_twice_a_move_apart_is_no_attack():
    # Seen in the whole-game soak: e5 blinked as Blue's hand left the board after its ruled move,
    # and again as Red lifted e4 half a second later. Each time it was empty for 40 ms; counted
    # from the first blink it looked empty for half a second: an attack e4xe5 nobody made.
    hands = Hands(position(e4=(Color.RED, "major"), e5=(Color.BLUE, "captain"), g7=(Color.BLUE, "sergeant"),
                           b2=(Color.RED, "sergeant")))
    hands.lift("b2")
    hands.push(hands.place("b3")[0])  # Blue to move
    hands.lift("g7")
    hands.push(hands.place("f7")[0])
    hands.lift("e5", after=0.05)  # knocked by the hand leaving the board
    hands.place("e5", after=0.04)
    hands.lift("e4", after=0.3)  # Red lifts before the match has lasted half a second
    hands.lift("e5", after=0.1)  # and knocks e5 again
    assert hands.place("e5", after=0.04) == []  # 40 ms empty this time too: no attack
    assert [o.move for o in hands.place("d4")] == [Move.parse("e4-d4")]


def test_a_stray_piece_put_down_before_the_move_began_is_not_where_the_mover_went():
    # Seen in the whole-game soak: the loser of a battle was put down on b7 (it flickered while
    # hovering, so the board matched for a moment), then Red's scout attacked i7xi4. The stray on
    # b7 was the one square too many: it was ruled as the scout's long move i7-b7.
    hands = Hands(position(i7=(Color.RED, "scout"), i4=(Color.BLUE, "sergeant")))
    hands.place("b7", after=0.05)  # a piece put down where the game has none
    hands.lift("i4", after=0.3)
    hands.lift("i7", after=0.3)
    hands.place("i4", after=0.2)
    said = hands.wait(1.0) + hands.wait(5.0)
    assert not [o for o in said if isinstance(o, MoveMade)]
    assert [o.clear for o in said if isinstance(o, BoardMismatch)] == [(S("b7"),)]  # b7 off, please
    made = hands.lift("b7")
    assert made == [MoveMade(Move.parse("i7-i4"), attack=True, settled_at=hands.time)]


def test_a_piece_lifted_and_put_back_means_nothing_happened():
    hands = Hands(position(e4=(Color.RED, "major")))
    hands.lift("e4")
    assert hands.place("e4") == []  # already confirmed as matching; nothing new to say
    assert hands.wait(5.0) == []


def test_a_move_the_rules_do_not_allow_is_reported_once_the_board_holds_still_and_the_referee_refuses_it():
    hands = Hands(position(e4=(Color.RED, "major")))
    hands.lift("e4")
    assert hands.place("e6", after=0.02) == []  # not yet: it may be a piece still moving
    (seen,) = hands.wait(1.0)
    assert seen.move == Move.parse("e4-e6")  # what the hands did; ruling on it is the referee's
    with pytest.raises(IllegalMove, match="one square"):
        hands.game.push(seen.move)
    hands.recognizer.refused(seen.move)
    hands.lift("e6")
    assert hands.place("e4") == [BoardMatches()]  # taken back
    assert hands.game.ply == 0


def test_the_recogniser_reads_moves_from_the_position_it_is_given_without_a_game():
    red, blue = Placed(0, Color.RED), Placed(1, Color.BLUE)
    given = ExpectedPosition({S("e4"): red, S("j10"): blue}, Color.RED, reach={S("e4"): frozenset({S("e5")})})
    recognizer = MoveRecognizer(given)
    assert recognizer.feed(StableBoard.from_squares({S("e4"), S("j10")}, 10, 10, 1.0)) == [BoardMatches()]
    recognizer.feed(StableBoard.from_squares({S("j10")}, 10, 10, 1.3))
    made = recognizer.feed(StableBoard.from_squares({S("e5"), S("j10")}, 10, 10, 1.6))
    assert made == [MoveMade(Move.parse("e4-e5"), attack=False, settled_at=1.6)]
    after = ExpectedPosition({S("e5"): red, S("j10"): blue}, Color.BLUE)
    assert recognizer.expect(after) == [BoardMatches()]
    assert recognizer.expect(after) == [], "the same position again changes nothing"


def test_a_move_outside_the_reach_waits_for_patience_one_inside_is_reported_at_once():
    red = Placed(0, Color.RED)
    board = {S("e4"): red}
    allowed = ExpectedPosition(board, Color.RED, reach={S("e4"): frozenset({S("e5")})})
    for reach, at_once in ((allowed.reach, True), ({}, False)):
        recognizer = MoveRecognizer(ExpectedPosition(board, Color.RED, reach=reach))
        recognizer.feed(StableBoard.from_squares({S("e4")}, 10, 10, 1.0))
        recognizer.feed(StableBoard.from_squares(set(), 10, 10, 1.3))
        seen = recognizer.feed(StableBoard.from_squares({S("e5")}, 10, 10, 1.6))
        assert bool(seen) is at_once
        if not at_once:
            assert recognizer.poll(1.6 + recognizer.patience_s - 0.01) == []
            assert [o.move for o in recognizer.poll(1.6 + recognizer.patience_s)] == [Move.parse("e4-e5")]


def test_moving_out_of_turn_is_reported_and_the_rules_refuse_it():
    hands = Hands(position(e4=(Color.RED, "major"), e7=(Color.BLUE, "major")))
    hands.lift("e7")
    assert hands.place("e6", after=0.02) == []
    (seen,) = hands.wait(1.0)
    assert isinstance(seen, MoveMade) and hands.game.check(seen.move).rule == "turn"


def test_a_scout_slid_over_squares_is_one_move_ruled_once_it_stops():
    hands = Hands(position(a4=(Color.RED, "scout")))
    hands.lift("a4", after=0.1)
    for square in ("a5", "a6"):
        hands.place(square, after=0.06)
        hands.lift(square, after=0.03)
    assert hands.place("a7", after=0.06) == []  # a scout may still be sliding: wait
    assert hands.wait(0.1) == []
    assert [o.move for o in hands.wait(0.5)] == [Move.parse("a4-a7")]


def test_an_attack_the_defender_wins_asks_for_the_attacker_off_and_the_defender_back():
    hands = Hands(position(e4=(Color.RED, "captain"), e5=(Color.BLUE, "major")))
    hands.lift("e5")
    hands.lift("e4")
    (made,) = hands.place("e5")
    (guidance,) = hands.push(made)
    # Occupancy cannot tell the pieces apart: the square is right but the piece on it is not.
    assert guidance == BoardMismatch(clear=(), fill=(), wrong=(S("e5"),), reason="after-battle")
    assert hands.lift("e5") == [BoardMismatch((), (S("e5"),), (), "after-battle")]
    assert hands.place("e5") == [BoardMatches()]


def test_after_equal_ranks_both_pieces_come_off():
    hands = Hands(position(e4=(Color.RED, "major"), e5=(Color.BLUE, "major")))
    hands.lift("e4")
    hands.lift("e5")
    (made,) = hands.place("e5")
    assert hands.push(made) == [BoardMismatch(clear=(S("e5"),), fill=(), reason="after-battle")]
    assert hands.lift("e5") == [BoardMatches()]


def test_moves_are_not_read_until_the_board_is_put_right():
    hands = Hands(position(e4=(Color.RED, "major"), e5=(Color.BLUE, "major"), a7=(Color.BLUE, "scout")))
    hands.lift("e4")
    hands.lift("e5")
    hands.push(hands.place("e5")[0])
    hands.game.push(Move.parse("a7-a6"))  # blue's move, entered elsewhere
    (guidance,) = hands.ruled()
    assert set(guidance.clear) == {S("e5"), S("a7")} and guidance.fill == (S("a6"),)
    hands.lift("a7")
    (guidance,) = hands.place("a6")  # blue's scout put where the game has it: still guidance
    assert guidance == BoardMismatch(clear=(S("e5"),), fill=(), reason="restore")
    assert hands.lift("e5") == [BoardMatches()]


def test_guidance_lists_the_nearest_squares_first():
    hands = Hands(position(e4=(Color.RED, "major")))
    hands.place("f4", after=0.01)
    hands.place("a9", after=0.01)
    hands.place("e6", after=0.01)
    (mismatch,) = hands.wait(1.0)
    assert mismatch.clear == (S("e6"), S("f4"), S("a9"))  # nearest to where the hand last was


def test_a_takeback_turns_into_guidance_not_a_new_move():
    hands = Hands(position(e4=(Color.RED, "major")))
    hands.lift("e4")
    hands.push(hands.place("e5")[0])
    hands.game.pop()
    (guidance,) = hands.ruled()
    assert guidance == BoardMismatch(clear=(S("e5"),), fill=(S("e4"),), reason="restore")
    assert hands.recognizer.restoring


def test_a_board_reconnected_after_a_power_cut_is_guided_back_to_the_game():
    game = position(e4=(Color.RED, "major"), c7=(Color.BLUE, "miner"))
    recognizer = MoveRecognizer(ExpectedPosition.of(game))
    empty = StableBoard.from_squares(set(), 10, 10, 5.0)
    (guidance,) = recognizer.feed(empty)
    assert guidance.reason == "setup" and set(guidance.fill) == game.occupied()


def test_each_players_setup_zone_is_checked_separately():
    game = position(a2=(Color.RED, "bomb"), b9=(Color.BLUE, "bomb"))
    board = StableBoard.from_squares({S("a1"), S("a2"), S("j10"), S("c9")}, 10, 10)
    checks = setup_mismatches(game, board)
    assert checks[Color.RED] is None
    assert checks[Color.BLUE] == BoardMismatch(clear=(S("c9"),), fill=(S("b9"),), reason="setup")


def test_identifying_sensors_check_each_setup_piece_by_its_tag():
    game = position(a2=(Color.RED, "bomb"), b2=(Color.RED, "scout"))
    registry = {1: (Color.RED, "flag"), 2: (Color.RED, "bomb"), 3: (Color.RED, "scout"),
                4: (Color.BLUE, "flag")}
    values = [0] * 100
    values[0], values[10], values[11], values[99] = 1, 3, 2, 4  # bomb and scout swapped
    board = StableBoard.from_values(values, 10, 10, identifying=True)
    checks = setup_mismatches(game, board, registry)
    assert checks[Color.RED] == BoardMismatch((), (), (S("a2"), S("b2")), "setup")
    assert checks[Color.BLUE] is None
    assert setup_from_tags(CLASSIC, Color.RED, board, registry) == {
        S("a1"): "flag", S("a2"): "scout", S("b2"): "bomb"}


def test_a_square_filling_before_the_origin_empties_is_ruled_only_if_it_holds():
    # A piece hovering over e5 touches down just as its neighbour e4 is knocked off its contact.
    hands = Hands(position(e4=(Color.RED, "major")))
    hands.place("e5", after=0.3)
    assert hands.lift("e4", after=0.03) == []
    assert hands.place("e4", after=0.04) == []  # the knocked piece is back: no move
    assert hands.wait(1.0) == [BoardMismatch(clear=(S("e5"),), fill=(), reason="unexpected")]


def test_a_piece_slid_with_both_contacts_closed_for_a_moment_is_ruled_once_it_holds():
    hands = Hands(position(e4=(Color.RED, "major")))
    hands.place("e5", after=0.3)
    assert hands.lift("e4", after=0.03) == []
    assert [o.move for o in hands.wait(0.5)] == [Move.parse("e4-e5")]
