"""NT records (our reading, section 3.5): replay, the verdict, records that cannot be read."""

from __future__ import annotations

import json
import random

import pytest

from engine.core.errors import RecordError
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
    record = json.loads(json.dumps(record_of(game, start)))
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
