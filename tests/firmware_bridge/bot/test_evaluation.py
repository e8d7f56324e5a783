"""What the bot's pieces are worth: loss aversion against guesses, the ruling piece, the Spy's victim."""

from __future__ import annotations

from engine import Color, Square, get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import kind_values, loss_aversion
from firmware_bridge.bot.player import ComputerPlayer
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
