"""Espionage combat (docs/rules/espionage.md, section 4): ranks 1-5, the attacker wins ties, and the exceptions."""

import itertools

import pytest

from engine import Color, Outcome, get_variant, resolve_battle

from .positions import play, position, refusal

ESPIONAGE = get_variant("espionage")
SOLDIERS = {"corporal": 1, "lieutenant": 2, "captain": 3, "colonel": 4, "general": 5}
MOBILE = [*SOLDIERS, "spy", "sapper"]


def expected(attacker: str, defender: str) -> Outcome:
    """The combat table written out from the rule text, independently of the engine's data."""
    if defender == "headquarters":
        return Outcome.ATTACKER  # any piece captures the Headquarters
    if defender == "mine":
        return Outcome.ATTACKER if attacker == "sapper" else Outcome.DEFENDER
    if attacker in SOLDIERS:
        if defender in SOLDIERS:
            return Outcome.ATTACKER if SOLDIERS[attacker] >= SOLDIERS[defender] else Outcome.DEFENDER
        return Outcome.ATTACKER  # soldiers beat Spies and Sappers
    if defender in ("spy", "sapper"):
        return Outcome.ATTACKER  # Spies and Sappers beat Spies and Sappers
    if attacker == "sapper" and defender == "general":
        return Outcome.ATTACKER
    return Outcome.DEFENDER


@pytest.mark.parametrize("attacker, defender",
                         list(itertools.product(MOBILE, [*MOBILE, "mine", "headquarters"])))
def test_the_whole_combat_table(attacker, defender):
    assert resolve_battle(ESPIONAGE, attacker, defender) is expected(attacker, defender)


def test_no_battle_ever_removes_both_pieces():
    outcomes = {resolve_battle(ESPIONAGE, a, d) for a in MOBILE for d in ESPIONAGE.kinds}
    assert Outcome.BOTH not in outcomes


def test_an_attacker_of_equal_rank_wins():
    assert resolve_battle(ESPIONAGE, "captain", "captain") is Outcome.ATTACKER
    assert resolve_battle(ESPIONAGE, "general", "general") is Outcome.ATTACKER


def test_a_weaker_attacker_dies():
    assert resolve_battle(ESPIONAGE, "lieutenant", "colonel") is Outcome.DEFENDER


def test_a_sapper_attacking_a_general_wins():
    assert resolve_battle(ESPIONAGE, "sapper", "general") is Outcome.ATTACKER


def test_a_general_attacking_a_sapper_wins():
    assert resolve_battle(ESPIONAGE, "general", "sapper") is Outcome.ATTACKER


def test_a_sapper_attacking_any_other_soldier_dies():
    for soldier in ("corporal", "lieutenant", "captain", "colonel"):
        assert resolve_battle(ESPIONAGE, "sapper", soldier) is Outcome.DEFENDER


def test_a_spy_beats_only_spies_and_sappers():
    assert resolve_battle(ESPIONAGE, "spy", "spy") is Outcome.ATTACKER
    assert resolve_battle(ESPIONAGE, "spy", "sapper") is Outcome.ATTACKER
    assert resolve_battle(ESPIONAGE, "spy", "corporal") is Outcome.DEFENDER
    assert resolve_battle(ESPIONAGE, "spy", "general") is Outcome.DEFENDER


def test_a_sapper_beats_sappers_and_spies():
    assert resolve_battle(ESPIONAGE, "sapper", "sapper") is Outcome.ATTACKER
    assert resolve_battle(ESPIONAGE, "sapper", "spy") is Outcome.ATTACKER


def test_a_sapper_clears_a_mine_and_stands_in_its_place():
    game = position("espionage", red={"e4": "sapper", "a1": "corporal"},
                    blue={"e5": "mine", "j10": "corporal"})
    events = play(game, "e4-e5")
    assert [e.type for e in events][:3] == ["move", "battle", "capture"]
    assert events[2].kind == "mine" and events[2].square == "e5"
    assert game.view(Color.RED).piece_at("e5").kind == "sapper"


def test_a_mine_kills_any_other_attacker_and_stays():
    for attacker in [*SOLDIERS, "spy"]:
        game = position("espionage", red={"e4": attacker, "a1": "corporal"},
                        blue={"e5": "mine", "j10": "corporal"})
        events = play(game, "e4-e5")
        captured = [e for e in events if e.type == "capture"]
        assert [(e.kind, e.square) for e in captured] == [(attacker, "e4")]
        assert game.view(Color.RED).piece_at("e5").color == "blue"
        assert game.view(Color.RED).piece_at("e4") is None


def test_the_headquarters_falls_to_any_piece():
    for attacker in MOBILE:
        game = position("espionage", red={"e4": attacker, "a1": "corporal"},
                        blue={"e5": "headquarters", "j10": "general"})
        play(game, "e4-e5")
        assert game.result.winner is Color.RED
        assert game.result.reason == "headquarters-captured"


def test_mines_and_the_headquarters_never_move():
    game = position("espionage", red={"e4": "mine", "f4": "headquarters", "a1": "corporal"},
                    blue={"j10": "corporal"})
    for move in ("e4-e5", "f4-f5"):
        assert refusal(game, move).rule == "movement"
    assert {m.origin.name for m in game.legal_moves()} == {"a1"}
