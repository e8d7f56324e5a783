"""What each player is told to do with his own blocks after a ruling (our reading 3.3): moves with
or without the commander's flag, entries, replacements, removals, faces to show, attaches."""

from __future__ import annotations

import random
from typing import Any

from engine.triumph.actions import Action
from engine.triumph.game import TriumphGame
from engine.triumph.instructions import instructions_for
from engine.triumph.standard import standard_setup
from tests.engine.triumph.helpers import act, game, unit
from tests.engine.triumph.test_attack import LANNES_ALL, battle

INF3 = {"type": "infantry", "strength": 3, "guard": False}
INF2 = {"type": "infantry", "strength": 2, "guard": False}
INF1 = {"type": "infantry", "strength": 1, "guard": False}
CAV2 = {"type": "cavalry", "strength": 2, "guard": False}


def ruling(g: TriumphGame, action: Action) -> dict[str, list[dict[str, Any]]]:
    """Push one action; the instructions each side is given for it."""
    events = g.push(action)
    return {side: instructions_for(g, events, side) for side in ("french", "allied")}


def lannes(*extra: dict[str, Any]) -> TriumphGame:
    """Lannes (Inf-3, Inf-2) in 64; the French to move."""
    return game([unit("l1", "french", "I3", "R64", "Lannes"),
                 unit("l2", "french", "I2", "R64", "Lannes"), *extra],
                {"Lannes": "R64"}, to_move="french")


def test_after_a_corps_move_the_french_move_lannes_flag_and_his_blocks() -> None:
    told = ruling(lannes(), act("french", "corps_move", commander="Lannes",
                                units=["l1", "l2"], to="R63"))
    assert told["french"] == [{"step": "move", "commander": "Lannes", "flag": True,
                               "faces": [INF3, INF2], "from": "R64", "to": "R63"}]
    assert told["allied"] == []  # the Allies move nothing of the French


def test_a_detach_move_takes_blocks_away_and_leaves_the_flag() -> None:
    told = ruling(lannes(), act("french", "detach_move", commander="Lannes", units=["l2"],
                                to="64>63"))
    assert told["french"] == [{"step": "move", "commander": "Lannes", "flag": False,
                               "faces": [INF2], "from": "R64", "to": "64>63"}]


def test_a_unit_move_of_a_detached_block_names_no_commander() -> None:
    g = lannes(unit("d", "french", "C2", "R65"))
    told = ruling(g, act("french", "unit_move", unit="d", to="R64"))
    assert told["french"] == [{"step": "move", "commander": None, "flag": False,
                               "faces": [CAV2], "from": "R65", "to": "R64"}]


def test_cavalry_ending_a_road_move_blocking_is_moved_then_shown() -> None:
    g = game([unit("c", "french", "C2", "R51")])
    told = ruling(g, act("french", "unit_move", unit="c", to="53>63", road=[38, 52, 53]))
    assert told["french"] == [
        {"step": "move", "commander": None, "flag": False, "faces": [CAV2], "from": "R51",
         "to": "53>63"},
        {"step": "show", "at": "53>63", "faces": [CAV2]}]


def test_an_attach_puts_the_block_under_the_commanders_flag() -> None:
    g = lannes(unit("d", "french", "C2", "R64"))
    told = ruling(g, act("french", "attach", commander="Lannes", unit="d"))
    assert told["french"] == [{"step": "attach", "commander": "Lannes", "face": CAV2,
                               "at": "R64"}]


def test_a_reinforcement_corps_enters_by_its_road() -> None:
    units = [unit(f"d{i}", "french", "I2", None, "Davout") for i in range(3)]  # type: ignore[arg-type]
    units += [unit("d3", "french", "C2", None, "Davout"), unit("a1", "allied", "I2", "R108")]  # type: ignore[arg-type]
    g = game(units, {"Davout": None}, to_move="french", round_=8)
    told = ruling(g, act("french", "corps_move", commander="Davout",
                         units=["d0", "d1", "d2", "d3"], to="R61", road=[51, 61], entry="F2"))
    assert told["french"] == [{"step": "enter", "commander": "Davout",
                               "faces": [INF2, INF2, INF2, CAV2], "entry": "F2", "to": "R61"}]


def test_a_won_attack_tells_each_side_its_losses_retreat_and_storm() -> None:
    # the worked example of test_attack: Lannes (Inf-3 leading) storms 108
    g = battle()
    for action in (act("french", "threat", from_=95, into=108),
                   act("allied", "defend", units=["p1", "p2"]), act("french", "press")):
        assert ruling(g, action) == {"french": [], "allied": []}
    told = ruling(g, act("allied", "defence_leaders", units=["p1"]))
    assert told == {"french": [], "allied": [{"step": "show", "at": "R108", "faces": [INF2]}]}
    told = ruling(g, act("french", "attack", orders=LANNES_ALL, leaders=["l1"]))
    assert told == {"french": [{"step": "show", "at": "R95", "faces": [INF3]}], "allied": []}
    # combat: the leaders take the loss points; the Inf-2 leader goes in two replacements
    told = ruling(g, act("allied", "counter_attack", units=[]))
    assert told["french"] == [{"step": "replace", "commander": "Lannes", "at": "R95",
                               "before": INF3, "after": INF2}]
    assert told["allied"] == [
        {"step": "replace", "commander": "Prebyshevsky", "at": "R108", "before": INF2,
         "after": INF1},
        {"step": "remove", "commander": "Prebyshevsky", "at": "R108", "face": INF1}]
    # the retreat: every piece shown, Prebyshevsky's flag goes with the block he keeps, the
    # cavalry gallops off detached; then the French storm in with Lannes
    told = ruling(g, act("allied", "retreat", losses={}, to={"p2": 96, "p3": 106},
                         keep={"Prebyshevsky": "p2"}))
    assert told["allied"] == [
        {"step": "show", "at": "R108", "faces": [INF2, CAV2]},
        {"step": "move", "commander": "Prebyshevsky", "flag": True, "faces": [INF2],
         "from": "R108", "to": "R96"},
        {"step": "move", "commander": "Prebyshevsky", "flag": False, "faces": [CAV2],
         "from": "R108", "to": "R106"}]
    assert told["french"] == [{"step": "move", "commander": "Lannes", "flag": True,
                               "faces": [INF2, INF2, CAV2], "from": "R95", "to": "R108"}]


def test_a_feint_to_the_approach_then_the_defence_advances() -> None:
    g = battle()
    ruling(g, act("french", "threat", from_=95, into=108))
    ruling(g, act("allied", "defend", units=["p1"]))
    told = ruling(g, act("french", "feint", orders=[{"type": "unit_move", "unit": "l3"}],
                         end="approach"))
    assert told == {"french": [{"step": "move", "commander": "Lannes", "flag": False,
                                "faces": [CAV2], "from": "R95", "to": "95>108"}], "allied": []}
    told = ruling(g, act("allied", "advance", units=["p1"]))
    assert told == {"french": [], "allied": [
        {"step": "move", "commander": "Prebyshevsky", "flag": False, "faces": [INF2],
         "from": "R108", "to": "108>95"}]}


def test_the_last_block_of_a_corps_goes_with_its_flag() -> None:
    # Prebyshevsky with a lone Inf-1 blocking 108>95 is overrun by Lannes' Inf-3
    g = game([unit("l1", "french", "I3", "R95", "Lannes"),
              unit("l2", "french", "I2", "R95", "Lannes"),
              unit("p1", "allied", "I1", "108>95", "Prebyshevsky")],
             {"Lannes": "R95", "Prebyshevsky": "108>95"}, to_move="french")
    for action in (act("french", "threat", from_=95, into=108), act("french", "press"),
                   act("allied", "defence_leaders", units=[]),
                   act("french", "attack", orders=[{"type": "corps_move", "commander": "Lannes",
                                                    "units": ["l1", "l2"]}], leaders=["l1"])):
        ruling(g, action)
    told = ruling(g, act("allied", "counter_attack", units=[]))
    assert told["allied"] == [
        {"step": "remove", "commander": "Prebyshevsky", "at": "108>95", "face": INF1},
        {"step": "remove_flag", "commander": "Prebyshevsky", "at": "108>95"}]
    assert told["french"] == [{"step": "move", "commander": "Lannes", "flag": True,
                               "faces": [INF3, INF2], "from": "R95", "to": "R108"}]


def test_random_games_give_each_side_steps_about_its_own_blocks_only() -> None:
    rng = random.Random(7)
    g = TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"), "s")
    kinds: set[str] = set()
    for _ in range(700):
        if g.result is not None:
            break
        actions = g.legal_actions()
        eager = [a for a in actions if a.type in ("threat", "press", "attack", "attach")
                 or getattr(a, "entry", None)]
        quiet = [a for a in actions if a.type != "end_turn"]
        draw = rng.random()
        events = g.push(rng.choice(eager if eager and draw < 0.8 else
                                   (quiet if quiet and draw < 0.9 else actions)))
        for side in ("french", "allied"):
            steps = instructions_for(g, events, side)
            kinds |= {s["step"] for s in steps}
            mine = {c.name for c in g.state.commanders.values() if c.side == side}
            assert all(s.get("commander") in mine | {None} for s in steps), steps
            for step in steps:
                if step["step"] == "move":
                    assert step["from"] != step["to"] and step["faces"]
    assert {"move", "enter", "replace", "show"} <= kinds, kinds


def test_an_earlier_ruling_is_read_against_the_state_given_before_it() -> None:
    # the referee may keep the state before a ruling; without it the last ruling's is found
    g = battle()
    g.push(act("french", "threat", from_=95, into=108))
    g.push(act("allied", "defend", units=["p1"]))
    before = g.state.copy()
    feint = g.push(act("french", "feint", orders=[{"type": "unit_move", "unit": "l3"}],
                       end="approach"))
    g.push(act("allied", "advance", units=["p1"]))
    assert instructions_for(g, feint, "french", before=before) == [
        {"step": "move", "commander": "Lannes", "flag": False, "faces": [CAV2],
         "from": "R95", "to": "95>108"}]
