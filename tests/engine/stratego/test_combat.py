"""Combat as in the rules: the higher rank wins, equal ranks both leave, and the exceptions."""

import pytest

from engine import Color, Outcome, Square, get_variant, resolve_battle

from .positions import play, position

CLASSIC = get_variant("classic")


@pytest.mark.parametrize(
    "attacker, defender, outcome",
    [
        ("marshal", "general", Outcome.ATTACKER),
        ("sergeant", "captain", Outcome.DEFENDER),
        ("major", "major", Outcome.BOTH),
        ("scout", "spy", Outcome.ATTACKER),
    ],
)
def test_the_higher_rank_wins_and_equal_ranks_both_leave(attacker, defender, outcome):
    assert resolve_battle(CLASSIC, attacker, defender) is outcome


def test_the_spy_wins_when_it_attacks_the_marshal():
    assert resolve_battle(CLASSIC, "spy", "marshal") is Outcome.ATTACKER


def test_the_marshal_wins_when_it_attacks_the_spy():
    assert resolve_battle(CLASSIC, "marshal", "spy") is Outcome.ATTACKER


def test_the_spy_loses_attacking_anything_but_the_marshal():
    assert resolve_battle(CLASSIC, "spy", "general") is Outcome.DEFENDER


def test_a_miner_removes_a_bomb():
    assert resolve_battle(CLASSIC, "miner", "bomb") is Outcome.ATTACKER


@pytest.mark.parametrize("attacker", ["marshal", "general", "scout", "spy", "sergeant"])
def test_any_other_attacker_of_a_bomb_is_removed_and_the_bomb_stays(attacker):
    assert resolve_battle(CLASSIC, attacker, "bomb") is Outcome.DEFENDER


@pytest.mark.parametrize("attacker", ["spy", "scout", "miner", "marshal"])
def test_any_attack_captures_the_flag(attacker):
    assert resolve_battle(CLASSIC, attacker, "flag") is Outcome.ATTACKER


def test_in_strategy8_only_the_attacking_spy_beats_the_general():
    strategy = get_variant("strategy8")
    assert resolve_battle(strategy, "spy", "general") is Outcome.ATTACKER
    assert resolve_battle(strategy, "general", "spy") is Outcome.ATTACKER
    assert resolve_battle(strategy, "general", "colonel") is Outcome.ATTACKER


def test_a_winning_attacker_stands_on_the_target_square():
    game = position(red={"e4": "captain", "a1": "flag"}, blue={"e5": "sergeant", "j10": "flag"})
    events = play(game, "e4-e5")
    assert game.piece_at(Square.parse("e5")).kind == "captain"
    battle = next(e for e in events if e.type == "battle")
    assert (battle.attacker, battle.defender, battle.outcome) == ("captain", "sergeant", "attacker")
    captures = [e for e in events if e.type == "capture"]
    assert [(c.kind, c.square) for c in captures] == [("sergeant", "e5")]


def test_a_losing_attacker_leaves_and_the_defender_stays():
    game = position(red={"e4": "scout", "a1": "flag"}, blue={"e5": "major", "j10": "flag"})
    play(game, "e4-e5")
    assert game.piece_at(Square.parse("e4")) is None
    assert game.piece_at(Square.parse("e5")).kind == "major"
    assert [p.kind for p in game.captured] == ["scout"]


def test_equal_ranks_both_leave_the_board():
    game = position(red={"e4": "major", "a1": "flag", "a2": "scout"},
                    blue={"e5": "major", "j10": "flag", "j9": "scout"})
    play(game, "e4-e5")
    assert sorted(p.kind for p in game.captured) == ["major", "major"]
    assert game.occupied() == {s for s, _ in game.pieces()}
    assert len(list(game.pieces())) == 4


def test_both_ranks_are_shown_to_both_players_in_a_battle():
    game = position(red={"e4": "captain", "a1": "flag", "a2": "scout"},
                    blue={"e5": "bomb", "j10": "flag", "j9": "scout"})
    play(game, "e4-e5")
    for viewer in (Color.RED, Color.BLUE, None):
        assert game.view(viewer).piece_at("e5").kind == "bomb"
        assert game.view(viewer).captured["red"] == ["captain"]
