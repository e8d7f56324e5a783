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
