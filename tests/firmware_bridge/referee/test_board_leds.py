"""The board's LEDs light what the players must put right, in play and in a replay.

The referee lights the LEDs through `BoardWatcher.leds` (a game) and `ReplayMode.leds` (a
replay); both once failed whenever the board did not match, and the failure was swallowed, so
the LEDs simply stayed dark. The colours are those of the board steps: where a piece comes
off, red; where one goes, green.
"""

from __future__ import annotations

from pathlib import Path

from engine import Color, Game, Square, get_variant
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.snapshots import StableBoard
from firmware_bridge.referee.board_input import BoardWatcher
from firmware_bridge.referee.replay_mode import ReplayMode
from hardware.firmware import protocol
from tests.firmware_bridge.referee.replay_table import ReplayTable

S = Square.parse
RAID = (Path(__file__).parents[2] / "engine" / "stratego" / "data" / "gravon_barrage_marshal_raid.xml").read_text()


def lit(colours: list[int], width: int, code: int) -> set[Square]:
    """The squares whose LED shows ``code``."""
    return {Square(index % width, index // width) for index, colour in enumerate(colours) if colour == code}


def test_in_play_a_stray_piece_is_lit_red_and_its_empty_square_green():
    game = Game.from_position(get_variant("classic"), {
        S("e4"): (Color.RED, "major"), S("a1"): (Color.RED, "flag"), S("j10"): (Color.BLUE, "flag")})
    watcher = BoardWatcher(lambda made: None)
    position = ExpectedPosition.of(game)
    watcher.feed(StableBoard.from_squares(set(game.occupied()), 10, 10, 100.0), position)
    assert watcher.leds(10, 10) == [protocol.LED_OFF] * 100, "a board that matches is dark"
    # The major stands on h8, far from e4: it comes off h8 and one goes back on e4.
    stray = set(game.occupied()) - {S("e4")} | {S("h8")}
    watcher.feed(StableBoard.from_squares(stray, 10, 10, 100.3), position)
    colours = watcher.leds(10, 10)
    assert lit(colours, 10, protocol.LED_RED) == {S("h8")}
    assert lit(colours, 10, protocol.LED_GREEN) == {S("e4")}


def test_in_a_replay_every_square_of_the_setups_is_lit_green_until_it_is_placed():
    mode = ReplayMode(RAID)
    table = ReplayTable(mode)
    table.run(0.5)
    assert mode.phase == "placing" and mode.steps()[0]["action"] == "place"
    colours = mode.leds(10, 10)
    assert lit(colours, 10, protocol.LED_GREEN) == set(mode.replay.position())
    assert lit(colours, 10, protocol.LED_RED) == set()
