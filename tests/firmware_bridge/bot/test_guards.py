"""A careful enemy takes only what it is sure of and what no friend beside it could avenge."""

from __future__ import annotations

import pytest

from engine import Square, get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import distances, kind_values
from firmware_bridge.bot.guards import NEARNESS, Exposure

CLASSIC = get_variant("classic")
RULES = rules_for(CLASSIC)
WORTH = kind_values(RULES, {RED: dict(CLASSIC.army), BLUE: dict(CLASSIC.army)})[RED]
DISTANCES = distances(RULES)


def index(name: str) -> int:
    square = Square.parse(name)
    return square.rank * CLASSIC.width + square.file


def board_with_enemy_marshal_on(square: str, spy: str = "h1") -> tuple[SearchBoard, dict[str, int]]:
    """Red (us): flag a1, Marshal a2 (shown), Captain e4 (moved), bomb b1, Spy (on h1) and
    Scout j1 (never moved). Blue: its Marshal on `square` (we know it), flag j10."""
    board = SearchBoard(RULES)
    pieces = {
        "flag": board.add(index("a1"), RED, "flag", 1),
        "bomb": board.add(index("b1"), RED, "bomb", 6),
        "marshal": board.add(index("a2"), RED, "marshal", 2, moved=True),
        "captain": board.add(index("e4"), RED, "captain", 3, moved=True),
        "spy": board.add(index(spy), RED, "spy", 4),
        "scout": board.add(index("j1"), RED, "scout", 5),
        "enemy": board.add(index(square), BLUE, "marshal", 30, moved=True),
    }
    board.add(index("j10"), BLUE, "flag", 31)
    board.to_move = RED
    return board, pieces


def exposure(board: SearchBoard, known: set[int]) -> Exposure:
    return Exposure(board, RED, WORTH, {}, known, DISTANCES)


def test_once_our_marshal_is_shown_their_marshal_is_sure_of_every_piece_of_ours_that_moved() -> None:
    board, pieces = board_with_enemy_marshal_on("e6")
    shown = exposure(board, known={2})
    captain = pieces["captain"]
    # Two steps off: it counts at the nearness of two steps.
    assert shown.at_risk(captain, index("e4"), True, []) == pytest.approx(NEARNESS[2])
    # While our Marshal is hidden, our moving Captain might be it: the enemy Marshal is sure of nothing.
    hidden = exposure(board, known=set())
    assert hidden.at_risk(captain, index("e4"), True, []) == 0.0


def test_a_piece_that_never_moved_may_be_a_bomb_and_nobody_is_sure_of_it() -> None:
    board, pieces = board_with_enemy_marshal_on("h3")
    assert exposure(board, known={2}).at_risk(pieces["spy"], index("h1"), False, []) == 0.0


def test_a_friend_beside_it_that_may_be_our_spy_keeps_their_marshal_off() -> None:
    board, pieces = board_with_enemy_marshal_on("e6")
    model = exposure(board, known={2})
    unseen_still = model.pool(pieces["spy"], moved=False)
    assert model.at_risk(pieces["captain"], index("e4"), True, [unseen_still]) == 0.0
    # A friend the opponent has seen to be a Scout avenges nothing.
    seen_scout = exposure(board, known={2, 5}).pool(pieces["scout"], moved=False)
    assert model.at_risk(pieces["captain"], index("e4"), True, [seen_scout]) == pytest.approx(NEARNESS[2])


def test_stepping_toward_a_sure_hunter_costs_and_stepping_beside_a_guard_saves() -> None:
    board, pieces = board_with_enemy_marshal_on("e7")
    model = exposure(board, known={2})
    worth = WORTH[board.kind[pieces["captain"]]]
    # From three steps off to two: the risk grows.
    assert model.change(index("e4"), index("e5")) == pytest.approx(worth * (NEARNESS[2] - NEARNESS[3]))
    # Walking away, out of its reach, frees the Captain of it.
    assert model.change(index("e4"), index("e3")) == pytest.approx(-worth * NEARNESS[3])
    # Stepping beside our unmoved Spy (which may be anything to them) guards it there.
    board, pieces = board_with_enemy_marshal_on("e7", spy="f5")
    guarded = exposure(board, known={2})
    assert guarded.change(index("e4"), index("e5")) == pytest.approx(-worth * NEARNESS[3])
