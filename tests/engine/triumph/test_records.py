"""NT records (our reading, section 3.5): replay, the verdict, records that cannot be read."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.core.errors import RecordError
from engine.triumph.actions import action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.records import check_triumph_record, game_from_record, record_of
from engine.triumph.sample import crowded_position
from tests.engine.triumph.helpers import position, unit

# The example record of section 3.5 of our reading, completed so that it can be played.
EXAMPLE = {
    "game": "napoleons-triumph", "scenario": "2dec",
    "position": position([unit("u1", "french", "I3", "R95", "Lannes"),
                          unit("u3", "french", "I2", "R95", "Lannes"),
                          unit("u2", "allied", "C2", "108>95")],
                         {"Lannes": "R95"}, to_move="french"),
    "actions": [{"side": "french", "type": "threat", "from": 95, "into": 108},
                {"side": "french", "type": "press"},
                {"side": "allied", "type": "defence_leaders", "units": ["u2"]},
                {"side": "french", "type": "attack", "leaders": ["u1"],
                 "orders": [{"type": "corps_move", "commander": "Lannes",
                             "units": ["u1", "u3"]}]}],
}


def test_the_verdict_of_a_fought_attack() -> None:
    # Inf-3 against a blocking Cav-2: 3 - 1 (infantry against blockers) - 2 = 0: a tie goes to
    # the blockers; the attacker loses 1 point (one defence leader), the defender 1 (one leader).
    verdict = check_triumph_record(EXAMPLE)
    assert verdict["applied"] == 4 and verdict["illegal"] is None
    assert verdict["combats"] == [{"initial": 0, "final": 0, "winner": "defender",
                                   "losses": {"attacker": 1, "defender": 1}}]
    assert verdict["units"]["u1"] == {"strength": 2, "at": "R95"}
    assert verdict["units"]["u2"] == {"strength": 1, "at": "108>95"}
    assert verdict["commanders"] == {"Lannes": {"at": "R95"}}
    assert verdict["morale"] == {"french": 22, "allied": 27}
    assert verdict["awaiting"] is None and verdict["result"] is None
    assert (verdict["round"], verdict["to_move"]) == (7, "french")
    assert set(verdict) == {"applied", "illegal", "units", "commanders", "morale", "round",
                            "to_move", "awaiting", "combats", "result"}


def test_awaiting_names_the_pending_decision() -> None:
    record = dict(EXAMPLE, actions=EXAMPLE["actions"][:1])
    assert check_triumph_record(record)["awaiting"] == {"side": "french",
                                                        "decision": "feint_or_press"}


def test_the_first_refused_action_stops_the_replay() -> None:
    record = dict(EXAMPLE, actions=[
        {"side": "french", "type": "detach_move", "commander": "Lannes", "units": ["u3"],
         "to": "R83", "road": [83]},
        {"side": "french", "type": "end_turn"}])
    verdict = check_triumph_record(record)
    assert verdict["applied"] == 0
    assert verdict["illegal"]["index"] == 0 and verdict["illegal"]["rule"] == "nt-road"
    assert verdict["illegal"]["action"]["type"] == "detach_move"


@pytest.mark.parametrize("bad", [
    {"game": "napoleons-triumph", "position": {"round": 7}},
    {"game": "napoleons-triumph", "position": EXAMPLE["position"],
     "actions": [{"side": "french", "type": "fly"}]},
    {"game": "napoleons-triumph", "position": EXAMPLE["position"],
     "actions": [{"side": "french", "type": "threat", "from": 95}]},
    {"game": "napoleons-triumph", "scenario": "1dec", "position": EXAMPLE["position"]},
    {"game": "napoleons-triumph", "position": dict(EXAMPLE["position"], units=[
        unit("x", "french", "I2", "R999")])},
])
def test_unreadable_records_are_record_errors(bad: dict) -> None:
    with pytest.raises(RecordError):
        check_triumph_record(bad)


def test_a_record_replays_to_the_same_state_and_events() -> None:
    rng = random.Random(7)
    start = crowded_position()
    game = TriumphGame.from_position(start)
    for _ in range(150):
        if game.result is not None:
            break
        actions = game.legal_actions()
        quiet = [a for a in actions if a.type != "end_turn"]
        game.push(rng.choice(quiet if quiet and rng.random() < 0.9 else actions))
    record = json.loads(json.dumps(record_of(game)))
    assert record["position"] == start
    replay, actions = game_from_record(record)
    for action in actions:
        replay.push(action)
    assert repr(replay.state) == repr(game.state)
    assert replay.events == game.events


def test_popping_every_action_gives_back_the_start() -> None:
    game = TriumphGame.from_position(crowded_position())
    before = repr(game.state)
    rng = random.Random(3)
    for _ in range(60):
        game.push(rng.choice(game.legal_actions()))
    while game.actions:
        game.pop()
    assert repr(game.state) == before and game.events == []


def test_reinforcements_off_the_map_wait_there() -> None:
    # 3.5: pieces off the map (reinforcements not yet entered) have "at": null; entering is M2.
    record = dict(EXAMPLE, actions=[
        {"side": "french", "type": "unit_move", "unit": "r1", "to": "R51"}])
    record["position"] = dict(EXAMPLE["position"], commanders=[
        *EXAMPLE["position"]["commanders"], {"name": "Davout", "side": "french", "at": None}],
        units=[*EXAMPLE["position"]["units"],
               {"id": "r1", "side": "french", "type": "infantry", "strength": 2, "at": None,
                "commander": "Davout"}])
    verdict = check_triumph_record(record)
    assert verdict["units"]["r1"] == {"strength": 2, "at": None}
    assert verdict["commanders"]["Davout"] == {"at": None}
    assert verdict["illegal"]["rule"] == "nt-commands"


# --- records in the shapes of 3.5 (tests/engine/triumph/data), and the verdicts the rules give,
# worked out by hand from our reading (each file's "note" names the rule) --------------------
DATA = Path(__file__).resolve().parent / "data"
BLOCKED_BATTLE = {
    # Inf-3 leads against the blocking Cav-2: 3 - 1 (infantry against blockers) - 2 = 0, a
    # tie the blockers win; one point each: Inf-3 -> Inf-2, Cav-2 -> Cav-1; the French lose 1
    "illegal": None, "morale": {"french": 22, "allied": 27}, "awaiting": None,
    "units": {"u1": {"strength": 2, "at": "R95"}, "u3": {"strength": 2, "at": "R95"},
              "u2": {"strength": 1, "at": "108>95"}},
    "combats": [{"initial": 0, "final": 0, "winner": "defender",
                 "losses": {"attacker": 1, "defender": 1}}]}
BLOCKED_REFUSED = {"applied": 1, "morale": {"french": 23, "allied": 27},
                   "awaiting": {"side": "french", "decision": "feint_or_press"}, "combats": []}
ROAD_FEINT = {  # the cavalry stops on 53>63, shown; the Allied infantry advances to block
    "applied": 4, "illegal": None, "morale": {"french": 23, "allied": 27}, "awaiting": None,
    "units": {"c1": {"strength": 2, "at": "53>63"}, "a1": {"strength": 2, "at": "63>53"}},
    "combats": []}
ROAD_RIDE_IN = {  # 53|63 is wide: the reserve infantry lose 2 steps; the cavalry rides in
    "applied": 3, "illegal": None, "morale": {"french": 23, "allied": 25}, "awaiting": None,
    "units": {"c1": {"strength": 2, "at": "R63"}, "a1": {"eliminated": True}}, "combats": []}
VERDICTS: dict[str, dict] = {
    "blocked_defence_left_out.json": {"applied": 4, **BLOCKED_BATTLE},
    "blocked_defence_answered.json": {"applied": 5, **BLOCKED_BATTLE},
    "blocked_defence_retreat.json": {**BLOCKED_REFUSED, "illegal": {"index": 1,
                                                                    "rule": "nt-retreat"}},
    "blocked_defence_other_units.json": {**BLOCKED_REFUSED, "illegal": {"index": 1,
                                                                        "rule": "nt-defend"}},
    "road_feint_to_the_attack_locale.json": ROAD_FEINT,
    "road_feint_to_the_defence_locale.json": ROAD_FEINT,
    "road_ride_in_to_the_attack_locale.json": ROAD_RIDE_IN,
    "road_ride_in_to_the_defence_locale.json": ROAD_RIDE_IN,
    # Inf-2 against an Inf-3 defence leader: -1; 2 points eliminate the Inf-2: 23 -> 21 at once
    "attacker_eliminated_in_its_failed_attack.json": {
        "applied": 5, "illegal": None, "morale": {"french": 21, "allied": 27},
        "awaiting": {"side": "allied", "decision": "advance"},
        "units": {"f1": {"eliminated": True}, "a1": {"strength": 2, "at": "R108"},
                  "a2": {"strength": 3, "at": "R108"}},
        "combats": [{"initial": -1, "final": -1, "winner": "defender",
                     "losses": {"attacker": 2, "defender": 1}}]},
    # the Allies retreat across the narrow 95|108 (1 step); the battery holds, and never moves
    "fixed_battery_holds_after_a_retreat.json": {
        "applied": 3, "illegal": {"index": 3, "rule": "nt-fixed-battery"},
        "morale": {"french": 23, "allied": 26}, "awaiting": None, "combats": [],
        "units": {"fb": {"strength": 1, "at": "95>108"}, "a1": {"strength": 1, "at": "R96"}}},
}


def verdict_differences(verdict: dict, expected: dict) -> dict:
    """What of `expected` the verdict does not say (an `illegal` is compared by index and rule)."""
    found = dict(verdict)
    if found.get("illegal") is not None:
        found["illegal"] = {k: found["illegal"][k] for k in ("index", "rule")}
    return {key: (found.get(key), value) for key, value in expected.items()
            if found.get(key) != value}


def test_every_record_of_the_data_folder_has_its_verdict() -> None:
    assert sorted(p.name for p in DATA.glob("*.json")) == sorted(VERDICTS)


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_records_in_the_shapes_of_3_5_replay_to_the_verdicts_of_the_rules(name: str) -> None:
    record = json.loads((DATA / name).read_text(encoding="utf-8"))
    assert verdict_differences(check_triumph_record(record), VERDICTS[name]) == {}


def test_the_engine_writes_a_blocked_defence_without_the_defenders_answer() -> None:
    record = json.loads((DATA / "blocked_defence_answered.json").read_text(encoding="utf-8"))
    game, actions = game_from_record(record)
    for action in actions:
        game.push(action)
    written = record_of(game)
    assert [a["type"] for a in written["actions"]] == ["threat", "press", "defence_leaders",
                                                        "attack"]
    assert check_triumph_record(written) == {**check_triumph_record(record), "applied": 4}


def test_a_battle_saved_as_a_record_replays_to_the_same_result() -> None:
    # the whole battle from both set-ups, then a resignation: `arbiter check` gives it back
    from engine.triumph.standard import standard_setup

    rng = random.Random(11)
    game = TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"))
    for _ in range(120):
        actions = game.legal_actions()
        eager = [a for a in actions if a.type != "end_turn"]
        game.push(rng.choice(eager if eager and rng.random() < 0.85 else actions))
        if game.result is not None:
            break
    running = check_triumph_record(json.loads(json.dumps(record_of(game))))
    assert running["result"] == game.result and running["morale"] == game.state.morale
    if game.result is None:
        side = game.awaiting()[0]  # type: ignore[index]
        game.push(action_from_dict({"side": side, "type": "declare_end",
                                    "reason": "resignation"}))
    record = json.loads(json.dumps(record_of(game)))
    assert "setup" in record and "position" not in record
    verdict = check_triumph_record(record)
    assert verdict["result"] == game.result and verdict["illegal"] is None
    assert verdict["applied"] == len(game.actions)
