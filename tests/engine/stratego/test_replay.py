"""engine.stratego.replay: a recorded game stepped forward and back on the real board.

The game is the barrage "marshal raid" of the Gravon samples: a scout trade (ply 2), a spy
taking the marshal (ply 5), a general dying on the new marshal (ply 12), the flag taken at 33.
"""

from pathlib import Path

import pytest

from engine import Color, Game, Move, Square
from engine.stratego.gravon import read_xml
from engine.stratego.records import GameRecord
from engine.stratego.replay import NextMove, Placement, Replay, StepBack

RAID = Path(__file__).parent / "data" / "gravon_barrage_marshal_raid.xml"
RED, BLUE = Color.RED, Color.BLUE


def sq(name: str) -> Square:
    return Square.parse(name)


def raid() -> GameRecord:
    return read_xml(RAID.read_text(encoding="utf-8")).record


def played_to(record: GameRecord, ply: int) -> Game:
    game = record.new_game()
    for text in record.moves[:ply]:
        game.push(Move.parse(text))
    return game


def test_a_replay_starts_before_the_first_move_and_knows_how_long_it_is():
    replay = Replay(raid())
    assert replay.ply == 0 and replay.length == 33 and replay.refused is None
    assert replay.position() == raid().pieces
    assert replay.to_move() is RED
    assert replay.next_move() == NextMove(1, Move.parse("a4-a6"), RED, "scout", None)


def test_the_next_move_names_the_piece_it_attacks():
    replay = Replay(raid())
    replay.jump(4)
    assert replay.next_move() == NextMove(5, Move.parse("e5-e6"), RED, "spy",
                                          Placement(sq("e6"), BLUE, "marshal"))


def test_stepping_back_a_plain_move_lifts_the_piece_and_puts_it_back():
    replay = Replay(raid())
    replay.forward()
    assert replay.back() == StepBack(Move.parse("a4-a6"), sq("a6"), Placement(sq("a4"), RED, "scout"), ())
    assert replay.ply == 0


def test_stepping_back_a_won_attack_puts_the_captured_piece_back_too():
    replay = Replay(raid())
    replay.jump(5)  # the spy has taken the marshal on e6
    step = replay.back()
    assert step.lift == sq("e6")
    assert step.moved == Placement(sq("e5"), RED, "spy")
    assert step.captured == (Placement(sq("e6"), BLUE, "marshal"),)
    assert replay.position() == {s: (p.color, p.kind) for s, p in played_to(raid(), 4).pieces()}


def test_stepping_back_a_lost_attack_puts_only_the_attacker_back():
    replay = Replay(raid())
    replay.jump(12)  # Blue's general died attacking the marshal on f5
    step = replay.back()
    assert step.lift is None  # nothing of the mover is on the board
    assert step.moved == Placement(sq("f6"), BLUE, "general")
    assert step.captured == ()


def test_stepping_back_a_trade_puts_both_pieces_back():
    replay = Replay(raid())
    replay.jump(2)
    step = replay.back()
    assert step.lift is None
    assert step.moved == Placement(sq("a7"), BLUE, "scout")
    assert step.captured == (Placement(sq("a6"), RED, "scout"),)


def test_forward_returns_the_events_and_the_last_one_ends_the_game():
    replay = Replay(raid())
    replay.jump(32)
    events = replay.forward()
    assert [e.type for e in events][-1] == "game_end"
    assert replay.next_move() is None
    with pytest.raises(IndexError):
        replay.forward()


@pytest.mark.parametrize("ply", [0, 1, 5, 12, 20, 33])
def test_the_position_at_any_ply_is_the_games_and_the_current_ply_is_kept(ply):
    replay = Replay(raid())
    replay.jump(7)
    expected = {s: (p.color, p.kind) for s, p in played_to(raid(), ply).pieces()}
    assert replay.position(ply) == expected
    assert replay.ply == 7


def test_jumping_goes_both_ways_and_stays_inside_the_game():
    replay = Replay(raid())
    replay.jump(20)
    replay.jump(3)
    assert replay.ply == 3 and replay.next_move().ply == 4
    for outside in (-1, 34):
        with pytest.raises(IndexError):
            replay.jump(outside)
    replay.jump(0)
    with pytest.raises(IndexError):
        replay.back()


def test_the_setup_guidance_goes_square_by_square_from_each_owners_back_row():
    guidance = Replay(raid()).setup_guidance()
    assert len(guidance) == 16
    assert guidance[0] == Placement(sq("a1"), RED, "flag")
    assert [p.color for p in guidance] == [RED] * 8 + [BLUE] * 8
    blue = guidance[8:]
    assert blue[0] == Placement(sq("j10"), BLUE, "flag")  # Blue's back row, from Blue's left
    assert {(p.square, (p.color, p.kind)) for p in guidance} == set(raid().pieces.items())


def test_a_record_with_a_refused_move_replays_up_to_it():
    strict = raid().to_dict()
    del strict["two_squares_limit"]  # the ISF limit of 3: Blue's fourth shuffle is refused
    replay = Replay(GameRecord.from_dict(strict))
    assert replay.length == 29
    assert replay.refused.rule == "two-squares"


def test_play_on_keeps_the_repetition_history_of_the_plies_before():
    strict = raid().to_dict()
    del strict["two_squares_limit"]
    record = GameRecord.from_dict(strict)
    replay = Replay(record)
    replay.jump(replay.length)
    game = replay.play_on()
    assert game.ply == 29 and game.to_move is BLUE
    assert game.check(Move.parse("j8-j7")).rule == "two-squares"  # as in the game itself
    fresh = Game.from_position(record.variant_rules(), replay.position(), to_move=BLUE)
    assert fresh.check(Move.parse("j8-j7")) is None  # the position alone would allow it
    game.push(Move.parse("j8-j9"))
    assert replay.ply == 29  # the replay is not touched by playing on
