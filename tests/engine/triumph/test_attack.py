"""The attack sequence, rule 11 (our reading, section 1.9), step by step with worked examples."""

from __future__ import annotations

from engine.triumph.actions import action_from_dict
from engine.triumph.game import TriumphGame
from tests.engine.triumph.helpers import act, at, game, play, refusal_rule, strength, unit

LANNES = {"Lannes": "R95"}
PREBYSHEVSKY = {"Prebyshevsky": "R108"}


def battle(defence: list | None = None, attack: list | None = None, **kwargs) -> TriumphGame:
    """Lannes (Inf-3, Inf-2, Cav-2) in 95 against Prebyshevsky (Inf-2, Inf-2, Cav-2) in 108."""
    attackers = attack if attack is not None else [
        unit("l1", "french", "I3", "R95", "Lannes"), unit("l2", "french", "I2", "R95", "Lannes"),
        unit("l3", "french", "C2", "R95", "Lannes")]
    defenders = defence if defence is not None else [
        unit("p1", "allied", "I2", "R108", "Prebyshevsky"),
        unit("p2", "allied", "I2", "R108", "Prebyshevsky"),
        unit("p3", "allied", "C2", "R108", "Prebyshevsky")]
    used = {u.get("commander") for u in attackers + defenders}
    commanders = {n: where for n, where in {**LANNES, **PREBYSHEVSKY}.items() if n in used}
    return game(attackers + defenders, commanders, **kwargs)


LANNES_ALL = [{"type": "corps_move", "commander": "Lannes", "units": ["l1", "l2", "l3"]}]


def test_a_won_attack_from_threat_to_storming() -> None:
    # RB 11 steps 1-11 with the numbers of section 1.9: initial 3 - 2 = 1, attacker wins.
    g = battle()
    play(g, act("french", "threat", from_=95, into=108))
    assert g.awaiting() == ("allied", "response")
    play(g, act("allied", "defend", units=["p1", "p2"]))
    assert g.awaiting() == ("french", "feint_or_press")
    play(g, act("french", "press"))
    play(g, act("allied", "defence_leaders", units=["p1"]))
    play(g, act("french", "attack", orders=LANNES_ALL, leaders=["l1"]))
    assert g.state.attack is not None and g.state.attack.initial == 1
    assert g.awaiting() == ("allied", "counter_attack")
    play(g, act("allied", "counter_attack", units=[]))
    # step 10: attacker 1 point (one defence leader), defender 1 + 1 = 2 points
    assert g.state.combats == [{"initial": 1, "final": 1, "winner": "attacker",
                                "losses": {"attacker": 1, "defender": 2}}]
    assert strength(g, "l1") == 2 and strength(g, "p1") == 0
    assert g.awaiting() == ("allied", "retreat")
    # p2 was named: it loses nothing more; cavalry in the reserve gallops away (SEED (8))
    play(g, act("allied", "retreat", losses={}, to={"p2": 96, "p3": 106},
                keep={"Prebyshevsky": "p2"}))
    assert at(g, "p2") == "R96" and at(g, "p3") == "R106"
    assert g.state.units["p3"].commander is None
    assert str(g.state.commanders["Prebyshevsky"].at) == "R96"
    assert {at(g, u) for u in ("l1", "l2", "l3")} == {"R108"}
    assert str(g.state.commanders["Lannes"].at) == "R108"
    assert 108 in g.state.turn.stormed
    assert g.state.morale["allied"] == 25  # the loser pays its 2 lost steps
    assert g.state.morale["french"] == 23 and g.state.attack is None


def test_blockers_must_defend() -> None:
    # DOC / RB 11.2: pieces blocking the defence approach defend; no retreat is possible.
    g = battle(defence=[unit("b", "allied", "I2", "108>95"),
                        unit("p1", "allied", "I2", "R108", "Prebyshevsky")])
    play(g, act("french", "threat", from_=95, into=108))
    assert g.awaiting() == ("french", "feint_or_press")
    assert g.state.attack is not None and g.state.attack.defenders == ["b"]


def test_infantry_against_blockers_pays_the_penalty() -> None:
    # RB 11.6: Inf-3 against a blocking Inf-2 leader: 3 - 1 - 2 = 0; a tie goes to blockers.
    g = battle(defence=[unit("b", "allied", "I2", "108>95")])
    play(g, act("french", "threat", from_=95, into=108), act("french", "press"),
         act("allied", "defence_leaders", units=["b"]),
         act("french", "attack", orders=LANNES_ALL, leaders=["l1"]))
    assert g.state.combats[0]["initial"] == 0 and g.state.combats[0]["winner"] == "defender"


def test_defence_needs_reserve_units_and_at_most_one_detached() -> None:
    # DOC: defenders come from the reserve, with at most one detached unit among them.
    g = battle(defence=[unit("d1", "allied", "I2", "R108"), unit("d2", "allied", "I2", "R108")])
    play(g, act("french", "threat", from_=95, into=108))
    assert refusal_rule(g, act("allied", "defend", units=["d1", "d2"])) == "nt-attack"
    assert refusal_rule(g, act("allied", "defend", units=[])) == "nt-attack"
    assert refusal_rule(g, act("allied", "press")) == "nt-turn"


def test_retreat_before_combat_then_occupation() -> None:
    # RB 12 / SEED (5), (8): retreating costs reserve infantry 1 step across a narrow approach.
    g = battle()
    play(g, act("french", "threat", from_=95, into=108))
    assert refusal_rule(g, act("allied", "retreat", losses={}, to={"p1": 96, "p2": 96, "p3": 96},
                               keep={"Prebyshevsky": "p1"})) == "nt-retreat"
    play(g, act("allied", "retreat", losses={"p1": 1}, to={"p1": 96, "p2": 96, "p3": 96},
                keep={"Prebyshevsky": "p2"}))
    assert strength(g, "p1") == 1 and g.state.morale["allied"] == 26
    assert g.awaiting() == ("french", "occupy")
    play(g, act("french", "occupy", orders=[{"type": "unit_move", "unit": "l3"}]))
    assert at(g, "l3") == "R108" and g.state.attack is None
    assert refusal_rule(g, act("french", "unit_move", unit="l2", to="R108")) == "nt-movement"


def test_retreat_cannot_go_into_the_attack_locale_or_enemy_locales() -> None:
    g = battle()
    play(g, act("french", "threat", from_=95, into=108))
    bad = act("allied", "retreat", losses={"p1": 1}, to={"p1": 95, "p2": 96, "p3": 96},
              keep={"Prebyshevsky": "p2"})
    assert refusal_rule(g, bad) == "nt-retreat"


def test_feint_closes_the_approach_and_the_defence_advances() -> None:
    # SEED (5) / DOC: a feint spends commands; defenders from the reserve advance to block.
    g = battle()
    play(g, act("french", "threat", from_=95, into=108), act("allied", "defend", units=["p1"]))
    play(g, act("french", "feint", orders=[{"type": "unit_move", "unit": "l3"}],
                end="approach"))
    assert at(g, "l3") == "95>108"
    assert g.awaiting() == ("allied", "advance")
    assert refusal_rule(g, act("allied", "advance", units=[])) == "nt-attack"
    play(g, act("allied", "advance", units=["p1"]))
    assert at(g, "p1") == "108>95" and g.state.units["p1"].commander is None
    assert g.state.morale == {"french": 23, "allied": 27}
    assert refusal_rule(g, act("french", "threat", from_=95, into=108)) == "nt-attack"


def test_defence_leader_rules() -> None:
    # RB 11.4 (M): narrow border -> one leader; strength 1 cannot lead from the reserve.
    g = battle(defence=[unit("p1", "allied", "I2", "R108", "Prebyshevsky"),
                        unit("p2", "allied", "I1", "R108", "Prebyshevsky")])
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2"]), act("french", "press"))
    assert refusal_rule(g, act("allied", "defence_leaders", units=["p1", "p2"])) == "nt-leaders"
    assert refusal_rule(g, act("allied", "defence_leaders", units=["p2"])) == "nt-leaders"
    assert refusal_rule(g, act("allied", "defence_leaders", units=["l1"])) == "nt-leaders"
    assert g.check(act("allied", "defence_leaders", units=[])) is None


def test_cavalry_cannot_lead_into_an_obstructed_approach() -> None:
    # RB 11.4-11.5 (M): 107 Pratze's side of 95|107 is AO (obstructed).
    g = game([unit("c", "french", "C3", "R95"), unit("i", "french", "I3", "R95"),
              unit("a", "allied", "C2", "107>95")])
    play(g, act("french", "threat", from_=95, into=107), act("french", "press"))
    assert refusal_rule(g, act("allied", "defence_leaders", units=["a"])) == "nt-leaders"
    play(g, act("allied", "defence_leaders", units=[]))
    cavalry = act("french", "attack", orders=[{"type": "unit_move", "unit": "c"}],
                  leaders=["c"])
    assert refusal_rule(g, cavalry) == "nt-leaders"


def test_attack_declaration_rules() -> None:
    # RB 11.5 (M): wide only across wide borders; strength 1 leads only if artillery;
    # artillery leads only from the approach; attackers must fit the defence locale.
    g = battle(attack=[unit("w", "french", "I1", "R95"), unit("x", "french", "A1", "R95"),
                       unit("y", "french", "I2", "R95")])
    play(g, act("french", "threat", from_=95, into=108), act("allied", "defend", units=["p1"]),
         act("french", "press"), act("allied", "defence_leaders", units=[]))
    order = [{"type": "unit_move", "unit": "y"}]
    assert refusal_rule(g, act("french", "attack", orders=order, wide=True)) == "nt-attack"
    weak = [{"type": "unit_move", "unit": "w"}]
    assert refusal_rule(g, act("french", "attack", orders=weak, leaders=["w"])) == "nt-leaders"
    gun = [{"type": "unit_move", "unit": "x"}]
    assert refusal_rule(g, act("french", "attack", orders=gun, leaders=["x"])) == "nt-leaders"
    assert refusal_rule(g, act("french", "attack", orders=order, leaders=["w"])) == "nt-leaders"


def test_attackers_must_fit_the_defence_locale() -> None:
    # 107 Pratze holds 4: five attackers do not fit.
    units = [unit(f"f{n}", "french", "I2", "R95") for n in range(3)]
    units += [unit(f"g{n}", "french", "I2", "R95", "Lannes") for n in range(5)]
    units.append(unit("a", "allied", "I2", "R107"))
    g = game(units, {"Lannes": "R95"})
    play(g, act("french", "threat", from_=95, into=107), act("allied", "defend", units=["a"]),
         act("french", "press"), act("allied", "defence_leaders", units=[]))
    five = [{"type": "corps_move", "commander": "Lannes", "units": [f"g{n}" for n in range(5)]}]
    assert refusal_rule(g, act("french", "attack", orders=five)) == "nt-capacity"


def test_infantry_counter_attacks_only_when_the_attacker_is_winning() -> None:
    # SEED (6); RB 11.7 (M): cavalry may counter-attack; infantry only if the attacker wins.
    g = battle()
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2", "p3"]), act("french", "press"),
         act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=LANNES_ALL, leaders=[]))
    assert g.state.attack is not None and g.state.attack.initial == -2
    assert refusal_rule(g, act("allied", "counter_attack", units=["p2"])) == "nt-counter-attack"
    assert refusal_rule(g, act("allied", "counter_attack", units=["p2", "p3"])) == \
        "nt-counter-attack"
    play(g, act("allied", "counter_attack", units=["p3"]))
    # step 7: the counter-attacker loses a step at once; step 8: final = -2 - (2 - 1) = -3
    assert strength(g, "p3") == 1
    assert g.state.combats[0]["final"] == -3
    # step 10: attacker 1 + 3 = 4 points, no leader: all on the others as the attacker chooses
    assert g.state.combats[0]["losses"] == {"attacker": 4, "defender": 0}
    assert g.awaiting() == ("french", "assign_losses")
    assert refusal_rule(g, act("french", "assign_losses", allocation={"l1": 3})) == "nt-attack"
    play(g, act("french", "assign_losses", allocation={"l1": 2, "l3": 2}))
    assert strength(g, "l1") == 1 and strength(g, "l3") == 0 and strength(g, "l2") == 2
    # a repulse: Lannes keeps one unit of its choice, the rest detach
    assert g.awaiting() == ("french", "regroup")
    play(g, act("french", "regroup", keep={"Lannes": "l2"}))
    assert g.state.units["l1"].commander is None and g.state.units["l2"].commander == "Lannes"
    assert (95, 108) in g.state.turn.closed
    assert g.awaiting() == ("allied", "advance")
    play(g, act("allied", "advance", units=["p1", "p2", "p3"], commanders=["Prebyshevsky"]))
    assert str(g.state.commanders["Prebyshevsky"].at) == "108>95"
    # the loser pays 2 + 2 steps; the winner's counter-attack step costs nothing
    assert g.state.morale == {"french": 19, "allied": 27}


def test_artillery_led_attack() -> None:
    # SEED (7): the attacker loses nothing; RB 11.7/11.11 (M): no counter-attack, nobody moves.
    g = battle(attack=[unit("x", "french", "A1", "95>108"), unit("y", "french", "I2", "95>108")],
               defence=[unit("b", "allied", "I3", "108>95"), unit("c", "allied", "C2", "108>95")])
    play(g, act("french", "threat", from_=95, into=108), act("french", "press"),
         act("allied", "defence_leaders", units=["b"]),
         act("french", "attack", orders=[{"type": "unit_move", "unit": "x"}], leaders=["x"]))
    assert g.state.attack is not None and g.state.attack.initial == 1
    assert refusal_rule(g, act("allied", "counter_attack", units=["c"])) == "nt-counter-attack"
    play(g, act("allied", "counter_attack", units=[]))
    assert g.state.combats[0] == {"initial": 1, "final": 1, "winner": "attacker",
                                  "losses": {"attacker": 0, "defender": 1}}
    assert strength(g, "x") == 1 and strength(g, "b") == 2
    assert at(g, "b") == "108>95" and at(g, "x") == "95>108"
    assert g.state.morale["allied"] == 26 and g.state.attack is None


def wide_attack_of_lannes_on_93() -> TriumphGame:
    """Lannes' Inf-3 and Inf-2 attack R93 wide against Kollowrath's two Inf-3, both defending
    and leading: the game waits for the losses."""
    g = game([unit("l1", "french", "I3", "R94", "Lannes"),
              unit("l2", "french", "I2", "R94", "Lannes"),
              unit("k1", "allied", "I3", "R93", "Kollowrath"),
              unit("k2", "allied", "I3", "R93", "Kollowrath")],
             {"Lannes": "R94", "Kollowrath": "R93"})
    play(g, act("french", "threat", from_=94, into=93),
         act("allied", "defend", units=["k1", "k2"]), act("french", "press"),
         act("allied", "defence_leaders", units=["k1", "k2"]),
         act("french", "attack", wide=True, leaders=["l1", "l2"],
             orders=[{"type": "corps_move", "commander": "Lannes", "units": ["l1", "l2"]}]))
    return g


def test_wide_attack_odd_loss_chosen_by_the_other_side() -> None:
    # RB 11.10 (M): 3 points on Inf-3 + Inf-2 attack leaders; the defender picks the odd one.
    g = wide_attack_of_lannes_on_93()
    # initial 5 - 6 = -1: attacker 2 + 1 = 3 points, defender 2 points
    assert g.state.combats[0]["losses"] == {"attacker": 3, "defender": 2}
    assert g.awaiting() == ("allied", "odd_loss")
    play(g, act("allied", "odd_loss", unit="l2"))
    assert strength(g, "l1") == 2 and strength(g, "l2") == 0
    assert strength(g, "k1") == 2 and strength(g, "k2") == 2


def test_narrow_attack_engages_one_of_two_defence_leaders() -> None:
    # RB 11.5 (M): across a wide border, a narrow attack names the leader it engages.
    g = game([unit("l1", "french", "I3", "R94"),
              unit("k1", "allied", "I3", "R93", "Kollowrath"),
              unit("k2", "allied", "I2", "R93", "Kollowrath")], {"Kollowrath": "R93"})
    play(g, act("french", "threat", from_=94, into=93),
         act("allied", "defend", units=["k1", "k2"]), act("french", "press"),
         act("allied", "defence_leaders", units=["k1", "k2"]))
    orders = [{"type": "unit_move", "unit": "l1"}]
    assert refusal_rule(g, act("french", "attack", orders=orders, leaders=["l1"])) == \
        "nt-leaders"
    play(g, act("french", "attack", orders=orders, leaders=["l1"], engage="k2"))
    # 3 - 2 = 1; k1 stays a defending piece (already revealed) and may counter-attack
    assert g.state.attack is not None and g.state.attack.initial == 1
    assert g.state.attack.defence_leaders == ["k2"]
    assert g.awaiting() == ("allied", "counter_attack")


def test_demoralisation_ends_the_game_at_once() -> None:
    # RB 13 (H): an army at 0 morale is demoralised; the other side wins at once: as soon as
    # the losses of the attack it lost are taken, before any retreat.
    g = battle(morale={"french": 23, "allied": 2})
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2"]), act("french", "press"),
         act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=LANNES_ALL, leaders=["l1"]),
         act("allied", "counter_attack", units=[]))
    assert g.result is not None and g.state.attack is None
    assert (g.result["winner"], g.result["reason"]) == ("french", "demoralised")
    assert g.state.morale["allied"] == 0
    assert refusal_rule(g, act("allied", "end_turn")) == "nt-turn"
    assert refusal_rule(g, act("allied", "retreat", losses={}, to={"p2": 96, "p3": 106},
                               keep={"Prebyshevsky": "p2"})) == "nt-turn"


def test_no_end_of_turn_during_an_attack() -> None:
    g = battle()
    play(g, act("french", "threat", from_=95, into=108))
    assert refusal_rule(g, act("french", "end_turn")) == "nt-turn"
    assert refusal_rule(g, act("french", "press")) == "nt-turn"


def test_threat_rules() -> None:
    # RB 11.1 (M): only into an enemy locale across a passable border, not a closed approach.
    g = battle()
    assert refusal_rule(g, act("french", "threat", from_=95, into=83)) == "nt-attack"
    assert refusal_rule(g, act("french", "threat", from_=95, into=96)) == "nt-attack"
    assert refusal_rule(g, act("allied", "threat", from_=108, into=95)) == "nt-turn"


def test_two_artillery_unit_moves_combine_only_when_both_lead() -> None:
    # RB 9 erratum (M): two batteries attack together only as the two leaders (wide attack).
    g = game([unit("x1", "french", "A1", "94>93"), unit("x2", "french", "A1", "94>93"),
              unit("k", "allied", "I2", "93>94")])
    play(g, act("french", "threat", from_=94, into=93), act("french", "press"),
         act("allied", "defence_leaders", units=[]))
    both = [{"type": "unit_move", "unit": "x1"}, {"type": "unit_move", "unit": "x2"}]
    assert refusal_rule(g, act("french", "attack", orders=both, wide=True,
                               leaders=["x1"])) == "nt-commands"
    play(g, act("french", "attack", orders=both, wide=True, leaders=["x1", "x2"]),
         act("allied", "counter_attack", units=[]))
    # 1 + 1 = 2 (artillery ignores the defence leaders): the defender loses 2 points
    assert g.state.combats[0]["losses"] == {"attacker": 0, "defender": 2}
    assert strength(g, "k") == 0 and strength(g, "x1") == 1


def test_a_step_lost_is_a_block_replaced_by_one_a_strength_lower() -> None:
    # SEED (7): "durch Regimenter mit entsprechend verringerter Stärke ersetzt (bzw. eliminiert)".
    g = battle()
    events = play(g, act("french", "threat", from_=95, into=108),
                  act("allied", "defend", units=["p1", "p2"]), act("french", "press"),
                  act("allied", "defence_leaders", units=["p1"]),
                  act("french", "attack", orders=LANNES_ALL, leaders=["l1"]),
                  act("allied", "counter_attack", units=[]))
    replaced = [(e["unit"], e["before"], e["after"]) for e in events if e["type"] == "replace"]
    eliminated = [e["unit"] for e in events if e["type"] == "eliminate"]
    assert replaced == [("l1", "Inf-3", "Inf-2"), ("p1", "Inf-2", "Inf-1")]
    assert eliminated == ["p1"]


def test_options_name_the_decision_and_only_legal_answers() -> None:
    g = battle()
    play(g, act("french", "threat", from_=95, into=108))
    options = g.options()
    assert (options["side"], options["decision"]) == ("allied", "response")
    kinds = {o["type"] for o in options["options"]}
    assert kinds == {"defend", "retreat"}
    assert all(g.check(action_from_dict(o)) is None for o in options["options"])


def test_a_blocked_defence_written_as_the_defenders_answer_changes_nothing() -> None:
    # 3.5 (settled): blockers defend without being asked; records written elsewhere may still
    # carry the defender's answer right after the threat. Naming exactly the blockers is a no-op.
    g = battle(defence=[unit("b", "allied", "I2", "108>95"),
                        unit("p1", "allied", "I2", "R108", "Prebyshevsky")])
    play(g, act("french", "threat", from_=95, into=108))
    before = g.state.copy()
    assert play(g, act("allied", "defend", units=["b"])) == []
    assert g.state == before and g.awaiting() == ("french", "feint_or_press")
    play(g, act("french", "press"))
    assert g.awaiting() == ("allied", "defence_leaders")
    # taken back, the answer leaves the attack as the threat left it
    g.pop(), g.pop()
    assert g.state == before


def test_a_retreat_or_another_defence_against_blockers_is_refused_by_the_defence_rule() -> None:
    # 3.5: a retreat (nt-retreat) or a defence naming other units (nt-defend): blockers must
    # defend, and nothing else; not an out-of-turn action (nt-turn)
    g = battle(defence=[unit("b", "allied", "I2", "108>95"),
                        unit("p1", "allied", "I2", "R108", "Prebyshevsky")])
    play(g, act("french", "threat", from_=95, into=108))
    retreat = act("allied", "retreat", losses={"b": 1, "p1": 1}, to={"b": 96, "p1": 96},
                  keep={"Prebyshevsky": "p1"})
    assert refusal_rule(g, retreat) == "nt-retreat"
    assert refusal_rule(g, act("allied", "defend", units=["p1"])) == "nt-defend"
    assert refusal_rule(g, act("allied", "defend", units=["b", "p1"])) == "nt-defend"
    # once the attacker has decided, an answer is out of turn like any other
    play(g, act("allied", "defend", units=["b"]), act("french", "press"))
    assert refusal_rule(g, act("allied", "defend", units=["b"])) == "nt-turn"


def test_an_attacker_eliminated_in_its_own_failed_attack_costs_its_army_morale() -> None:
    # 1.11 (issue 22): Inf-2 against an Inf-3 defence leader: initial -1, 2 points on the Inf-2,
    # which is eliminated: the French lose 2 morale at once, before the defence advances
    g = battle(attack=[unit("f1", "french", "I2", "R95")],
               defence=[unit("a1", "allied", "I3", "R108"), unit("a2", "allied", "I3", "R108")])
    play(g, act("french", "threat", from_=95, into=108), act("allied", "defend", units=["a1"]),
         act("french", "press"), act("allied", "defence_leaders", units=["a1"]),
         act("french", "attack", orders=[{"type": "unit_move", "unit": "f1"}], leaders=["f1"]))
    assert strength(g, "f1") == 0 and g.state.units["f1"].eliminated
    assert g.state.morale == {"french": 21, "allied": 27}
    assert g.awaiting() == ("allied", "advance")
    play(g, act("allied", "advance", units=["a1"]))
    assert g.state.morale == {"french": 21, "allied": 27} and g.state.attack is None


def test_the_beaten_defender_pays_combat_counter_attack_and_retreat_steps() -> None:
    # 1.11 on every path of one attack: p2's counter-attack step and p1's combat step are paid
    # when the losses are taken (27 -> 25), p4's retreat step when it retreats (25 -> 24)
    g = battle(defence=[unit("p1", "allied", "I2", "R108", "Prebyshevsky"),
                        unit("p2", "allied", "I2", "R108", "Prebyshevsky"),
                        unit("p3", "allied", "C2", "R108", "Prebyshevsky"),
                        unit("p4", "allied", "I2", "R108", "Prebyshevsky")])
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2", "p3"]), act("french", "press"),
         act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=LANNES_ALL, leaders=["l1"]))
    # initial 3 - 2 = 1: the attacker is winning, so infantry may counter-attack
    play(g, act("allied", "counter_attack", units=["p2"]))
    # final 1 - (2 - 1) = 0; three units on each side: the tie goes to the French
    assert g.state.combats[-1]["winner"] == "attacker"
    assert strength(g, "p1") == 1 and strength(g, "p2") == 1
    assert g.state.morale["allied"] == 25 and g.awaiting() == ("allied", "retreat")
    play(g, act("allied", "retreat", losses={"p4": 1}, to={"p1": 96, "p2": 96, "p3": 96, "p4": 96},
                keep={"Prebyshevsky": "p3"}))
    assert g.state.morale == {"french": 23, "allied": 24}
