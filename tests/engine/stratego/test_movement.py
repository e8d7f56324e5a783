"""Movement: one square orthogonally, never onto lakes or own pieces; scouts run like rooks."""

import pytest

from engine import IllegalMove, Move, get_variant

from .positions import play, position, refusal


def names(moves):
    return sorted(str(m) for m in moves)


def test_a_piece_moves_one_square_orthogonally():
    game = position(red={"e4": "sergeant", "a1": "flag"}, blue={"j10": "flag", "j9": "scout"})
    assert names(game.legal_moves()) == ["e4-d4", "e4-e3", "e4-e5", "e4-f4"]


def test_diagonal_and_long_moves_are_refused_with_the_reason():
    game = position(red={"e4": "sergeant", "a1": "flag"}, blue={"j10": "flag", "j9": "scout"})
    assert refusal(game, "e4-f5").message == "pieces move orthogonally, never diagonally"
    assert refusal(game, "e4-e6").rule == "movement"
    assert "one square at a time" in refusal(game, "e4-e6").message


def test_lakes_cannot_be_entered():
    game = position(red={"c4": "sergeant", "a1": "flag"}, blue={"j10": "flag", "j9": "scout"})
    assert refusal(game, "c4-c5").message == "c5 is a lake"
    assert "c4-c5" not in names(game.legal_moves())


def test_own_pieces_block_and_bombs_and_flags_never_move():
    game = position(red={"e4": "sergeant", "e5": "bomb", "a1": "flag"},
                    blue={"j10": "flag", "j9": "scout"})
    assert refusal(game, "e4-e5").message == "e5 holds one of your own pieces"
    assert refusal(game, "e5-e6").message == "the bomb on e5 cannot move"
    assert refusal(game, "a1-a2").message == "the flag on a1 cannot move"


def test_it_must_be_your_turn():
    game = position(red={"e4": "sergeant", "a1": "flag"}, blue={"j10": "flag", "j9": "scout"})
    assert refusal(game, "j9-j8").rule == "turn"
    assert refusal(game, "d4-d5").message == "there is no piece on d4"


def test_a_scout_runs_any_distance_over_empty_squares():
    game = position(red={"a1": "scout", "j1": "flag"}, blue={"a7": "sergeant", "j10": "flag"})
    targets = names(game.legal_moves())
    assert "a1-a7" in targets  # move and strike at the end of the line
    assert "a1-a8" not in targets  # never over a piece
    assert "a1-i1" in targets


def test_a_scout_never_jumps_a_lake():
    game = position(red={"c2": "scout", "a1": "flag"}, blue={"j10": "flag", "c9": "sergeant"})
    assert "c2-c4" in names(game.legal_moves())
    assert refusal(game, "c2-c7").message == "the way from c2 to c7 is not free"


def test_the_old_rule_forbids_a_scout_to_strike_after_a_long_move():
    import dataclasses

    from engine import Color, Game, Square

    old = dataclasses.replace(get_variant("classic"), scout_strike=False)
    pieces = {Square.parse("a1"): (Color.RED, "scout"), Square.parse("j1"): (Color.RED, "flag"),
              Square.parse("a7"): (Color.BLUE, "sergeant"), Square.parse("j10"): (Color.BLUE, "flag")}
    game = Game.from_position(old, pieces)
    assert "may not attack at the end of a long move" in game.check(Move.parse("a1-a7")).message
    game.push(Move.parse("a1-a6"))


def test_an_illegal_move_changes_nothing():
    game = position(red={"e4": "sergeant", "a1": "flag"}, blue={"j10": "flag", "j9": "scout"})
    before = (game.hash, game.view().to_dict(), game.ply)
    with pytest.raises(IllegalMove) as refused:
        game.push(Move.parse("e4-e6"))
    assert refused.value.refusal.rule == "movement"
    assert (game.hash, game.view().to_dict(), game.ply) == before


def test_players_alternate_and_red_moves_first():
    game = position(red={"e4": "sergeant", "a1": "flag"}, blue={"e7": "sergeant", "j10": "flag"})
    assert game.to_move.value == "red"
    play(game, "e4-e5")
    assert game.to_move.value == "blue"
    play(game, "e7-e6")
    assert game.to_move.value == "red"
