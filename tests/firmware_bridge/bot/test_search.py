"""The bot's search: a game decided inside a line counts as won or lost, not as material."""

from __future__ import annotations

from engine import Square, get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import WIN, kind_values
from firmware_bridge.bot.search import SearchStats, search_world
from firmware_bridge.bot.seat import HIDDEN_MOVED, HIDDEN_STILL

CLASSIC = get_variant("classic")
RULES = rules_for(CLASSIC)


def index(name: str) -> int:
    square = Square.parse(name)
    return square.rank * CLASSIC.width + square.file


def last_generals() -> SearchBoard:
    """Each side's General face to face on e4 (ours) and e5 (theirs, known); our General is our
    last movable piece, theirs has a Spy behind it; the flags far apart."""
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 0)
    board.add(index("e4"), RED, "general", 1, moved=True)
    board.add(index("e5"), BLUE, "general", 10, moved=True)
    board.add(index("j8"), BLUE, "spy", 11, moved=True, hidden=HIDDEN_MOVED)
    board.add(index("j10"), BLUE, "flag", 12, hidden=HIDDEN_STILL)
    return board


def test_trading_our_last_movable_piece_while_the_enemy_keeps_one_loses_the_game() -> None:
    board = last_generals()
    worth = kind_values(RULES, {RED: {"general": 1, "flag": 1},
                                BLUE: {"general": 1, "spy": 1, "flag": 1}})
    trade, step_aside = (index("e4"), index("e5")), (index("e4"), index("d4"))
    found = search_world(board, RED, [trade, step_aside], worth, True, None, SearchStats())
    assert found is not None
    assert found[0] == -WIN  # we would have no move on our next turn
    assert found[1] > -WIN


def test_the_opponent_does_not_trade_its_last_movable_piece_either() -> None:
    """Their last movable piece, a General we have not seen (in this world), faces our General;
    we also have a Scout. Its trade would weigh as a gain to it (our General lost to a guess), but
    it would lose it the game: our General may stay, and stepping aside gains nothing."""
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 0)
    board.add(index("e4"), RED, "general", 1, moved=True)
    board.add(index("b2"), RED, "scout", 2, moved=True)
    board.add(index("e5"), BLUE, "general", 10, moved=True, hidden=HIDDEN_MOVED)
    board.add(index("j10"), BLUE, "flag", 12, hidden=HIDDEN_STILL)
    worth = kind_values(RULES, {RED: {"general": 1, "scout": 1, "flag": 1},
                                BLUE: {"general": 1, "flag": 1}})
    wait, step_aside = (index("b2"), index("b3")), (index("e4"), index("d4"))
    found = search_world(board, RED, [wait, step_aside], worth, True, None, SearchStats())
    assert found is not None
    assert found[0] >= found[1]
