"""Cavalry attacks by road (our reading 1.9 step 1 and 3, open question 12; 1.16 for the reveal).

The main road runs 38-52-53-63-64 (reach 3); 53|62 is a local road (reach 2). In every example
the French cavalry c1 starts in 38, two road locales short of 53, and threatens 63 from 53.
"""

from __future__ import annotations

from typing import Any

from engine.triumph.actions import Feint, Occupy, Order, Threat, action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.mapdata import load_austerlitz
from engine.triumph.movement import road_paths
from engine.triumph.records import check_triumph_record
from tests.engine.triumph.helpers import act, at, game, play, position, refusal_rule, unit

BY_ROAD = [52, 53]  # locales entered up to the attack locale (3.5); 63 is implied by the attack
TO_THE_DEFENCE = [52, 53, 63]  # the same road naming the defence locale too (3.5: read the same)


def rider(uid: str = "c1", road: list[int] | None = None) -> dict[str, Any]:
    """A Unit Move by road, as in a record's orders."""
    return {"type": "unit_move", "unit": uid, "road": road or BY_ROAD}


def ride_up(*extra: dict[str, Any], defenders: int = 1) -> TriumphGame:
    """c1 (Cav-2) in 38; Allied infantry in 63; 53 empty. French turn of 7:00."""
    allied = [unit(f"a{i}", "allied", "I2", "R63") for i in range(1, defenders + 1)]
    return game([unit("c1", "french", "C2", "R38"), *allied, *extra])


def test_cavalry_a_road_away_may_threaten_when_it_has_reach_to_cross_into_the_locale() -> None:
    # 1.9 step 1 (M2): 38 -> 52 -> 53 -> 63 is three main-road locales: reach 3 holds it
    g = ride_up(unit("a9", "allied", "I2", "R62"))
    assert refusal_rule(g, act("french", "threat", from_=53, into=63)) is None
    # 53|62 is a local road: 52, 53, 62 would need reach 3 on a road that only has 2
    assert refusal_rule(g, act("french", "threat", from_=53, into=62)) == "nt-attack"
    # from 51 the defence locale is a fourth locale: out of reach
    far = game([unit("c1", "french", "C2", "R51"), unit("a1", "allied", "I2", "R63")])
    assert refusal_rule(far, act("french", "threat", from_=53, into=63)) == "nt-attack"


def test_only_cavalry_that_can_still_be_commanded_threatens_by_road() -> None:
    foot = game([unit("i1", "french", "I3", "R38"), unit("a1", "allied", "I2", "R63")])
    assert refusal_rule(foot, act("french", "threat", from_=53, into=63)) == "nt-attack"
    moved = ride_up()
    play(moved, act("french", "unit_move", unit="c1", to="R52"))  # its one move this turn
    assert refusal_rule(moved, act("french", "threat", from_=53, into=63)) == "nt-attack"


def test_legal_actions_list_road_threats_and_each_passes_check() -> None:
    g = ride_up()
    threats = [a for a in g.legal_actions() if isinstance(a, Threat)]
    assert [(t.from_, t.into) for t in threats] == [(53, 63)]
    assert all(g.check(t) is None for t in threats)


def test_if_the_defender_stands_a_road_attack_must_be_a_feint() -> None:
    # 1.9 step 3 (DOC, H): the cavalry rides up to the attack locale and no further; it is
    # revealed (1.16), spends its command, the approach closes, and the defence advances
    g = ride_up()
    play(g, act("french", "threat", from_=53, into=63), act("allied", "defend", units=["a1"]))
    assert refusal_rule(g, act("french", "press")) == "nt-road"
    feints = [a for a in g.legal_actions() if isinstance(a, Feint)]
    assert {a.end for a in feints} == {"approach", "reserve"}
    assert all(a.orders[0].road == tuple(BY_ROAD) for a in feints)
    events = play(g, act("french", "feint", orders=[rider()], end="approach"))
    assert at(g, "c1") == "53>63"
    assert {"type": "reveal", "why": "cavalry attacking by road",
            "units": [{"unit": "c1", "side": "french",
                       "face": {"type": "cavalry", "strength": 2, "guard": False}}]} in events
    assert "c1" in g.state.turn.revealed and g.state.turn.independent_commands == 1
    assert (53, 63) in g.state.turn.closed and 53 in g.state.turn.stopped_in
    assert g.awaiting() == ("allied", "advance")
    play(g, act("allied", "advance", units=["a1"]))
    assert at(g, "a1") == "63>53" and g.state.morale == {"french": 23, "allied": 27}
    assert refusal_rule(g, act("french", "threat", from_=53, into=63)) == "nt-attack"


def test_a_road_feint_may_end_in_the_attack_reserve() -> None:
    g = ride_up()
    play(g, act("french", "threat", from_=53, into=63), act("allied", "defend", units=["a1"]),
         act("french", "feint", orders=[rider()], end="reserve"))
    assert at(g, "c1") == "R53"


def test_a_pressed_attack_is_never_made_by_road() -> None:
    # with infantry in 53 the attacker may press, but then only the ordinary way
    g = ride_up(unit("i1", "french", "I3", "R53"))
    play(g, act("french", "threat", from_=53, into=63), act("allied", "defend", units=["a1"]),
         act("french", "press"), act("allied", "defence_leaders", units=[]))
    assert refusal_rule(g, act("french", "attack", orders=[rider()], leaders=[])) == "nt-road"
    assert refusal_rule(g, act("french", "attack", orders=[{"type": "unit_move", "unit": "i1"}],
                                leaders=["i1"])) is None


def test_if_the_defender_retreats_the_cavalry_rides_in() -> None:
    # 1.9 step 2 (M2): after a retreat before combat the road attack moves into the locale
    g = ride_up(defenders=2)
    # 53|63 is wide: the reserve infantry lose 2 steps between them
    play(g, act("french", "threat", from_=53, into=63),
         act("allied", "retreat", losses={"a1": 1, "a2": 1}, to={"a1": 64, "a2": 64}, keep={}))
    assert g.awaiting() == ("french", "occupy")
    occupations = [a for a in g.legal_actions() if isinstance(a, Occupy)]
    assert occupations and all(a.orders[0].road == tuple(BY_ROAD) for a in occupations)
    # the road must reach the attack locale (and may name the defence locale after it)
    assert refusal_rule(g, act("french", "occupy", orders=[rider(road=[52])])) == "nt-road"
    assert refusal_rule(g, act("french", "occupy", orders=[rider(road=[52, 53, 64])])
                        ) == "nt-road"
    assert refusal_rule(g, act("french", "occupy", orders=[rider(road=TO_THE_DEFENCE)])) is None
    assert refusal_rule(g, act("french", "occupy", orders=[{"type": "unit_move", "unit": "c1"}])
                        ) == "nt-attack"
    events = play(g, act("french", "occupy", orders=[rider()]))
    assert at(g, "c1") == "R63" and g.state.attack is None
    assert 63 in g.state.turn.stormed and "c1" in g.state.turn.revealed
    assert [e["type"] for e in events][:2] == ["reveal", "storm"]
    assert g.state.morale == {"french": 23, "allied": 25}


def test_only_cavalry_attacks_by_road() -> None:
    g = ride_up(unit("i2", "french", "I2", "R38"))
    play(g, act("french", "threat", from_=53, into=63), act("allied", "defend", units=["a1"]))
    assert refusal_rule(g, act("french", "feint", orders=[rider("i2")], end="approach")
                        ) == "nt-road"


def test_a_road_attack_is_one_command() -> None:
    # 1.9 (M, the reconstruction's reading): one Unit or Corps Move, never two combined
    g = ride_up(unit("c2", "french", "C2", "R38"))
    play(g, act("french", "threat", from_=53, into=63), act("allied", "defend", units=["a1"]))
    assert refusal_rule(g, act("french", "feint", orders=[rider(), rider("c2")], end="approach")
                        ) == "nt-road"
    mixed = [rider(), {"type": "unit_move", "unit": "c2"}]
    assert refusal_rule(g, act("french", "feint", orders=mixed, end="approach")) == "nt-road"


def murat_and_bagration() -> TriumphGame:
    """Murat's two Cav-2 in 52; Bagration's corps of two in 63."""
    return game([unit("m1", "french", "C2", "R52", "Murat"),
                 unit("m2", "french", "C2", "R52", "Murat"),
                 unit("b1", "allied", "I2", "R63", "Bagration"),
                 unit("b2", "allied", "I2", "R63", "Bagration")],
                {"Murat": "R52", "Bagration": "R63"})


def corps_by_road(units: list[str]) -> dict[str, Any]:
    return {"type": "corps_move", "commander": "Murat", "units": units, "road": [53, 63]}


def test_a_cavalry_corps_of_two_halts_beside_a_standing_enemy_corps() -> None:
    # 1.8 halting (M): 53 touches Bagration's corps of two, so a corps of two riding by road
    # must halt there and cannot go on; one unit (Murat taking only m1) can feint
    g = murat_and_bagration()
    play(g, act("french", "threat", from_=53, into=63), act("allied", "defend", units=["b1"]))
    feint = act("french", "feint", orders=[corps_by_road(["m1", "m2"])], end="reserve")
    assert refusal_rule(g, feint) == "nt-road"
    play(g, act("french", "feint", orders=[corps_by_road(["m1"])], end="reserve"))
    assert at(g, "m1") == "R53" and str(g.state.commanders["Murat"].at) == "R53"
    assert at(g, "m2") == "R52" and g.state.units["m2"].commander is None


def test_a_cavalry_corps_rides_in_whole_once_the_enemy_corps_has_retreated() -> None:
    # after the retreat no enemy corps touches 53 (64 does not border it): no halt there
    g = murat_and_bagration()
    play(g, act("french", "threat", from_=53, into=63),
         act("allied", "retreat", losses={"b1": 1, "b2": 1}, to={"b1": 64, "b2": 64},
             keep={"Bagration": "b2"}),
         act("french", "occupy", orders=[corps_by_road(["m1", "m2"])]))
    assert at(g, "m1") == at(g, "m2") == "R63" == str(g.state.commanders["Murat"].at)
    # a corps of two marched by road: the reserves it entered are closed to other moves
    assert {53, 63} <= g.state.turn.road_closed


def test_road_orders_keep_their_road_in_records() -> None:
    data = {"side": "french", "type": "feint", "orders": [rider()], "end": "approach"}
    action = action_from_dict(data)
    assert action.to_dict() == data
    assert action.orders[0] == Order("unit_move", unit="c1", road=(52, 53))  # type: ignore[attr-defined]
    assert str(action) == "french feint orders=unit c1 by 52-53 end=approach"


def test_no_retreat_can_block_a_road_attack_before_its_attack_locale() -> None:
    # Why occupation by road never finds its road cut: a locale a road attack passes through
    # before the attack locale never borders the defence locale (retreats go only there).
    battle_map = load_austerlitz()
    for start in battle_map.locales:
        for road in road_paths(battle_map, start):
            for passed in road[:-2]:
                assert road[-1] not in battle_map.neighbours(passed), (start, road)


def test_a_record_with_a_road_attack_replays_to_its_verdict() -> None:
    # 3.5: the record contract extended: orders carry "road"; refusals name their rule
    start = position([unit("c1", "french", "C2", "R38"), unit("a1", "allied", "I2", "R63")])
    actions = [{"side": "french", "type": "threat", "from": 53, "into": 63},
               {"side": "allied", "type": "defend", "units": ["a1"]},
               {"side": "french", "type": "feint", "orders": [rider()], "end": "approach"}]
    record = {"game": "napoleons-triumph", "scenario": "2dec", "position": start,
              "actions": actions}
    verdict = check_triumph_record(record)
    assert verdict["illegal"] is None and verdict["applied"] == 3
    assert verdict["units"]["c1"] == {"strength": 2, "at": "53>63"}
    assert verdict["awaiting"] == {"side": "allied", "decision": "advance"}
    pressed = {**record, "actions": [*actions[:2], {"side": "french", "type": "press"}]}
    refused = check_triumph_record(pressed)["illegal"]
    assert refused is not None and (refused["index"], refused["rule"]) == (2, "nt-road")


def test_a_road_is_written_up_to_the_attack_locale_or_on_to_the_defence_locale() -> None:
    # 3.5 (settled): the road lists the locales entered up to and including the attack locale;
    # a road that also names the defence locale as its last entry is read the same way
    for road in (BY_ROAD, TO_THE_DEFENCE):
        g = ride_up()
        play(g, act("french", "threat", from_=53, into=63), act("allied", "defend", units=["a1"]),
             act("french", "feint", orders=[rider(road=road)], end="approach"))
        assert at(g, "c1") == "53>63" and g.awaiting() == ("allied", "advance")
        g = ride_up()
        play(g, act("french", "threat", from_=53, into=63),
             act("allied", "retreat", losses={"a1": 2}, to={}, keep={}))
        play(g, act("french", "occupy", orders=[rider(road=road)]))
        assert at(g, "c1") == "R63" and g.state.attack is None
