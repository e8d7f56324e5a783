"""The end of an Espionage game: Headquarters, all mobile pieces, and blocked players."""

from engine import Color

from .positions import play, position


def test_capturing_the_headquarters_wins_and_reveals_the_board():
    game = position("espionage", red={"a1": "headquarters", "e4": "corporal", "c3": "spy"},
                    blue={"e5": "headquarters", "i10": "general"})
    events = play(game, "e4-e5")
    assert game.result.winner is Color.RED and game.result.reason == "headquarters-captured"
    assert events[-1].type == "game_end"
    assert game.view(Color.RED).piece_at("i10").kind == "general"
    assert game.view(None).piece_at("c3").kind == "spy"


def test_capturing_the_last_enemy_mobile_piece_wins_at_once_mid_turn():
    game = position("espionage", red={"a1": "headquarters", "e4": "general", "c3": "spy"},
                    blue={"j10": "headquarters", "j9": "mine", "e5": "colonel"})
    events = play(game, "e4-e5")  # the first move of Red's turn
    assert game.result.winner is Color.RED and game.result.reason == "no-movable-pieces"
    assert [e.type for e in events][-1] == "game_end"
    assert game.legal_moves() == []


def test_losing_ones_own_last_mobile_piece_loses_at_once():
    # The mine captured Red's last mobile piece: Blue has captured all of them.
    game = position("espionage", red={"a1": "headquarters", "e4": "captain"},
                    blue={"j10": "headquarters", "e5": "mine", "h8": "corporal"})
    play(game, "e4-e5")
    assert game.result.winner is Color.BLUE and game.result.reason == "no-movable-pieces"


def test_a_player_whose_mobile_pieces_are_all_blocked_passes():
    # Blue's only mobile piece, the corporal on j10, is walled in by its own mines and the edge.
    game = position("espionage", red={"a1": "headquarters", "c3": "corporal", "e3": "spy"},
                    blue={"j10": "corporal", "i10": "mine", "j9": "mine", "a10": "headquarters"})
    events = play(game, "c3-c4", "e3-e4")
    turns = [e for e in events if e.type == "turn"]
    assert [(t.to_move, t.turn) for t in turns] == [("blue", 2), ("red", 3)]
    assert game.result is None and game.to_move is Color.RED
    assert game.view(Color.BLUE).to_move == "red"


def test_a_piece_held_only_by_the_return_ban_makes_its_owner_pass_for_one_turn():
    # The red corporal shuttles in a dead end, a1 and a2, walled in by its own mines on b1, b2, a3.
    red = {"a2": "corporal", "b1": "mine", "b2": "mine", "a3": "mine", "d1": "headquarters"}
    blue = {"a10": "headquarters", "e8": "corporal", "g8": "captain"}
    game = position("espionage", red=red, blue=blue)
    events = play(game, "a2-a1")  # no other red piece can move: the turn passes at once
    assert events[-1].type == "turn" and game.to_move is Color.BLUE
    events = play(game, "e8-e7", "g8-g7")
    # Red's only move, a1-a2, goes straight back: Red passes and Blue moves again.
    assert [(e.to_move, e.turn) for e in events if e.type == "turn"] == [("red", 3), ("blue", 4)]
    assert game.result is None
    play(game, "e7-e6", "g7-g6")
    assert game.to_move is Color.RED and [m.name for m in game.legal_moves()] == ["a1-a2"]


def test_when_neither_side_can_move_it_is_a_draw():
    # Each side's last free piece is walled in; Red's other piece dies on a mine.
    red = {"a1": "corporal", "a2": "mine", "b1": "mine", "d1": "headquarters", "e4": "lieutenant"}
    blue = {"j10": "corporal", "j9": "mine", "i10": "mine", "a10": "headquarters", "e5": "mine"}
    game = position("espionage", red=red, blue=blue)
    events = play(game, "e4-e5")
    assert game.result.winner is None and game.result.reason == "neither-can-move"
    assert events[-1].type == "game_end"


def test_with_the_one_move_option_a_blocked_player_passes_too():
    from dataclasses import replace

    from engine import Game, Square, get_variant

    variant = replace(get_variant("espionage"), moves_per_turn=1)
    pieces = {Square.parse("a1"): (Color.RED, "headquarters"), Square.parse("c3"): (Color.RED, "spy"),
              Square.parse("j10"): (Color.BLUE, "corporal"), Square.parse("i10"): (Color.BLUE, "mine"),
              Square.parse("j9"): (Color.BLUE, "mine")}
    game = Game.from_position(variant, pieces)
    play(game, "c3-c4")
    assert game.to_move is Color.RED and game.turn == 3
