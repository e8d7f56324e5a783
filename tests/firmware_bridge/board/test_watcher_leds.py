"""The board's LEDs light the guidance: a piece knocked off its square lights that square."""

from engine import Color, Game, Square, get_variant
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.snapshots import StableBoard
from firmware_bridge.referee.board_input import BoardWatcher
from hardware.firmware import protocol

S = Square.parse


def test_a_square_to_fill_is_lit_on_the_board():
    game = Game.from_position(get_variant("classic"), {S("a1"): (Color.RED, "flag"), S("j10"): (Color.BLUE, "flag"),
                                                       S("e4"): (Color.RED, "major")})
    watcher = BoardWatcher(lambda move: None)
    position = ExpectedPosition.of(game)
    watcher.feed(StableBoard.from_squares({S("a1"), S("j10")}, 10, 10, 1.0), position)  # e4 knocked off
    colours = watcher.leds(10, 10)
    lit = {i for i, colour in enumerate(colours) if colour != protocol.LED_OFF}
    assert lit == {S("e4").rank * 10 + S("e4").file}
