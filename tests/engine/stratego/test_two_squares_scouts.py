"""Scouts and the two-squares rule (ISF 10.2): examples 1.6 and 1.7 of docs/rules/repetition.md."""

import dataclasses

from engine import Color, Game, Square, get_variant

from .positions import play, position, refusal

# Far away: each side's flag, and a blue Scout that walks down the j file while Red plays.
BLUE_WALK = ["j9-j8", "j8-j7", "j7-j6", "j6-j5", "j5-j4", "j4-j3", "j3-j4", "j4-j5"]


def scout_on_a1(limit: int | None = 3) -> Game:
    if limit == 3:
        return position(red={"j1": "flag", "a1": "scout", "c1": "sergeant"},
                        blue={"j10": "flag", "j9": "scout"})
    variant = dataclasses.replace(get_variant("classic"), two_squares_limit=limit)
    pieces = {Square.parse(s): (Color.RED, k) for s, k in
              {"j1": "flag", "a1": "scout", "c1": "sergeant"}.items()}
    pieces[Square.parse("j10")] = (Color.BLUE, "flag")
    pieces[Square.parse("j9")] = (Color.BLUE, "scout")
    return Game.from_position(variant, pieces)


def red_plays(game: Game, *moves: str) -> None:
    """Red's moves, each answered by the next step of Blue's far Scout."""
    for red in moves:
        play(game, red, BLUE_WALK[game.ply // 2])


def test_example_1_6_a_scout_walking_one_way_inside_its_first_stretch_is_one_run():
    game = scout_on_a1()
    red_plays(game, "a1-a5", "a5-a4", "a4-a3")  # moves 1, 2, 3 of the run over a1..a5
    assert refusal(game, "a3-a2").rule == "two-squares"  # would be the fourth
    assert refusal(game, "a3-a1").rule == "two-squares"
    assert refusal(game, "a3-a5").rule == "two-squares"
    assert refusal(game, "a3-a6") is None  # leaves the stretch a1..a5: a new run
    assert refusal(game, "c1-c2") is None  # another piece: always allowed


def test_example_1_6_with_gravons_limit_of_five_the_walk_goes_round_once_only():
    game = scout_on_a1(limit=5)
    red_plays(game, "a1-a5", "a5-a4", "a4-a3", "a3-a2", "a2-a1")  # five moves over a1..a5
    assert refusal(game, "a1-a5").rule == "two-squares"  # the round would start again
    assert refusal(game, "a1-b1") is None


def test_example_1_7_a_zig_zagging_scout_is_one_run():
    game = scout_on_a1()
    red_plays(game, "a1-a5", "a5-a2", "a2-a4")
    assert refusal(game, "a4-a1").rule == "two-squares"
    assert refusal(game, "a4-a3").rule == "two-squares"
    assert refusal(game, "a4-a6") is None  # beyond a5: a new run over a4..a6
    red_plays(game, "a4-a6")
    assert game.repetition.moves_left_in_run(Color.RED) == 2


def test_example_1_7_a_short_first_move_makes_a_short_stretch():
    game = scout_on_a1()
    red_plays(game, "a1-a2", "a2-a5", "a5-a2")  # a2-a5 leaves a1..a2: a new run over a2..a5
    assert game.repetition.moves_left_in_run(Color.RED) == 1
    assert refusal(game, "a2-a4") is None  # the third move of the run over a2..a5
