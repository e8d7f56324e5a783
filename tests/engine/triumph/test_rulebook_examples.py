"""The rulebook's attack examples as another team read them: data we did not write.

The positions and expected numbers below are facts taken from the public reconstruction in
justinkwaugh/tabletop (games/napoleons-triumph/src/model/attack.spec.ts at commit 06277736),
whose tests say they reproduce attack examples 3 and 4 of rule 11 of the Napoleon's Triumph
rulebook (2007). Only the facts were taken; the tests are ours.
"""

from __future__ import annotations

from tests.engine.triumph.helpers import act, at, game, play, strength, unit


def test_rule_11_example_3_artillery_against_artillery() -> None:
    # Art-1 on 95>108 against an Art-1 and an Inf-2 blocking 108>95, the Allied battery leading:
    # initial 1, the attacker wins, the defender loses one step, nobody moves.
    g = game([unit("F-art", "french", "A1", "95>108"), unit("A-art", "allied", "A1", "108>95"),
              unit("A-inf", "allied", "I2", "108>95")])
    play(g, act("french", "threat", from_=95, into=108), act("french", "press"),
         act("allied", "defence_leaders", units=["A-art"]),
         act("french", "attack", orders=[{"type": "unit_move", "unit": "F-art"}],
             leaders=["F-art"]),
         act("allied", "counter_attack", units=[]))
    assert g.state.combats[0]["initial"] == 1 and g.state.combats[0]["final"] == 1
    assert g.state.combats[0]["winner"] == "attacker"
    assert strength(g, "A-inf") == 1 and at(g, "A-art") == "108>95" and at(g, "F-art") == "95>108"
    assert g.state.morale == {"french": 23, "allied": 26}


def test_rule_11_example_4_infantry_repulsed_by_a_cavalry_counter_attack() -> None:
    # Inf-3 from the reserve of 95 against an Inf-1 leader and a Cav-3 blocking 108>95:
    # initial 3 - 1 - 1 = 1; the Cav-3 counter-attacks (becoming a Cav-2): final -1.
    g = game([unit("F-block", "french", "I2", "95>108"), unit("F-inf", "french", "I3", "R95"),
              unit("A-inf", "allied", "I1", "108>95"), unit("A-cav", "allied", "C3", "108>95")])
    play(g, act("french", "threat", from_=95, into=108), act("french", "press"),
         act("allied", "defence_leaders", units=["A-inf"]),
         act("french", "attack", orders=[{"type": "unit_move", "unit": "F-inf"}],
             leaders=["F-inf"]))
    assert g.state.attack is not None and g.state.attack.initial == 1
    play(g, act("allied", "counter_attack", units=["A-cav"]))
    assert g.state.combats[0]["final"] == -1 and g.state.combats[0]["winner"] == "defender"
    assert strength(g, "F-inf") == 1 and at(g, "F-inf") == "R95"
    assert strength(g, "A-inf") == 0 and strength(g, "A-cav") == 2
    # the loser pays 2; the Allies pay 2 for committing heavy cavalry (RB 15): the
    # reconstruction's Allied 25, reached by our elite rules independently
    assert g.state.morale == {"french": 21, "allied": 25}


def test_a_beaten_defender_is_thrown_out_and_the_attackers_storm_in() -> None:
    g = game([unit("F-inf", "french", "I3", "R95"), unit("A-inf", "allied", "I2", "R108"),
              unit("A-art", "allied", "A1", "R108")])
    play(g, act("french", "threat", from_=95, into=108), act("allied", "defend", units=["A-inf"]),
         act("french", "press"), act("allied", "defence_leaders", units=["A-inf"]),
         act("french", "attack", orders=[{"type": "unit_move", "unit": "F-inf"}],
             leaders=["F-inf"]))
    assert g.awaiting() == ("allied", "retreat")
    play(g, act("allied", "retreat", losses={}, to={}))
    assert at(g, "F-inf") == "R108" and strength(g, "F-inf") == 2
    assert at(g, "A-art") is None and at(g, "A-inf") is None
    assert g.state.morale["allied"] == 24 and g.state.turn.stormed == {108}
