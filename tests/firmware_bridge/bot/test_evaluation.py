"""What the bot's pieces are worth: loss aversion against guesses, the ruling piece, the Spy's
victim, intruders near our flag, and the highest piece held back while unseen."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Color, Square, get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import (
    SAPPER_REACH,
    distances,
    intruder_value,
    kind_values,
    loss_aversion,
)
from firmware_bridge.bot.player import (
    RESERVE_COST,
    STILL_COST,
    TOP_REVEAL_SHARE,
    ComputerPlayer,
)
from firmware_bridge.bot.search import SearchStats, battle_gain, search_world
from firmware_bridge.bot.seat import HIDDEN_MOVED, HIDDEN_STILL

CLASSIC = get_variant("classic")
RULES = rules_for(CLASSIC)
FULL = {"red": dict(CLASSIC.army), "blue": dict(CLASSIC.army)}


def index(name: str) -> int:
    square = Square.parse(name)
    return square.rank * CLASSIC.width + square.file


def values(red: dict[str, int] | None = None, blue: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    return kind_values(RULES, {RED: red or FULL["red"], BLUE: blue or FULL["blue"]})


def test_a_marshal_lost_to_a_guessed_unmoved_piece_weighs_six_times_its_value() -> None:
    board = SearchBoard(RULES)
    marshal = board.add(index("e4"), RED, "marshal", 1)
    shown = board.add(index("e5"), BLUE, "bomb", 2)
    guessed = board.add(index("d4"), BLUE, "bomb", 3, hidden=HIDDEN_STILL)
    moved_guess = board.add(index("f4"), BLUE, "spy", 4, moved=True, hidden=HIDDEN_MOVED)
    worth = values()
    assert battle_gain(board, marshal, shown, worth) == -100.0  # a known bomb: its plain value
    assert loss_aversion(100.0, HIDDEN_STILL) == 6.0
    assert battle_gain(board, marshal, guessed, worth) == -600.0
    # The enemy side sees our loss the same way: a guessed Spy taking our Marshal gains 3 times.
    assert battle_gain(board, moved_guess, marshal, worth) == 300.0


def test_a_sergeant_fears_the_unknown_far_less_than_the_marshal() -> None:
    assert loss_aversion(9.0, HIDDEN_STILL) < 1.5 < 5.0 < loss_aversion(100.0, HIDDEN_STILL)


def test_with_the_enemy_marshal_and_general_gone_our_general_rules_the_board() -> None:
    red, blue = values()
    general = RULES.code["general"]
    assert red[general] == 80.0
    assert values(blue=dict(FULL["blue"], marshal=0))[0][general] == 80.0  # their General trades
    red_after, _ = values(blue=dict(FULL["blue"], marshal=0, general=0))
    assert red_after[general] == 120.0  # half as much again: nothing alive can beat it


def test_the_search_keeps_the_marshal_off_unmoved_unknown_pieces() -> None:
    """A Marshal beside a still unknown piece that is a bomb in some worlds and a General in the
    rest: with the loss aversion the attack scores below a quiet step, without it above."""
    worth = values()

    def attack_minus_quiet(hidden: float) -> float:
        totals = [0.0, 0.0]
        for kind, share in (("bomb", 0.2), ("general", 0.8)):
            board = SearchBoard(RULES)
            board.add(index("a1"), RED, "flag", 0)
            board.add(index("e4"), RED, "marshal", 1, moved=True)
            board.add(index("e5"), BLUE, kind, 2, hidden=hidden)
            board.add(index("j10"), BLUE, "flag", 3, hidden=hidden)
            board.add(index("j9"), BLUE, "sergeant", 4, moved=True)
            moves = [(index("e4"), index("e5")), (index("e4"), index("d4"))]
            found = search_world(board, RED, moves, worth, True, None, SearchStats())
            assert found is not None
            totals = [t + share * v for t, v in zip(totals, found, strict=True)]
        return totals[0] - totals[1]

    assert attack_minus_quiet(HIDDEN_STILL) < 0 < attack_minus_quiet(0.0)


def test_a_known_marshal_keeps_away_from_pieces_that_may_be_the_spy() -> None:
    bot = ComputerPlayer("classic", Color.RED, "easy", seed=1)
    board = SearchBoard(RULES)
    marshal = board.add(index("e4"), RED, "marshal", 1, moved=True)
    board.add(index("e6"), BLUE, "sergeant", 2, hidden=HIDDEN_STILL)
    beliefs = {2: {"spy": 0.05, "sergeant": 0.95}}
    danger = bot._assassin_danger(board, beliefs, known_ids={1}, me=RED)
    at_risk = danger[marshal]
    assert at_risk(index("e5"), index("e4")) == 0.25  # beside it: taken for the Spy at 0.25
    assert at_risk(index("d4"), index("e4")) == 0.0
    # Unknown to the opponent, the Marshal has nothing to fear from a waiting Spy.
    assert bot._assassin_danger(board, beliefs, known_ids=set(), me=RED) == {}


def test_any_walker_near_our_flag_is_an_intruder_but_only_a_miner_from_further_off() -> None:
    # Two steps off, anything that walks is worth stopping: half the value of one beside the flag.
    assert intruder_value(2, walks=1.0) == intruder_value(1, walks=1.0) / 2
    # Seven steps off a Sergeant is no threat to a flag behind bombs, and a piece that may be a
    # Miner still is: the bombs round the flag do not stop it.
    assert intruder_value(7, walks=1.0) == 0.0
    assert intruder_value(7, walks=1.0, sapper=1.0) > 20.0
    assert intruder_value(7, walks=1.0, sapper=0.5) == intruder_value(7, walks=1.0, sapper=1.0) / 2
    assert intruder_value(SAPPER_REACH + 1, walks=1.0, sapper=1.0) == 0.0


def test_an_enemy_miner_far_from_our_flag_is_an_intruder_only_for_a_level_with_sappers() -> None:
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    board.add(index("a2"), RED, "bomb", 2)
    board.add(index("b1"), RED, "bomb", 3)
    board.add(index("f4"), BLUE, "miner", 10, hidden=HIDDEN_MOVED)
    beliefs = {10: {"miner": 0.8, "sergeant": 0.2}}
    for level, expected in (("easy", False), ("normal", True)):
        bot = ComputerPlayer("classic", Color.RED, level, seed=1)
        bot._distances = distances(RULES)
        intruders = bot._intruders(board, {10: index("f4")}, beliefs, RED)
        assert (10 in intruders) is expected, level


def test_our_unseen_marshal_is_the_piece_we_hold_back_until_it_is_shown() -> None:
    bot = ComputerPlayer("classic", Color.RED, "normal", seed=1)
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    marshal = board.add(index("e2"), RED, "marshal", 2)
    board.add(index("f2"), RED, "general", 3, moved=True)
    board.add(index("j10"), BLUE, "flag", 10, hidden=HIDDEN_STILL)
    assert bot._top_unseen(board, known_ids=set(), me=RED) == board.kind[marshal]
    # Shown, it no longer shields anything: nothing is held back (the General is not promoted).
    assert bot._top_unseen(board, known_ids={2}, me=RED) == -1


def test_a_quiet_move_of_the_hidden_marshal_costs_and_showing_it_costs_more() -> None:
    view = {"ply": 40, "to_move": "red", "pieces": [
        {"id": 1, "color": "red", "square": "a1", "kind": "flag", "known": False},
        {"id": 2, "color": "red", "square": "e4", "kind": "marshal", "known": False},
        {"id": 3, "color": "red", "square": "h4", "kind": "general", "known": False},
        {"id": 10, "color": "blue", "square": "e5", "kind": "captain", "known": True},
        {"id": 11, "color": "blue", "square": "j10", "kind": None, "known": False},
    ]}
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    board.add(index("e4"), RED, "marshal", 2, moved=True)
    board.add(index("h4"), RED, "general", 3, moved=True)
    board.add(index("e5"), BLUE, "captain", 10, moved=True)
    board.add(index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    moves = [(index("e4"), index("d4")), (index("e4"), index("e5")), (index("h4"), index("h3"))]
    beliefs = {11: {"flag": 1.0}}
    costs = {}
    for level in ("easy", "normal"):
        bot = ComputerPlayer("classic", Color.RED, level, seed=1)
        costs[level] = bot._root_bonus(board, view, moves, beliefs, RED)
    marshal_value = bot._values(board)[RED][RULES.code["marshal"]]  # as the board stands: ruling it
    quiet, attack, other = (normal - easy for normal, easy in zip(costs["normal"], costs["easy"], strict=True))
    assert quiet == -RESERVE_COST
    assert attack < -0.5 * marshal_value and attack == pytest.approx(-(TOP_REVEAL_SHARE - 0.12) * marshal_value)
    assert other == 0.0


def test_a_level_that_keeps_pieces_still_charges_their_first_move() -> None:
    view = {"ply": 20, "to_move": "red", "pieces": [
        {"id": 1, "color": "red", "square": "a1", "kind": "flag", "known": False},
        {"id": 2, "color": "red", "square": "b1", "kind": "sergeant", "known": False},
        {"id": 3, "color": "red", "square": "h4", "kind": "sergeant", "known": False},
        {"id": 11, "color": "blue", "square": "j10", "kind": None, "known": False},
    ]}
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    board.add(index("b1"), RED, "sergeant", 2)
    board.add(index("h4"), RED, "sergeant", 3, moved=True)
    board.add(index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    moves = [(index("b1"), index("c1")), (index("h4"), index("h3"))]
    beliefs = {11: {"flag": 1.0}}
    costs = {}
    for still in (False, True):
        bot = ComputerPlayer("classic", Color.RED, "normal", seed=1)
        bot.level = dataclasses.replace(bot.level, still=still)
        costs[still] = bot._root_bonus(board, view, moves, beliefs, RED)
    first_move, moved_again = (on - off for on, off in zip(costs[True], costs[False], strict=True))
    assert first_move == -STILL_COST
    assert moved_again == 0.0
