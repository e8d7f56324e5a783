"""The more-squares rule (ISF 11, chasing): the examples of docs/rules/repetition.md, section 2."""

import dataclasses
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Color, Game, Square, get_variant

from .positions import play, position, refusal
from .repetition_walks import play_on, reference_rule, tiny_game, walk_move, without_rules

# Far away from every example: each side's flag, a red Sergeant and a blue Scout.
FAR_RED = {"j1": "flag", "j2": "sergeant"}
FAR_BLUE = {"j10": "flag", "j9": "scout"}

# Example 2.1: a red General chases a blue Major round the block a1 b1 b2 a2.
ROUND_THE_BLOCK = ["a2-a1", "b1-b2", "a1-b1", "b2-a2", "b1-b2", "a2-a1", "b2-a2", "a1-b1"]


def example(red: dict, blue: dict, to_move: str = "red", variant: str = "classic") -> Game:
    return position(variant, red={**FAR_RED, **red}, blue={**FAR_BLUE, **blue}, to_move=to_move)


def general_and_major() -> Game:
    return example(red={"a2": "general"}, blue={"b1": "major"})


def legal(game: Game) -> set[str]:
    return {str(move) for move in game.legal_moves()}


def test_example_2_1_a_chase_round_a_block_is_stopped_before_it_repeats():
    game = general_and_major()
    play(game, *ROUND_THE_BLOCK)
    refused = refusal(game, "a2-a1")
    assert refused.rule == "more-squares"
    assert "repeat a position" in refused.message
    assert "a2-a1" not in legal(game)


def test_example_2_1_the_chaser_may_stop_or_go_back_where_it_came_from():
    game = general_and_major()
    play(game, *ROUND_THE_BLOCK)
    assert {"a2-a3", "a2-b2", "j2-j3"} <= legal(game)


def test_every_move_before_the_repetition_is_allowed():
    game = general_and_major()
    for move in ROUND_THE_BLOCK:
        assert refusal(game, move) is None, move
        play(game, move)


def test_example_2_2_the_chase_ends_when_the_chased_player_does_something_else():
    game = general_and_major()
    play(game, *ROUND_THE_BLOCK[:7])  # Red's fourth move b2-a2 threatens the Major on a1
    play(game, "j9-j8")  # Blue does not run away: the chase is over
    play(game, "j2-j3", "j8-j9", "j3-j2", "a1-b1")  # the board is back as in example 2.1
    assert refusal(game, "a2-a1") is None  # a new chase remembers nothing of the old one


def test_example_2_3_the_chase_ends_when_the_chaser_does_something_else():
    game = general_and_major()
    play(game, *ROUND_THE_BLOCK)
    before = game.hash
    play(game, "j2-j3", "j9-j8", "j3-j2", "j8-j9")
    assert game.hash == before  # exactly the position in which a2-a1 was refused
    assert refusal(game, "a2-a1") is None
    play(game, *ROUND_THE_BLOCK)  # a second full round is a new chase ...
    assert refusal(game, "a2-a1").rule == "more-squares"  # ... and is stopped the same way


def test_example_2_4_the_chasing_piece_may_go_back_where_it_came_from():
    game = general_and_major()
    play(game, "a2-a1")
    position_one = game.hash
    play(game, "b1-b2", "a1-a2", "b2-b1")
    assert refusal(game, "a2-a1") is None  # the exception: the General came from a1 ...
    play(game, "a2-a1")
    assert game.hash == position_one  # ... although it recreates the position after move 1
    play(game, "b1-b2")
    refused = refusal(game, "a1-a2")  # allowed by the exception, but a fourth move a1/a2
    assert refused.rule == "two-squares"


def two_chased_pieces() -> Game:
    return example(red={"b1": "general"}, blue={"d1": "major", "a2": "captain"})


TWO_PIECES = ["b1-c1", "d1-d2", "c1-c2", "d2-d1", "c2-b2", "a2-a1", "b2-b1", "a1-a2"]


def test_example_2_5_a_chase_of_two_pieces_is_stopped_too():
    game = two_chased_pieces()
    for move in TWO_PIECES:
        assert refusal(game, move) is None, move
        play(game, move)
    assert refusal(game, "b1-c1").rule == "more-squares"
    assert refusal(game, "b1-b2") is None  # the exception, although it recreates a position
    warning = game.chase_warning(Color.RED)
    assert [s.name for s in warning.chased] == ["a2", "d1"]
    assert [m.name for m in warning.refused] == ["b1-c1"]


def test_example_2_5_the_exception_applies_although_the_position_recurs():
    game = two_chased_pieces()
    play(game, *TWO_PIECES[:5])
    position_three = game.hash
    play(game, *TWO_PIECES[5:], "b1-b2")
    assert game.hash == position_three


def test_example_2_5_no_blue_piece_ever_reaches_the_two_squares_limit():
    game = two_chased_pieces()
    play(game, *TWO_PIECES)
    assert game.repetition.moves_left_in_run(Color.BLUE) == 1  # only two moves of one run


def test_attacking_the_chaser_is_not_running_away():
    game = general_and_major()
    play(game, "a2-a1", "b1-b2", "a1-b1")
    play(game, "b2-a2")  # running away keeps the chase going
    assert game.chase_warning(Color.RED) is not None
    game.pop()
    play(game, "b2-b1")  # the Major attacks the General (and loses): the chase is over
    assert game.chase_warning(Color.RED) is None


def test_moving_another_piece_is_not_running_away():
    game = general_and_major()
    play(game, "a2-a1", "b1-b2", "a1-b1", "j9-j8")
    assert game.chase_warning(Color.RED) is None


def test_the_rule_can_be_switched_off():
    off = dataclasses.replace(get_variant("classic"), more_squares_rule=False)
    pieces = {Square.parse(s): (Color.RED, k) for s, k in {**FAR_RED, "a2": "general"}.items()}
    pieces.update({Square.parse(s): (Color.BLUE, k) for s, k in {**FAR_BLUE, "b1": "major"}.items()})
    game = Game.from_position(off, pieces)
    play(game, *ROUND_THE_BLOCK)
    assert refusal(game, "a2-a1") is None
    assert game.chase_warning(Color.RED) is None


def test_the_chase_warning_tells_the_chaser_before_a_move_is_refused():
    game = general_and_major()
    assert game.chase_warning(Color.RED) is None
    play(game, "a2-a1")
    assert game.chase_warning(Color.RED) is None  # Blue has not run yet
    play(game, "b1-b2")
    warning = game.chase_warning(Color.RED)
    assert [s.name for s in warning.chased] == ["b2"] and warning.refused == ()
    play(game, *ROUND_THE_BLOCK[2:])
    warning = game.chase_warning(Color.RED)
    assert warning.to_dict() == {"chased": ["b1"], "positions": 4, "refused": ["a2-a1"]}
    assert game.chase_warning(Color.BLUE) is None


def test_a_takeback_restores_the_chase():
    game = general_and_major()
    play(game, *ROUND_THE_BLOCK)
    for _ in range(3):
        game.pop()
    play(game, *ROUND_THE_BLOCK[-3:])
    assert refusal(game, "a2-a1").rule == "more-squares"


# -- the engine's constant-time bookkeeping against a slow reading of the rules ------------------

def walk(seed: int, plies: int = 80):
    """A provoking random game on the tiny board; yields the game before each move."""
    rng = random.Random(seed)
    game = tiny_game()
    for _ in range(plies):
        if game.result is not None:
            return
        yield game
        move = walk_move(game, rng)
        if move is None:
            return
        game.push(move)


def test_the_engine_refuses_exactly_what_the_slow_reading_of_the_rules_refuses():
    refused = Counter()
    for seed in range(40):
        copy, history = None, []
        for game in walk(seed):
            if copy is None:
                copy = without_rules(game)
            while len(history) < game.ply:  # catch the copy up with the game
                history.append(play_on(copy, game.move_stack[len(history)]))
            for move in copy.legal_moves():
                expected = reference_rule(game, history, move, copy)
                verdict = game.check(move)
                assert (verdict.rule if verdict else None) == expected, (seed, game.ply, str(move))
                refused[expected] += 1
    # The walks must really reach both rules, or this test could not fail.
    assert refused["two-squares"] > 20 and refused["more-squares"] > 5, refused


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_a_move_taken_back_leaves_every_refusal_as_it_was(seed):
    for game in walk(seed, plies=50):
        candidates = without_rules_candidates(game)
        before = {str(m): game.check(m) for m in candidates}
        legal = {str(m) for m in game.legal_moves()}
        assert legal == {name for name, verdict in before.items() if verdict is None}
        warning = game.chase_warning(game.to_move)
        for move in game.legal_moves()[:6]:
            game.push(move)
            game.pop()
            assert {str(m): game.check(m) for m in candidates} == before
            assert game.chase_warning(game.to_move) == warning


def without_rules_candidates(game):
    """Every move the pieces could make now if the repetition rules did not exist."""
    copy = without_rules(game)
    for move in game.move_stack:
        copy.push(move)
    return copy.legal_moves()
