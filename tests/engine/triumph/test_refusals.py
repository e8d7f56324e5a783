"""The remaining refusals of the attack sequence, each with the rule it names (section 1.9)."""

from __future__ import annotations

from tests.engine.triumph.helpers import act, game, play, refusal_rule, unit
from tests.engine.triumph.test_attack import LANNES_ALL, battle, wide_attack_of_lannes_on_93


def pressed(defenders: list[str], **kwargs):
    g = battle(**kwargs)
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=defenders), act("french", "press"))
    return g


def test_a_guard_attack_is_announced_with_a_guard_unit() -> None:
    # RB 15: Guard Attacks are announced at the threat by a Guard unit (l1 is line infantry).
    g = battle()
    assert refusal_rule(g, act("french", "threat", from_=95, into=108, guard="l1")) == \
        "nt-guard"


def test_a_unit_defends_one_approach_a_turn() -> None:
    # DOC: no unit that defended against an attack across another approach this turn.
    g = battle(attack=[unit("l1", "french", "I3", "R95"), unit("m", "french", "I3", "R96")])
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2"]),
         act("french", "feint", orders=[{"type": "unit_move", "unit": "l1"}], end="reserve"),
         act("allied", "advance", units=["p2"]))
    play(g, act("french", "threat", from_=96, into=108))
    assert refusal_rule(g, act("allied", "defend", units=["p1"])) == "nt-attack"
    assert refusal_rule(g, act("allied", "defend", units=["p3"])) is None


def test_units_that_retreated_after_combat_do_not_defend_again() -> None:
    # DOC: units that retreated after combat may not defend again this turn.
    g = battle(attack=[*[unit(f"l{n}", "french", "I3", "R95", "Lannes") for n in (1, 2, 3)],
                       unit("m", "french", "I3", "R84")])
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2"]), act("french", "press"),
         act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=LANNES_ALL, leaders=["l1"]),
         act("allied", "counter_attack", units=[]),
         act("allied", "retreat", losses={}, to={"p2": 96, "p3": 96},
             keep={"Prebyshevsky": "p2"}))
    play(g, act("french", "threat", from_=84, into=96))
    assert refusal_rule(g, act("allied", "defend", units=["p2"])) == "nt-attack"


def test_two_defence_leaders_share_type_and_corps() -> None:
    # RB 11.4 (M): across a wide border two leaders of one type; from the reserve, one corps.
    g = game([unit("l", "french", "I3", "R94"),
              unit("k1", "allied", "I3", "R93", "Kollowrath"),
              unit("k2", "allied", "C3", "R93", "Kollowrath"), unit("d", "allied", "I3", "R93")],
             {"Kollowrath": "R93"})
    play(g, act("french", "threat", from_=94, into=93),
         act("allied", "defend", units=["k1", "k2", "d"]), act("french", "press"))
    assert refusal_rule(g, act("allied", "defence_leaders", units=["k1", "k2"])) == "nt-leaders"
    assert refusal_rule(g, act("allied", "defence_leaders", units=["k1", "d"])) == "nt-leaders"


def test_guard_leads_only_beside_guard_and_engage_only_when_needed() -> None:
    g = game([unit("g", "french", "G3", "R94", "Lannes"), unit("i", "french", "I3", "R94",
                                                               "Lannes"),
              unit("k", "allied", "I2", "R93")], {"Lannes": "R94"})
    play(g, act("french", "threat", from_=94, into=93), act("allied", "defend", units=["k"]),
         act("french", "press"), act("allied", "defence_leaders", units=["k"]))
    orders = [{"type": "corps_move", "commander": "Lannes", "units": ["g", "i"]}]
    assert refusal_rule(g, act("french", "attack", orders=orders, wide=True,
                               leaders=["g", "i"])) == "nt-leaders"
    assert refusal_rule(g, act("french", "attack", orders=orders, leaders=["i"],
                               engage="k")) == "nt-leaders"


def test_attack_commands_start_from_one_position() -> None:
    # 1.7 (L): combined commands start from the same position.
    g = battle(attack=[unit("a", "french", "I3", "R95"), unit("b", "french", "I3", "95>108")])
    play(g, act("french", "threat", from_=95, into=108), act("allied", "defend", units=["p1"]),
         act("french", "press"), act("allied", "defence_leaders", units=[]))
    both = [{"type": "unit_move", "unit": "a"}, {"type": "unit_move", "unit": "b"}]
    assert refusal_rule(g, act("french", "attack", orders=both)) == "nt-attack"
    detach = [{"type": "detach_move", "commander": "Lannes", "units": ["a"]}]
    assert refusal_rule(g, act("french", "attack", orders=detach)) == "nt-attack"


def test_counter_attack_pairs_and_artillery() -> None:
    # RB 11.7 (M): artillery never counter-attacks; two counter-attackers share type and corps.
    g = pressed(["p1", "p2", "p3", "p4", "d"], defence=[
        unit("p1", "allied", "I2", "R108", "Prebyshevsky"),
        unit("p2", "allied", "C2", "R108", "Prebyshevsky"),
        unit("p3", "allied", "A1", "R108", "Prebyshevsky"),
        unit("p4", "allied", "I2", "R108", "Prebyshevsky"),
        unit("d", "allied", "C3", "R108")])
    play(g, act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=LANNES_ALL, leaders=["l1"]))
    assert refusal_rule(g, act("allied", "counter_attack", units=["p3"])) == "nt-counter-attack"
    assert refusal_rule(g, act("allied", "counter_attack", units=["p2", "p4"])) == \
        "nt-counter-attack"
    assert refusal_rule(g, act("allied", "counter_attack", units=["p2", "d"])) == \
        "nt-counter-attack"
    assert refusal_rule(g, act("allied", "counter_attack", units=["p1"])) == "nt-counter-attack"


def test_losses_and_choices_name_the_right_pieces() -> None:
    g = wide_attack_of_lannes_on_93()
    assert refusal_rule(g, act("allied", "odd_loss", unit="k1")) == "nt-attack"
    assert refusal_rule(g, act("french", "odd_loss", unit="l1")) == "nt-turn"


def test_advance_and_regroup_refusals() -> None:
    g2 = battle()
    play(g2, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2"]))
    assert refusal_rule(g2, act("french", "feint", orders=LANNES_ALL, end="sideways")) == \
        "nt-attack"
    play(g2, act("french", "feint", orders=LANNES_ALL, end="reserve"))
    # Prebyshevsky advances only with all its units standing in the reserve
    assert refusal_rule(g2, act("allied", "advance", units=["p1"],
                                commanders=["Prebyshevsky"])) == "nt-attack"
    assert refusal_rule(g2, act("allied", "advance", units=["l1"])) == "nt-attack"


def test_occupation_must_fit() -> None:
    # 107 Pratze holds 4: five units may not occupy it after the defender retreated.
    units = [unit(f"g{n}", "french", "I2", "R95", "Lannes") for n in range(5)]
    g = game([*units, unit("a", "allied", "C2", "R107")], {"Lannes": "R95"})
    play(g, act("french", "threat", from_=95, into=107),
         act("allied", "retreat", losses={}, to={"a": 94}))
    five = [{"type": "corps_move", "commander": "Lannes", "units": [f"g{n}" for n in range(5)]}]
    assert refusal_rule(g, act("french", "occupy", orders=five)) == "nt-capacity"
    play(g, act("french", "occupy", orders=[{"type": "unit_move", "unit": "g0"}]))


def test_a_corps_is_never_just_a_commander() -> None:
    # RB 8 (M): Unit Moves may not strip a corps bare, and a commander whose units all advance
    # advances with them.
    g = battle(attack=[unit("a", "french", "I3", "R95", "Lannes"),
                       unit("b", "french", "I3", "R95", "Lannes")])
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2", "p3"]))
    bare = [{"type": "unit_move", "unit": "a"}, {"type": "unit_move", "unit": "b"}]
    assert refusal_rule(g, act("french", "feint", orders=bare)) == "nt-commands"
    play(g, act("french", "feint", orders=[{"type": "unit_move", "unit": "a"}]))
    assert refusal_rule(g, act("allied", "advance", units=["p1", "p2", "p3"])) == "nt-attack"
    play(g, act("allied", "advance", units=["p1", "p2", "p3"], commanders=["Prebyshevsky"]))


# --- the catalogue (engine/triumph/refusals.py): every refusal says which sentence it is -----

def test_every_reason_the_engine_names_is_in_the_catalogue_and_every_entry_is_used() -> None:
    import re
    from pathlib import Path

    from engine.triumph.refusals import REASONS

    sources = (Path(__file__).resolve().parents[3] / "engine" / "triumph").glob("*.py")
    text = "\n".join(source.read_text() for source in sources)
    named = set(re.findall(r'(?:refusal|refused|_refuse|setup_error)\(\s*(?:\w+, )?"([a-z-]+)"',
                           text))
    named |= {"unit-off-map", "unit-eliminated"}  # chosen by a conditional expression
    assert named - set(REASONS) == set()
    assert set(REASONS) - named == set()


def test_each_sentence_is_written_from_its_data() -> None:
    import json

    from engine.triumph.refusals import REASONS, refusal, template_fields

    for key, (rule, _) in REASONS.items():
        data = {name: f"<{name}>" for name in template_fields(key)}
        made = refusal(key, **data)
        assert (made.rule, made.reason) == (rule, key)
        assert all(f"<{name}>" in made.message for name in data)
        json.dumps(dict(made.data))


def test_refusals_in_play_carry_their_reason_and_what_they_speak_of() -> None:
    # random games: every refusal `check` gives for an action legal a moment ago names a
    # catalogued reason, holds every value its sentence speaks of, and is JSON-safe data
    import json
    import random

    from engine.triumph.game import TriumphGame
    from engine.triumph.refusals import REASONS, template_fields
    from engine.triumph.standard import standard_setup

    seen: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        g = TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"))
        previous: list = []
        for _ in range(80):
            actions = g.legal_actions()
            if not actions:
                break
            for stale in rng.sample(previous, min(len(previous), 25)):
                made = g.check(stale)
                if made is None:
                    continue
                seen.add(made.reason)
                assert made.reason in REASONS and made.rule == REASONS[made.reason][0]
                assert template_fields(made.reason) <= set(made.data)
                json.dumps(dict(made.data))
            previous = actions
            eager = [a for a in actions if a.type not in ("end_turn",)]
            g.push(rng.choice(eager if eager and rng.random() < 0.9 else actions))
    assert len(seen) >= 5, seen


def test_setup_objections_carry_their_reason_and_side() -> None:
    import pytest

    from engine.triumph.game import TriumphGame
    from engine.triumph.setup import SetupError
    from engine.triumph.standard import standard_setup

    french = standard_setup("french")
    french["units"] = french["units"][1:]
    with pytest.raises(SetupError) as caught:
        TriumphGame.from_setups(french, standard_setup("allied"))
    assert caught.value.reason == "setup-order-of-battle"
    assert caught.value.data["side"] == "french" and caught.value.data["extra"] == ["none"]
    assert caught.value.message.startswith("french set-up: the army must be the order")
