"""Volcano markers the sensors see (a magnet in each): a whole Espionage game read around them.

With `volcano_markers_sensed = true` in the board profile, the recogniser wants a marker on
every volcano before it reads a move, and treats them as fixed obstacles for the whole game.
"""

from engine import Square
from firmware_bridge.board.recognition import BoardMatches, BoardMismatch
from firmware_bridge.board.sim_table import Table, Tally

MARKER_TAG = 900


def table_with_sensed_markers(seed: int) -> Table:
    table = Table("espionage", seed=seed)
    table.recognizer.volcano_markers_sensed = True  # the profile's setting, before the first board
    return table


def test_the_board_is_not_read_until_every_sensed_marker_is_down():
    table = table_with_sensed_markers(seed=6)
    volcanoes = sorted(table.game.volcanoes, key=lambda s: (s.rank, s.file))
    seen = table.run(1.0)
    guidance = [o for o in seen if isinstance(o, BoardMismatch)][-1]
    assert set(guidance.fill) == set(volcanoes) and guidance.clear == () and guidance.reason == "setup"
    for number, volcano in enumerate(volcanoes):
        table.board.place(volcano, MARKER_TAG + number)
    assert isinstance(table.settle()[-1], BoardMatches)


def test_a_whole_random_game_is_read_around_sensed_markers():
    table = table_with_sensed_markers(seed=8)
    for number, volcano in enumerate(table.game.volcanoes):
        table.board.place(volcano, MARKER_TAG + number)
    assert isinstance(table.settle()[-1], BoardMatches)
    game, tally = table.game, Tally()
    while game.result is None and game.ply < 300:
        move = table.choose_move()
        assert move is not None
        assert table.play_move(move, tally), tally.notes
        markers = frozenset(Square.parse(v.name) for v in game.volcanoes)
        assert table.board.occupied() == game.occupied() | markers
    assert tally.correct == game.ply and tally.phantom == 0 and tally.false_alarms == 0
    assert game.ply >= 100
