"""Retreats, rule 12 (our reading, section 1.10): loss groups, room, corps keeping one unit."""

from __future__ import annotations

from tests.engine.triumph.helpers import act, at, game, play, refusal_rule, strength, unit


def threatened(defence: list, commanders: dict | None = None):
    g = game([unit("f", "french", "I3", "R95"), *defence], commanders or {})
    play(g, act("french", "threat", from_=95, into=108))
    return g


def test_artillery_is_lost_and_blockers_of_other_approaches_pay_per_approach() -> None:
    # RB 12 (M): artillery eliminated; blockers of each other approach lose 1 (narrow) / 2 (wide).
    g = threatened([unit("i", "allied", "I2", "R108"), unit("a", "allied", "A1", "R108"),
                    unit("b1", "allied", "I2", "108>96"), unit("b2", "allied", "C2", "108>96"),
                    unit("c", "allied", "C3", "R108")])
    wrong = act("allied", "retreat", losses={"i": 1}, to={"i": 106, "b1": 106, "b2": 106,
                                                         "c": 106})
    assert refusal_rule(g, wrong) == "nt-retreat"  # the blockers on 108>96 owe one step
    play(g, act("allied", "retreat", losses={"i": 1, "b2": 1},
                to={"i": 106, "b1": 106, "b2": 106, "c": 106}))
    assert strength(g, "a") == 0 and strength(g, "b2") == 1 and strength(g, "c") == 3
    # morale: 1 (artillery) + 1 (reserve infantry) + 1 (blockers) = 3 steps, and 2 for the
    # first heavy cavalry (c, C3) to retreat (RB 15)
    assert g.state.morale["allied"] == 22


def test_units_with_nowhere_to_go_are_eliminated() -> None:
    # RB 12 (M): a unit that cannot retreat anywhere is eliminated (and costs its steps).
    others = [unit(f"e{n}", "french", "I2", f"R{n}") for n in (96, 106, 107, 109)]
    g = game([unit("f", "french", "I3", "R95"), *others, unit("i", "allied", "I2", "R108")])
    play(g, act("french", "threat", from_=95, into=108))
    play(g, act("allied", "retreat", losses={"i": 1}, to={}))
    assert at(g, "i") is None and g.state.morale["allied"] == 25


def test_a_unit_must_retreat_while_there_is_room() -> None:
    g = threatened([unit("c", "allied", "C2", "R108")])
    assert refusal_rule(g, act("allied", "retreat", losses={}, to={})) == "nt-retreat"


def test_retreat_into_a_full_locale_is_refused() -> None:
    # 107 Pratze holds 4 and has 4 Allied units already.
    full = [unit(f"x{n}", "allied", "I2", "R107") for n in range(4)]
    g = threatened([unit("c", "allied", "C2", "R108"), *full])
    assert refusal_rule(g, act("allied", "retreat", losses={}, to={"c": 107})) == "nt-retreat"


def test_a_retreating_corps_keeps_one_unit() -> None:
    # SEED (8): "Ein Korps, das sich zurückzieht, detachiert alle Regimenter bis auf 1."
    g = threatened([unit("c1", "allied", "C2", "R108", "Prebyshevsky"),
                    unit("c2", "allied", "C3", "R108", "Prebyshevsky")],
                   {"Prebyshevsky": "R108"})
    no_keep = act("allied", "retreat", losses={}, to={"c1": 96, "c2": 106})
    assert refusal_rule(g, no_keep) == "nt-retreat"
    play(g, act("allied", "retreat", losses={}, to={"c1": 96, "c2": 106},
                keep={"Prebyshevsky": "c2"}))
    assert str(g.state.commanders["Prebyshevsky"].at) == "R106"
    assert g.state.units["c1"].commander is None


def test_reserve_infantry_loses_two_steps_across_a_wide_approach() -> None:
    # RB 12 (M): the reserve infantry lose 1 step between them across a narrow defence
    # approach and 2 across a wide one (93|94 is wide).
    g = game([unit("f", "french", "I3", "R94"), unit("i1", "allied", "I2", "R93"),
              unit("i2", "allied", "I3", "R93")])
    play(g, act("french", "threat", from_=94, into=93))
    one = act("allied", "retreat", losses={"i1": 1}, to={"i1": 82, "i2": 82})
    assert refusal_rule(g, one) == "nt-retreat"
    play(g, act("allied", "retreat", losses={"i1": 1, "i2": 1}, to={"i1": 82, "i2": 82}))
    assert strength(g, "i1") == 1 and strength(g, "i2") == 2
    assert g.state.morale["allied"] == 25
