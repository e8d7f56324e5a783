"""Every refusal of the Stratego family names its sentence (`reason`) and what it speaks of (`data`),
so a tablet can say it in the player's language instead of showing the English `message`."""

from __future__ import annotations

from engine import Move

from .positions import play, position, refusal
from .test_two_squares_rule import example, red_moves_while_blue_waits


def reason(game, move: str) -> tuple[str, str, dict]:
    refused = refusal(game, move)
    assert refused is not None, move
    return refused.rule, refused.reason, dict(refused.data)


def test_each_movement_refusal_names_its_reason_and_squares():
    game = position(red={"e4": "captain", "e5": "sergeant", "a1": "bomb", "b2": "scout", "b4": "miner",
                         "j1": "flag"},
                    blue={"b6": "sergeant", "j10": "flag"})
    assert reason(game, "e4-f5") == ("movement", "diagonal", {"origin": "e4", "target": "f5"})
    assert reason(game, "e4-e6") == ("movement", "one-square",
                                     {"origin": "e4", "target": "e6", "kind": "captain"})
    assert reason(game, "a1-a2") == ("movement", "immobile", {"square": "a1", "kind": "bomb"})
    assert reason(game, "e4-e5") == ("movement", "own-piece", {"square": "e5"})
    assert reason(game, "d4-d5") == ("movement", "no-piece", {"square": "d4"})
    assert reason(game, "b2-b5") == ("movement", "path-blocked", {"origin": "b2", "target": "b5"})
    assert reason(game, "b6-b5") == ("turn", "not-your-turn", {"to_move": "red"})


def test_a_lake_and_the_end_of_the_game_are_named():
    game = position(red={"c4": "captain", "j1": "flag"}, blue={"j10": "flag", "j9": "scout"})
    assert reason(game, "c4-c5") == ("movement", "lake", {"square": "c5"})
    game.push(Move.parse("c4-d4"))
    game.resign(game.to_move)
    rule, why, data = reason(game, "j9-j8")
    assert (rule, why) == ("game-over", "game-over") and data["why"]


def test_the_repetition_rules_name_the_piece_square_and_the_limit():
    game = example(red={"b2": "captain"})
    red_moves_while_blue_waits(game, "b2-b3", "b3-b2", "b2-b3")
    assert reason(game, "b3-b2") == ("two-squares", "two-squares", {"limit": 3, "square": "b3"})


def test_espionage_second_move_must_be_another_piece():
    game = position("espionage", red={"a1": "headquarters", "c3": "corporal", "e3": "captain"},
                    blue={"j10": "headquarters", "c8": "corporal", "e8": "captain"})
    play(game, "c3-c4")
    assert reason(game, "c4-c5") == ("turn", "same-piece", {"square": "c4"})
