"""Elite units, rule 15 (our reading 1.13): commitment costs and Guard Attacks."""

from __future__ import annotations

from engine.triumph.elite import commit
from tests.engine.triumph.helpers import act, game, play, refusal_rule, unit
from tests.engine.triumph.test_attack import battle

GUARD_CORPS = [unit("g1", "french", "G3", "R95", "Lannes"),
               unit("l2", "french", "I2", "R95", "Lannes"),
               unit("l3", "french", "C2", "R95", "Lannes")]
ALL = [{"type": "corps_move", "commander": "Lannes", "units": ["g1", "l2", "l3"]}]


def morale_changes(events: list[dict]) -> list[int]:
    return [e["after"] - e["before"] for e in events if e["type"] == "morale"]


def test_first_commitment_costs_2_for_heavy_cavalry_and_4_for_the_guard_once_each() -> None:
    g = game([unit("c1", "french", "C3", "R95"), unit("c2", "french", "C3", "R94"),
              unit("g", "french", "G3", "R83"), unit("a", "allied", "C3", "R108")])
    commit(g, ["c1"], "leader")
    assert g.state.morale == {"french": 21, "allied": 27}
    commit(g, ["c2"], "leader")  # the army has already committed its heavy cavalry
    commit(g, ["g"], "counter-attack")
    assert g.state.morale == {"french": 17, "allied": 27}
    commit(g, ["a"], "retreat")  # each army pays for its own
    assert g.state.morale["allied"] == 25


def test_commitment_costs_never_take_morale_below_1() -> None:
    g = game([unit("g", "french", "G3", "R95")], morale={"french": 3, "allied": 27})
    commit(g, ["g"], "loss")
    assert g.state.morale["french"] == 1 and g.result is None


def test_a_guard_attack_weakens_small_defence_leaders() -> None:
    # 1.13: announced at the threat with a Guard unit (revealed, not yet committed); Guard
    # leaders only; a defence leader below 3 counts one less: 3 - (2 - 1) = 2
    g = battle(attack=GUARD_CORPS)
    events = play(g, act("french", "threat", from_=95, into=108, guard="g1"))
    assert [e["units"][0]["unit"] for e in events if e["type"] == "reveal"] == ["g1"]
    assert g.state.morale["french"] == 23
    play(g, act("allied", "defend", units=["p1", "p2"]))
    assert refusal_rule(g, act("french", "feint", orders=ALL, end="approach")) == "nt-guard"
    play(g, act("french", "press"), act("allied", "defence_leaders", units=["p1"]))
    assert refusal_rule(g, act("french", "attack", orders=ALL, leaders=["l2"])) == "nt-guard"
    assert refusal_rule(g, act("french", "attack", orders=ALL, leaders=[])) == "nt-guard"
    events = play(g, act("french", "attack", orders=ALL, leaders=["g1"]))
    assert g.state.attack is not None and g.state.attack.initial == 2
    assert morale_changes(events) == [-4]  # the Guard leads: committed


def test_a_failed_guard_attack_costs_3_more_and_bars_further_guard_attacks() -> None:
    g = battle(attack=GUARD_CORPS, defence=[
        unit("p1", "allied", "I3", "R108", "Prebyshevsky"),
        unit("p2", "allied", "I3", "R108", "Prebyshevsky"),
        unit("p3", "allied", "C2", "R108", "Prebyshevsky")])
    play(g, act("french", "threat", from_=95, into=108, guard="g1"),
         act("allied", "defend", units=["p1", "p2", "p3"]), act("french", "press"),
         act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=ALL, leaders=["g1"]))
    # 3 - 3 = 0; the cavalry counter-attack makes it -1: the defender wins
    events = play(g, act("allied", "counter_attack", units=["p3"]))
    while g.awaiting() is not None and g.state.attack is not None:
        options = g.legal_actions()
        events += play(g, options[0])
    assert g.state.combats[0]["winner"] == "defender"
    assert any(e["type"] == "guard-attack-failed" for e in events)
    assert morale_changes(events)[-1] == -3
    assert "french" in g.state.guard_attacks_barred
    play(g, act("french", "end_turn"), act("allied", "end_turn"))
    refusal = g.check(act("french", "threat", from_=95, into=108, guard="g1"))
    assert refusal is not None and "may declare no more" in refusal.message


def artillery_duel(attack_locale: int, defence_locale: int, fixed: bool = False):
    a, d = attack_locale, defence_locale
    g = game([unit("x", "french", "A1", f"{a}>{d}"), unit("y", "french", "I2", f"{a}>{d}"),
              unit("b", "allied", "I3", f"{d}>{a}"), unit("c", "allied", "C2", f"{d}>{a}")])
    if fixed:
        g.state.fixed_battery = "x"
    return g


def fire(g, a: int, d: int, leaders: tuple[str, ...] = ("x",), unit_id: str = "x"):
    play(g, act("french", "threat", from_=a, into=d), act("french", "press"),
         act("allied", "defence_leaders", units=["b"]))
    return act("french", "attack", orders=[{"type": "unit_move", "unit": unit_id}],
               leaders=list(leaders))


def test_artillery_may_not_lead_across_one_approach_in_consecutive_rounds() -> None:
    # RB 11 step 5 as the reconstruction reads it (M): 95 and 108 are not hills
    g = artillery_duel(95, 108)
    play(g, fire(g, 95, 108), act("allied", "counter_attack", units=[]),
         act("french", "end_turn"), act("allied", "end_turn"))
    assert refusal_rule(g, fire(g, 95, 108)) == "nt-artillery"
    g.pop(), g.pop(), g.pop()  # back to the start of the French turn of round 8
    play(g, act("french", "end_turn"), act("allied", "end_turn"))
    assert refusal_rule(g, fire(g, 95, 108)) is None  # round 9: two rounds later


def test_artillery_firing_down_from_a_hill_may_repeat() -> None:
    # 24 is a hill, 38 is not
    g = artillery_duel(24, 38)
    play(g, fire(g, 24, 38), act("allied", "counter_attack", units=[]),
         act("french", "end_turn"), act("allied", "end_turn"))
    assert refusal_rule(g, fire(g, 24, 38)) is None


def test_the_fixed_battery_attacks_only_by_leading_with_its_fire() -> None:
    g = artillery_duel(95, 108, fixed=True)
    attack = fire(g, 95, 108, leaders=())
    assert refusal_rule(g, attack) == "nt-fixed-battery"


def test_legal_actions_inside_such_attacks_all_pass_check() -> None:
    # the listing offers line leaders and feints; in a Guard Attack none of them is legal
    g = battle(attack=GUARD_CORPS)
    play(g, act("french", "threat", from_=95, into=108, guard="g1"),
         act("allied", "defend", units=["p1", "p2"]))
    options = g.legal_actions()
    assert options and all(g.check(a) is None for a in options)
    assert all(a.type != "feint" for a in options)
    play(g, act("french", "press"), act("allied", "defence_leaders", units=["p1"]))
    options = g.legal_actions()
    assert options and all(g.check(a) is None for a in options)
