"""A takeback both players agree to restores the game exactly."""

import random

import pytest

from engine import Color, Game, get_variant, random_setup

from .positions import play, position


def test_a_battle_taken_back_restores_both_pieces_and_what_was_known():
    game = position(red={"e4": "captain", "a1": "flag", "a2": "scout"},
                    blue={"e5": "sergeant", "j10": "flag", "j9": "scout"})
    before = (game.hash, game.view(Color.RED).to_dict(), game.view(Color.BLUE).to_dict())
    play(game, "e4-e5")
    assert str(game.pop()) == "e4-e5"
    assert (game.hash, game.view(Color.RED).to_dict(), game.view(Color.BLUE).to_dict()) == before


def test_a_won_game_taken_back_goes_on():
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e5": "flag", "j9": "sergeant"})
    play(game, "e4-e5")
    game.pop()
    assert game.result is None and game.to_move is Color.RED


def test_nothing_to_take_back():
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e5": "flag", "j9": "sergeant"})
    with pytest.raises(ValueError, match="no move to take back"):
        game.pop()


def test_a_resignation_cannot_be_undone_by_a_takeback():
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e7": "flag", "j9": "sergeant"})
    play(game, "e4-e5")
    game.resign(Color.BLUE)
    with pytest.raises(ValueError):
        game.pop()


def test_random_games_undone_move_by_move_retrace_their_steps():
    variant = get_variant("classic")
    rng = random.Random(7)
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng))
    trail = []
    while game.result is None and game.ply < 300:
        trail.append((game.hash, sorted(map(str, game.legal_moves()))))
        game.push(rng.choice(game.legal_moves()))
    while trail:
        game.pop()
        assert (game.hash, sorted(map(str, game.legal_moves()))) == trail.pop()


@pytest.mark.parametrize("declare", [lambda g: g.resign(Color.BLUE), lambda g: g.agree_draw(),
                                     lambda g: g.game_time_expired(), lambda g: g.clock_fallen(Color.RED)])
def test_a_declared_end_taken_back_off_the_stack_leaves_the_game_as_it_was(declare):
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e7": "flag", "j9": "sergeant"})
    play(game, "e4-e5")
    before = (game.hash, game.view(Color.RED).to_dict(), game.view(None).to_dict(), game.move_stack)
    declared = declare(game)
    assert game.pop_end().reason == declared[0].reason
    assert game.result is None
    assert (game.hash, game.view(Color.RED).to_dict(), game.view(None).to_dict(), game.move_stack) == before
    assert declared[0].reason  # the end was announced; the game now goes on
    play(game, "j9-j8")
    assert str(game.pop()) == "j9-j8"


def test_only_a_declared_end_is_taken_back_by_pop_end():
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e5": "flag", "j9": "sergeant"})
    play(game, "e4-e5")  # the flag is taken: the rules ended the game, nobody declared it
    with pytest.raises(ValueError, match="no declared end"):
        game.pop_end()
