"""Both players unable to move after a battle: a draw ("beide Spieler zugunfähig"), not a loss.

Sources: the German Stratego rule booklet lists among the draws "beide Spieler zugunfähig"; the
Gravon archive's ending code 2 is "both unable to move". docs/records.md, "Endings".
"""

import random

from engine import Color, Game, get_variant, random_setup

from .positions import play, position, refusal

# Red's Sergeant on c4 sits under the lake c5 between its own bombs b4, d4 and c3; Blue's
# Lieutenant on h7 sits over the lake h6 between its own bombs g7, i7 and h8. Neither can
# ever move while those bombs stand.
RED_WALLED = {"a1": "flag", "c4": "sergeant", "b4": "bomb", "d4": "bomb", "c3": "bomb"}
BLUE_WALLED = {"j10": "flag", "h7": "lieutenant", "g7": "bomb", "i7": "bomb", "h8": "bomb"}


def test_when_each_sides_last_movers_are_walled_in_after_a_battle_it_is_a_draw():
    game = position(red={**RED_WALLED, "e4": "major"}, blue={**BLUE_WALLED, "e5": "major"})
    events = play(game, "e4-e5")  # the Majors meet and both leave the board
    assert game.result.winner is None
    assert game.result.reason == "neither-can-move"
    assert events[-1].type == "game_end"


def test_a_side_without_movable_pieces_against_a_walled_in_side_is_a_draw_too():
    # Blue loses its last movable piece; Red still has one, but it can never move.
    game = position(red={**RED_WALLED, "e4": "major"}, blue={"j10": "flag", "e5": "major"})
    play(game, "e4-e5")
    assert game.result.winner is None and game.result.reason == "neither-can-move"


def test_the_side_that_can_still_move_wins_as_before():
    game = position(red={"a1": "flag", "e4": "major", "a3": "sergeant"},
                    blue={**BLUE_WALLED, "e5": "major"})
    play(game, "e4-e5")
    assert game.result.winner is Color.RED and game.result.reason == "no-legal-move"
    game = position(red={"a1": "flag", "e4": "major", "a3": "sergeant"},
                    blue={"j10": "flag", "e5": "major"})
    play(game, "e4-e5")
    assert game.result.winner is Color.RED and game.result.reason == "no-movable-pieces"


def test_a_player_kept_from_moving_only_by_the_two_squares_rule_still_loses():
    # Red's Captain can only shuttle a2-a3 (walls: its flag a1, bombs b2, b3, a4). After three
    # such moves the rule forbids the fourth: Red could move, the rules forbid it, Red loses,
    # even though Blue's last Scout has just died on a bomb and Blue is walled in.
    game = position(red={"a1": "flag", "a2": "captain", "b2": "bomb", "b3": "bomb", "a4": "bomb"},
                    blue={**BLUE_WALLED, "b9": "scout"})
    play(game, "a2-a3", "b9-b8", "a3-a2", "b8-b9", "a2-a3")
    assert refusal(game, "b9-b3") is None and game.result is None
    play(game, "b9-b3")  # the Scout dies on the bomb
    assert game.repetition.moves_left_in_run(Color.RED) == 0  # a3-a2 would be the fourth
    assert game.result.winner is Color.BLUE and game.result.reason == "no-legal-move"


def test_the_check_costs_nothing_while_the_game_goes_on(monkeypatch):
    calls = []
    original = Game._could_move

    def counting(self, color):
        calls.append(self.ply)
        return original(self, color)

    monkeypatch.setattr(Game, "_could_move", counting)
    rng = random.Random(7)
    variant = get_variant("classic")
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng))
    while game.result is None and game.ply < 300:
        game.push(rng.choice(game.legal_moves()))
    assert game.ply > 100
    assert [ply for ply in calls if game.result is None or ply < game.ply] == []
