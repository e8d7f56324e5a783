"""Events as each audience may see them (1.16): enemy blocks named only by that turn's handles,
no face the rules keep with its owner."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.triumph.events import EVENT_TYPES, Event, event_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.redaction import redact_events
from engine.triumph.standard import standard_setup
from engine.triumph.views import handle
from tests.engine.triumph.helpers import act, game, unit

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "triumph"


def spelled(side: str) -> dict[str, Any]:
    """The standard set-up with ids that spell each block's face, e.g. "I3-lann-1": any id that
    leaks into an enemy's events gives the face away."""
    setup = standard_setup(side)
    renamed: dict[str, str] = {}
    for item in setup["units"]:
        code = ("G" if item["guard"] else item["type"][0].upper()) + str(item["strength"])
        corps = (item.get("commander") or item["from"])[:4].lower()
        number = sum(1 for v in renamed.values() if v.startswith(f"{code}-{corps}-"))
        renamed[item["id"]] = f"{code}-{corps}-{number}"
        item["id"] = renamed[item["id"]]
    if setup.get("fixed_battery"):
        setup["fixed_battery"] = renamed[setup["fixed_battery"]]
    return setup


def handles_of(g: TriumphGame) -> dict[str, str]:
    """handle -> real id for this turn (what the test, not a player, may know)."""
    return {handle(g.handle_secret, g.state.turns_played, u): u for u in g.state.units}


def faces_named(value: Any) -> list[tuple[str, Any]]:
    """Every (unit, face) pair an event shows: reveals, replacements, eliminations."""
    found: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        if "unit" in value and ("face" in value or "before" in value):
            found.append((value["unit"], value.get("face") or value.get("before")))
        for item in value.values():
            found += faces_named(item)
    elif isinstance(value, list):
        for item in value:
            found += faces_named(item)
    return found


def check_ruling(g: TriumphGame, events: list[Event]) -> None:
    names = handles_of(g)
    public_faces = g.state.turn.revealed | {g.state.fixed_battery or ""} | {
        u for u, x in g.state.units.items() if x.at is None}
    for viewer in ("french", "allied", None):
        redacted = redact_events(g, events, viewer)
        text = json.dumps(redacted)
        enemies = [u for u, x in g.state.units.items() if x.side != viewer]
        leaked = [u for u in enemies if f'"{u}"' in text]
        assert not leaked, f"{viewer} sees real ids {leaked} in {text}"
        for name, _ in faces_named(redacted):
            real = names.get(name, name)
            if g.state.units[real].side != viewer:
                assert real in public_faces, f"{viewer} sees the face of {real} in {text}"
        # the owner's own events keep his own ids
        if viewer is not None:
            own = {u for u, x in g.state.units.items() if x.side == viewer}
            assert not any(names.get(n) in own for n, _ in faces_named(redacted))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_never_show_the_opponent_or_public_an_enemy_id_or_hidden_face(
        seed: int) -> None:
    rng = random.Random(seed)
    g = TriumphGame.from_setups(spelled("french"), spelled("allied"), handle_secret="s")
    seen: set[str] = set()
    for _ in range(1500):
        if g.result is not None:
            break
        actions = g.legal_actions()
        eager = [a for a in actions if a.type in ("threat", "press", "attack", "defend",
                                                  "counter_attack", "retreat")
                 or getattr(a, "entry", None)]
        quiet = [a for a in actions if a.type != "end_turn"]
        draw = rng.random()
        pool = eager if eager and draw < 0.9 else (quiet if quiet and draw < 0.93 else actions)
        events = g.push(rng.choice(pool))
        seen |= {e.type for e in events}
        check_ruling(g, events)
    # the games went through attacks, losses and reveals, not only moves
    assert {"threat", "reveal", "combat", "replace"} <= seen, seen


def test_every_event_type_has_a_sample_here_and_reads_back_from_its_wire_form() -> None:
    # a new event type fails here until a sample below shows how redaction names its units
    samples = {e["type"] for e in FRENCH_EVENTS + OTHER_EVENTS}
    assert samples == set(EVENT_TYPES), set(EVENT_TYPES) ^ samples
    for data in FRENCH_EVENTS + OTHER_EVENTS:
        assert event_from_dict(data).to_dict() == data


def small() -> TriumphGame:
    return game([unit("I3-lann-0", "french", "I3", "R64", "Lannes"),
                 unit("I2-lann-1", "french", "I2", "R64", "Lannes"),
                 unit("C2-bagr-0", "allied", "C2", "R67", "Bagration"),
                 unit("I2-bagr-1", "allied", "I2", "R67", "Bagration")],
                {"Lannes": "R64", "Bagration": "R67"}, to_move="french")


# (event as the engine emits it, where the French unit ids stand in it)
FRENCH_EVENTS: list[dict[str, Any]] = [
    {"type": "corps_move", "side": "french", "units": ["I3-lann-0"], "commander": "Lannes",
     "start": "R64", "to": "R63", "road": None},
    {"type": "attach", "side": "french", "commander": "Lannes", "unit": "I2-lann-1"},
    {"type": "threat", "side": "french", "attack_locale": 64, "defence_locale": 67,
     "guard": "I3-lann-0"},
    {"type": "reveal", "why": "retreat", "units": [
        {"unit": "I3-lann-0", "side": "french",
         "face": {"type": "infantry", "strength": 3, "guard": False}}]},
    {"type": "attack", "side": "french", "units": ["I3-lann-0", "I2-lann-1"],
     "leaders": ["I3-lann-0"], "wide": False, "engaged": ["I2-lann-1"], "initial": 1},
    {"type": "retreat", "side": "french", "locale": 64, "to": {"I3-lann-0": "R63"},
     "steps_lost": 1, "before_combat": True},
    {"type": "assign-losses", "side": "french", "allocation": {"I3-lann-0": 1,
                                                               "I2-lann-1": 0}},
    {"type": "regroup", "side": "french", "keep": {"Lannes": "I2-lann-1"}},
    {"type": "replace", "unit": "I3-lann-0", "side": "french", "at": "R64",
     "before": "Inf-3", "after": "Inf-2", "why": "combat"},
    {"type": "eliminate", "unit": "I2-lann-1", "side": "french", "at": "R64",
     "face": {"type": "infantry", "strength": 2, "guard": False}, "why": "combat"},
    {"type": "elite-commitment", "side": "french", "elite": "guard", "unit": "I3-lann-0",
     "why": "leader"},
    {"type": "odd-loss", "side": "allied", "unit": "I3-lann-0"},
    {"type": "detach_move", "side": "french", "units": ["I2-lann-1"], "commander": "Lannes",
     "start": "R64", "to": "R63", "road": None},
    {"type": "unit_move", "side": "french", "units": ["I2-lann-1"], "commander": None,
     "start": "R64", "to": "R52", "road": [63, 52]},
    {"type": "reinforcement", "side": "french", "commander": "Lannes",
     "units": ["I3-lann-0", "I2-lann-1"], "entry": "F2", "to": "R61", "road": [51, 61],
     "second_command": True},
    {"type": "defend", "side": "french", "units": ["I3-lann-0", "I2-lann-1"], "blocking": False},
    {"type": "feint", "side": "french", "units": ["I3-lann-0"], "end": "approach"},
    {"type": "defence-leaders", "side": "french", "units": ["I3-lann-0"]},
    {"type": "counter-attack", "side": "french", "units": ["I2-lann-1"]},
    {"type": "storm", "side": "french", "locale": 67, "units": ["I3-lann-0", "I2-lann-1"]},
    {"type": "advance", "side": "french", "units": ["I2-lann-1"], "to": "64>67"},
]

# events that name no unit: nothing to rename
OTHER_EVENTS: list[dict[str, Any]] = [
    {"type": "end-turn", "side": "french", "round": 7},
    {"type": "game-end", "winner": "french", "reason": "demoralised"},
    {"type": "game-end", "winner": "allied", "reason": "objectives", "why": "...",
     "control": {"french": [], "allied": [53]}},
    {"type": "press", "side": "french"},
    {"type": "guard-attack-failed", "side": "french"},
    {"type": "combat", "initial": 1, "final": 0, "winner": "defender",
     "losses": {"attacker": 1, "defender": 1}},
    {"type": "attack-end", "side": "french", "feint": False, "winner": "attacker"},
    {"type": "attack-end", "side": "french", "before_combat": True},
    {"type": "commander-removed", "commander": "Lannes", "side": "french", "at": "R64"},
    {"type": "morale", "side": "french", "before": 23, "after": 21},
    {"type": "morale", "side": "french", "before": 23, "after": 27, "why": "..."},
    {"type": "takeback", "side": "french", "action": "corps_move"},
]


@pytest.mark.parametrize("event", FRENCH_EVENTS, ids=[e["type"] for e in FRENCH_EVENTS])
def test_each_event_names_french_blocks_by_handles_for_the_allies_and_public(
        event: dict[str, Any]) -> None:
    g = small()
    french_ids = ["I3-lann-0", "I2-lann-1"]
    for viewer in ("allied", None):
        text = json.dumps(redact_events(g, [event_from_dict(event)], viewer))
        assert not [u for u in french_ids if u in text]
        assert handle("", 0, "I3-lann-0") in text or handle("", 0, "I2-lann-1") in text
    # the French read their own events as the engine wrote them
    assert redact_events(g, [event_from_dict(event)], "french") == [event]


def test_positions_commanders_and_numbers_stay_as_they_are() -> None:
    g = small()
    event = FRENCH_EVENTS[0]
    (seen,) = redact_events(g, [event_from_dict(event)], "allied")
    assert {k: v for k, v in seen.items() if k != "units"} == {
        k: v for k, v in event.items() if k != "units"}


def test_a_real_ruling_the_public_reads_with_handles_of_this_turn() -> None:
    g = small()
    events = g.push(act("french", "corps_move", commander="Lannes",
                        units=["I3-lann-0", "I2-lann-1"], to="R63"))
    (public,) = redact_events(g, events, None)
    assert public["units"] == [handle("", 0, "I3-lann-0"), handle("", 0, "I2-lann-1")]
    # the handles are those of the public view of this turn
    assert set(public["units"]) <= {e["id"] for e in g.view(None).to_dict()["units"]}
