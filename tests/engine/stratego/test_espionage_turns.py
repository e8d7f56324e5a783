"""Espionage turns: two moves by two different pieces, no straight return, the one-move option."""

from dataclasses import replace

from engine import Color, Game, Move, Square, espionage_variant, get_variant

from .positions import play, position, refusal

# Enough pieces on both sides that nobody runs out of moves in these examples.
RED = {"a1": "headquarters", "c3": "corporal", "e3": "captain", "g3": "spy"}
BLUE = {"j10": "headquarters", "c8": "corporal", "e8": "captain", "g8": "spy"}


def test_a_turn_is_two_moves_by_two_different_pieces():
    game = position("espionage", red=RED, blue=BLUE)
    assert game.moves_left_in_turn == 2
    play(game, "c3-c4")
    assert game.to_move is Color.RED and game.moves_left_in_turn == 1
    view = game.view(Color.BLUE).to_dict()
    assert view["moves_left_in_turn"] == 1 and view["moves_per_turn"] == 2  # Red's move 2 of 2
    play(game, "e3-e4")
    assert game.to_move is Color.BLUE and game.moves_left_in_turn == 2 and game.turn == 2


def test_the_second_move_of_a_turn_must_be_made_by_another_piece():
    game = position("espionage", red=RED, blue=BLUE)
    play(game, "c3-c4")
    assert refusal(game, "c4-c5").rule == "turn"
    assert all(m.origin != Square.parse("c4") for m in game.legal_moves())


def test_a_turn_event_follows_the_second_move_only():
    game = position("espionage", red=RED, blue=BLUE)
    first = play(game, "c3-c4")
    second = play(game, "e3-e4")
    assert [e.type for e in first] == ["move"]
    assert [e.type for e in second] == ["move", "turn"] and second[-1].to_move == "blue"


def test_the_turn_passes_after_one_move_when_no_other_piece_can_move():
    game = position("espionage", red={"a1": "headquarters", "b1": "mine", "c3": "corporal"},
                    blue=BLUE)
    events = play(game, "c3-c4")
    assert events[-1].type == "turn" and game.to_move is Color.BLUE


def test_a_piece_may_not_go_straight_back_on_its_owners_next_turn():
    game = position("espionage", red=RED, blue=BLUE)
    play(game, "c3-c4", "e3-e4", "c8-c7", "e8-e7")
    problem = refusal(game, "c4-c3")
    assert problem.rule == "movement" and "straight back to c3" in problem.message
    assert refusal(game, "c4-c5") is None and refusal(game, "c4-b4") is None


def test_it_may_go_back_a_turn_later():
    game = position("espionage", red=RED, blue=BLUE)
    play(game, "c3-c4", "e3-e4", "c8-c7", "e8-e7", "g3-g4", "e4-e5", "c7-c6", "e7-e6")
    assert refusal(game, "c4-c3") is None


def test_a_piece_that_stood_still_a_turn_is_free_again():
    game = position("espionage", red=RED, blue=BLUE)
    play(game, "c3-c4", "e3-e4", "c8-c7", "e8-e7")
    assert refusal(game, "e4-e3") is not None
    play(game, "g3-g4", "c4-c5", "c7-c6", "e7-e6")
    assert refusal(game, "e4-e3") is None


def test_the_return_ban_covers_an_attack_on_the_next_turn():
    game = position("espionage", red=RED, blue={**BLUE, "b3": "corporal"})
    play(game, "c3-c4", "e3-e4")  # the red corporal leaves c3
    play(game, "b3-c3", "c8-c7")  # a blue corporal steps into c3 at once
    problem = refusal(game, "c4-c3")
    assert problem is not None and problem.rule == "movement"
    play(game, "g3-g4", "e4-e5", "e8-e7", "g8-g7")
    events = play(game, "c4-c3")  # a turn later the attack is allowed
    assert events[1].type == "battle" and events[1].outcome == "attacker"


def test_with_the_one_move_option_the_turn_passes_after_every_move():
    variant = espionage_variant(moves_per_turn=1)
    game = Game.from_position(variant, {
        **{Square.parse(s): (Color.RED, k) for s, k in RED.items()},
        **{Square.parse(s): (Color.BLUE, k) for s, k in BLUE.items()},
    })
    assert game.moves_left_in_turn == 1
    events = game.push(Move.parse("c3-c4"))
    assert events[-1].type == "turn" and game.to_move is Color.BLUE


def test_with_the_one_move_option_the_return_ban_still_holds_on_the_next_own_turn():
    variant = replace(get_variant("espionage"), moves_per_turn=1)
    pieces = {Square.parse(s): (Color.RED, k) for s, k in RED.items()}
    pieces.update({Square.parse(s): (Color.BLUE, k) for s, k in BLUE.items()})
    game = Game.from_position(variant, pieces)
    play(game, "c3-c4", "c8-c7")
    assert refusal(game, "c4-c3").rule == "movement"
    play(game, "e3-e4", "e8-e7")
    assert refusal(game, "c4-c3") is None


def test_a_takeback_restores_the_turn_and_the_return_ban():
    game = position("espionage", red=RED, blue=BLUE)
    play(game, "c3-c4", "e3-e4")
    game.pop()
    assert game.to_move is Color.RED and game.moves_left_in_turn == 1 and game.turn == 1
    game.pop()
    assert game.moves_left_in_turn == 2
    play(game, "c3-c4", "e3-e4", "c8-c7", "e8-e7")
    game.pop()
    game.pop()
    assert game.to_move is Color.BLUE
    play(game, "c8-c7", "e8-e7")
    assert refusal(game, "c4-c3") is not None
