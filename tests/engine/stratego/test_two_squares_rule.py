"""The two-squares rule (ISF 10): the examples of docs/rules/repetition.md, section 1."""

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Color, Game, Move, Square, get_variant, random_setup

from .positions import play, position, refusal

# Far away from every example: each side's flag, a red Sergeant and a blue Scout whose moves
# down the j file ("...") never form a run of their own.
FAR_RED = {"j1": "flag", "j2": "sergeant"}
FAR_BLUE = {"j10": "flag", "j9": "scout"}
BLUE_WAITS = ["j9-j8", "j8-j7", "j7-j6", "j6-j5", "j5-j4"]


def example(red: dict, blue: dict | None = None, to_move: str = "red", variant: str = "classic"):
    return position(variant, red={**FAR_RED, **red}, blue={**FAR_BLUE, **(blue or {})},
                    to_move=to_move)


def red_moves_while_blue_waits(game, *red_moves):
    """Red plays these moves; after each, Blue's Scout walks one step down the j file."""
    for red_move, blue_move in zip(red_moves, BLUE_WAITS, strict=False):
        play(game, red_move, blue_move)


def test_example_1_1_an_ordinary_piece_may_move_three_times_between_two_squares():
    game = example(red={"b2": "captain"})
    red_moves_while_blue_waits(game, "b2-b3", "b3-b2", "b2-b3")
    refused = refusal(game, "b3-b2")
    assert refused.rule == "two-squares"
    assert "more than 3 times in a row" in refused.message
    assert "b3-b2" not in [str(m) for m in game.legal_moves()]
    for way_out in ("b3-c3", "b3-a3", "b3-b4", "j2-j3"):
        assert refusal(game, way_out) is None


def test_example_1_1_with_the_old_limit_of_five():
    classic = get_variant("classic")
    five = dataclasses.replace(classic, two_squares_limit=5)
    pieces = {Square.parse(s): (Color.RED, k) for s, k in {**FAR_RED, "b2": "captain"}.items()}
    pieces.update({Square.parse(s): (Color.BLUE, k) for s, k in FAR_BLUE.items()})
    game = Game.from_position(five, pieces)
    red_moves_while_blue_waits(game, "b2-b3", "b3-b2", "b2-b3", "b3-b2", "b2-b3")
    assert refusal(game, "b3-b2").rule == "two-squares"


def test_the_rule_can_be_switched_off():
    off = dataclasses.replace(get_variant("classic"), two_squares_limit=None)
    pieces = {Square.parse("b2"): (Color.RED, "captain"), Square.parse("j1"): (Color.RED, "flag"),
              Square.parse("j10"): (Color.BLUE, "flag"), Square.parse("j9"): (Color.BLUE, "scout")}
    game = Game.from_position(off, pieces)
    red_moves_while_blue_waits(game, "b2-b3", "b3-b2", "b2-b3", "b3-b2", "b2-b3")
    assert refusal(game, "b3-b2") is None
    assert game.repetition.moves_left_in_run(Color.RED) is None


def test_example_1_2_a_scout_run_covers_every_square_of_its_first_move():
    game = example(red={"a1": "scout"})
    red_moves_while_blue_waits(game, "a1-a4", "a4-a2", "a2-a4")
    for inside in ("a4-a1", "a4-a2", "a4-a3"):
        assert refusal(game, inside).rule == "two-squares", inside
    assert refusal(game, "a4-a5") is None  # leaves the stretch a1..a4: a new run


def test_example_1_3_attacks_count_as_moves():
    game = example(red={"c3": "major"}, blue={"c4": "scout"})
    play(game, "c3-c4")  # the Major attacks and wins
    assert game.piece_at(Square.parse("c4")).kind == "major"
    play(game, "j9-j8", "c4-c3", "j8-j7", "c3-c4", "j7-j6")
    assert refusal(game, "c4-c3").rule == "two-squares"


def test_example_1_4_the_opponents_moves_do_not_break_a_run():
    game = example(red={"b2": "captain"}, blue={"e7": "sergeant", "e6": "miner"})
    play(game, "b2-b3", "e7-e8", "b3-b2", "e8-e7", "b2-b3", "e6-e5")
    assert refusal(game, "b3-b2").rule == "two-squares"


def test_example_1_4_a_move_of_another_own_piece_starts_a_new_run():
    game = example(red={"b2": "captain"})
    red_moves_while_blue_waits(game, "b2-b3", "b3-b2", "b2-b3", "j2-j3")
    assert refusal(game, "b3-b2") is None


def test_example_1_5_who_started_shuffling_must_stop_first():
    game = example(red={"a2": "general"}, blue={"b2": "major"}, to_move="blue")
    play(game, "b2-b1", "a2-a1", "b1-b2", "a1-a2", "b2-b1", "a2-a1")
    assert refusal(game, "b1-b2").rule == "two-squares"
    assert refusal(game, "b1-c1") is None  # a third square is still open


def test_red_started_so_red_must_stop_first():
    game = example(red={"a2": "general"}, blue={"b1": "major"})
    play(game, "a2-a1", "b1-b2", "a1-a2", "b2-b1", "a2-a1", "b1-b2")
    assert refusal(game, "a1-a2").rule == "two-squares"
    play(game, "j2-j3")  # Red stops; Blue has made only three moves of its own run
    assert refusal(game, "b2-b1").rule == "two-squares"


def test_moves_left_in_run_counts_down_for_the_warning():
    game = example(red={"b2": "captain"})
    assert game.repetition.moves_left_in_run(Color.RED) is None
    lefts = []
    for red_move, blue_move in zip(["b2-b3", "b3-b2", "b2-b3"], BLUE_WAITS, strict=False):
        play(game, red_move)
        lefts.append(game.repetition.moves_left_in_run(Color.RED))
        play(game, blue_move)
    assert lefts == [2, 1, 0]


@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "compact", "strategy8"])
def test_every_shipped_variant_uses_three_moves(variant):
    assert get_variant(variant).two_squares_limit == 3


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_a_takeback_restores_every_run_in_a_random_classic_game(seed):
    rng = random.Random(seed)
    variant = get_variant("classic")
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng))
    for _ in range(120):
        if game.result is not None:
            break
        legal = game.legal_moves()
        # Shuffle on purpose: repeat the piece's way back whenever it is allowed.
        last = game.move_stack[-2] if len(game.move_stack) >= 2 else None
        back = Move(last.target, last.origin) if last else None
        move = back if back in legal and rng.random() < 0.8 else rng.choice(legal)
        before = (sorted(map(str, legal)), game.repetition.moves_left_in_run(Color.RED),
                  game.repetition.moves_left_in_run(Color.BLUE))
        game.push(move)
        game.pop()
        assert (sorted(map(str, game.legal_moves())), game.repetition.moves_left_in_run(Color.RED),
                game.repetition.moves_left_in_run(Color.BLUE)) == before
        game.push(move)
