"""Cavalry riding on after a road attack, and reinforcement cavalry attacking as it comes on
(our reading 1.9 and open question 12, L). Held against the public reconstruction
(justinkwaugh/tabletop, `games/napoleons-triumph/src/model/roadAttack.spec.ts`, commit
06277736): its ground and its verdicts, read, not copied.

The main road runs 51-38-52-53-63-64-55; 63|64 is wide. The French Cav-2 c1 stands in 53, French
infantry in 52, an Allied Cav-1 screen in 63 and Allied infantry in 64.
"""

from __future__ import annotations

from engine.triumph.actions import Feint, Occupy, Threat
from engine.triumph.game import TriumphGame
from tests.engine.triumph.helpers import act, at, game, play, refusal_rule, unit

RIDER = {"type": "unit_move", "unit": "c1", "road": []}  # no locale before the defence locale


def screen_taken(by_road: bool = True) -> TriumphGame:
    """c1 threatens 63 from 53, the screen gives way, c1 rides in (by road, or the plain way)."""
    g = game([unit("c1", "french", "C2", "R53"), unit("i1", "french", "I2", "R52"),
              unit("s", "allied", "C1", "R63"), unit("a", "allied", "I2", "R64")])
    order = RIDER if by_road else {"type": "unit_move", "unit": "c1"}
    play(g, act("french", "threat", from_=53, into=63),
         act("allied", "retreat", losses={}, to={"s": 72}, keep={}),
         act("french", "occupy", orders=[order]))
    return g


def test_cavalry_that_took_a_locale_by_road_may_threaten_again_at_no_further_cost() -> None:
    g = screen_taken()
    assert at(g, "c1") == "R63" and g.state.turn.independent_commands == 1
    assert g.state.turn.road_march is not None and g.state.turn.road_march.path == (63,)
    threats = [a for a in g.legal_actions() if isinstance(a, Threat)]
    assert (63, 64) in {(t.from_, t.into) for t in threats}
    play(g, act("french", "threat", from_=63, into=64), act("allied", "defend", units=["a"]))
    # the defender stands: riding on by road it must feint; a fresh command of c1 is refused
    assert refusal_rule(g, act("french", "feint", orders=[{"type": "unit_move", "unit": "c1"}],
                               end="approach")) == "nt-commands"
    assert refusal_rule(g, act("french", "press")) == "nt-road"
    feints = [a for a in g.legal_actions() if isinstance(a, Feint)]
    assert feints and all(g.check(a) is None for a in feints)
    play(g, act("french", "feint", orders=[RIDER], end="approach"))
    assert at(g, "c1") == "63>64" and g.state.turn.road_march is None
    assert g.state.turn.independent_commands == 1 and "c1" in g.state.turn.revealed
    assert g.awaiting() == ("allied", "advance")


def test_a_second_locale_taken_and_then_on_by_road_while_the_reach_lasts() -> None:
    g = screen_taken()
    play(g, act("french", "threat", from_=63, into=64),
         act("allied", "retreat", losses={"a": 2}, to={}, keep={}))
    assert [a for a in g.legal_actions() if isinstance(a, Occupy)]
    play(g, act("french", "occupy", orders=[RIDER]))
    assert at(g, "c1") == "R64" and g.state.turn.road_march.path == (63, 64)  # type: ignore[union-attr]
    # 53 -> 63 -> 64 -> 55: three main-road locales, the reach of the main road; no fourth
    assert refusal_rule(g, act("french", "unit_move", unit="c1", to="R66", road=[55, 66])
                        ) == "nt-road"
    play(g, act("french", "unit_move", unit="c1", to="R55", road=[55]))
    assert at(g, "c1") == "R55" and g.state.turn.road_march is None
    assert g.state.turn.independent_commands == 1 and g.state.morale["allied"] == 25


def test_a_plain_occupation_leaves_nothing_to_ride_on() -> None:
    g = screen_taken(by_road=False)
    assert g.state.turn.road_march is None
    assert refusal_rule(g, act("french", "unit_move", unit="c1", to="R64", road=[64])) == \
        "nt-commands"
    assert refusal_rule(g, act("french", "threat", from_=63, into=64)) == "nt-attack"


def test_any_other_order_ends_the_riding_on() -> None:
    g = screen_taken()
    play(g, act("french", "unit_move", unit="i1", to="R53"))
    assert g.state.turn.road_march is None
    assert refusal_rule(g, act("french", "unit_move", unit="c1", to="R64", road=[64])) == \
        "nt-commands"


def test_riding_on_may_end_blocking_an_approach_its_road_crosses() -> None:
    g = screen_taken()
    play(g, act("french", "unit_move", unit="c1", to="63>64", road=[]))
    assert at(g, "c1") == "63>64" and g.state.turn.road_march is None
    # with no locale entered it stays in 63: an approach of another locale needs its road
    again = screen_taken()
    assert refusal_rule(again, act("french", "unit_move", unit="c1", to="64>55", road=[])) == \
        "nt-road"


def reinforcement_waiting(commander: str, round_: int = 7) -> TriumphGame:
    """An Allied Cav-1 screen in 38; the French cavalry corps of `commander` (one Cav-2)
    waits off the map; F2 is the main-road entry at 51."""
    return game([unit("s", "allied", "C1", "R38"),
                 {**unit("r1", "french", "C2", "R51", commander), "at": None}],
                {commander: None}, round_=round_)  # type: ignore[dict-item]


BERNADOTTE = {"type": "corps_move", "commander": "Bernadotte", "units": ["r1"], "road": [51],
              "entry": "F2"}


def test_reinforcement_cavalry_may_threaten_from_its_entry_road_and_ride_in() -> None:
    g = reinforcement_waiting("Bernadotte")
    assert (51, 38) in {(t.from_, t.into) for t in g.legal_actions() if isinstance(t, Threat)}
    play(g, act("french", "threat", from_=51, into=38),
         act("allied", "retreat", losses={}, to={"s": 39}, keep={}))
    occupations = [a for a in g.legal_actions() if isinstance(a, Occupy)]
    assert occupations and all(g.check(a) is None for a in occupations)
    events = play(g, act("french", "occupy", orders=[BERNADOTTE]))
    assert at(g, "r1") == "R38" and str(g.state.commanders["Bernadotte"].at) == "R38"
    assert g.state.reinforcements_entered and g.state.morale["french"] == 27
    assert [e["type"] for e in events][:3] == ["reveal", "reinforcement", "morale"]
    assert g.state.turn.corps_commands == 1 and "Bernadotte" in g.state.turn.commanded
    # it took 38 by road: it may ride on (51 -> 38 -> 52 on the main road)
    play(g, act("french", "corps_move", commander="Bernadotte", units=["r1"], to="R52",
                road=[52]))
    assert at(g, "r1") == "R52"


def test_reinforcement_cavalry_must_feint_if_the_defender_stands() -> None:
    g = reinforcement_waiting("Bernadotte")
    play(g, act("french", "threat", from_=51, into=38), act("allied", "defend", units=["s"]))
    assert refusal_rule(g, act("french", "press")) == "nt-road"
    play(g, act("french", "feint", orders=[BERNADOTTE], end="approach"))
    assert at(g, "r1") == "51>38" and g.state.morale["french"] == 27


def test_reinforcement_cavalry_waits_for_its_hour() -> None:
    # Davout may come on from 8:00 only
    g = reinforcement_waiting("Davout")
    assert refusal_rule(g, act("french", "threat", from_=51, into=38)) == "nt-attack"
    later = reinforcement_waiting("Davout", round_=8)
    assert refusal_rule(later, act("french", "threat", from_=51, into=38)) is None


def test_the_moves_that_ride_on_are_listed_and_each_passes_check() -> None:
    g = screen_taken()
    rides = [a for a in g.legal_actions() if getattr(a, "unit", None) == "c1"]
    assert rides and all(g.check(a) is None for a in rides)
    assert {str(a.to) for a in rides} >= {"R62", "63>64"}  # type: ignore[attr-defined]


def test_the_tablets_menu_offers_the_ride_on() -> None:
    from engine.triumph.menu import command_menu

    g = screen_taken()
    (entry,) = [e for e in command_menu(g) if e["type"] == "unit_move" and "c1" in e["units"]]
    assert any(d["to"] == "R62" and d["road"] == [62] for d in entry["to"])
    assert {"to": "63>64", "road": []} in entry["to"]
