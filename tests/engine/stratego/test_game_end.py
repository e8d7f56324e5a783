"""The end of the game: who wins, who loses, and why."""

from engine import Color, Move

from .positions import play, position


def test_capturing_the_flag_wins():
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e5": "flag", "j9": "sergeant"})
    events = play(game, "e4-e5")
    assert game.result.winner is Color.RED and game.result.reason == "flag-captured"
    assert events[-1].type == "game_end"
    assert game.legal_moves() == []
    assert game.check(Move.parse("a1-a2")).rule == "game-over"


def test_a_player_without_movable_pieces_loses():
    game = position(red={"e4": "sergeant", "a1": "flag"},
                    blue={"e5": "scout", "j10": "flag", "j9": "bomb"})
    play(game, "e4-e5")
    assert game.result.winner is Color.RED
    assert game.result.reason == "no-movable-pieces"


def test_a_player_whose_pieces_are_all_blocked_loses():
    # Blue's only mover is the sergeant on j10, boxed in by its own bomb and flag and the edge.
    game = position(red={"a1": "flag", "a3": "sergeant"},
                    blue={"j10": "sergeant", "i10": "bomb", "j9": "flag"})
    play(game, "a3-a4")
    assert game.result.winner is Color.RED and game.result.reason == "no-legal-move"


def test_when_neither_side_can_move_after_a_battle_it_is_a_draw():
    game = position(red={"e4": "major", "a1": "flag", "a2": "bomb"},
                    blue={"e5": "major", "j10": "flag"})
    play(game, "e4-e5")
    assert game.result.winner is None and game.result.reason == "both-immobile"


def test_resigning_loses_and_agreed_draws_and_clocks():
    game = position(red={"e4": "major", "a1": "flag"}, blue={"e7": "major", "j10": "flag"})
    game.resign(Color.BLUE)
    assert game.result.winner is Color.RED and game.result.reason == "resignation"

    game = position(red={"e4": "major", "a1": "flag"}, blue={"e7": "major", "j10": "flag"})
    game.agree_draw()
    assert game.result.winner is None and game.result.reason == "agreement"

    game = position(red={"e4": "major", "a1": "flag"}, blue={"e7": "major", "j10": "flag"})
    game.game_time_expired()
    assert game.result.winner is None and game.result.reason == "game-time"

    game = position(red={"e4": "major", "a1": "flag"}, blue={"e7": "major", "j10": "flag"})
    game.clock_fallen(Color.RED)
    assert game.result.winner is Color.BLUE and game.result.reason == "clock"


def test_at_the_end_the_whole_board_is_revealed():
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e5": "flag", "j9": "sergeant"})
    assert game.view(Color.RED).piece_at("j9").kind is None
    play(game, "e4-e5")
    assert game.view(Color.RED).piece_at("j9").kind == "sergeant"
