"""The command menu (issue 12 contract): compact, every entry legal, every legal command in it."""

from __future__ import annotations

import json
import random
import zlib
from typing import Any

import pytest

from engine.triumph.actions import Action, action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.menu import command_menu
from engine.triumph.sample import crowded_position
from engine.triumph.standard import standard_setup
from tests.engine.triumph.helpers import act, game, play, unit

ENVELOPE = 4096  # the sealed seat_state's plaintext limit after zlib


def implied(side: str, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions a menu entry offers: each destination with the full unit list (a Detach Move
    and a Unit Move: each one unit), each threat with and without each Guard unit."""
    kind = entry["type"]
    if kind == "end_turn":
        return [{"side": side, "type": "end_turn"}]
    if kind == "threat":
        plain = {"side": side, "type": "threat", "from": entry["from"], "into": entry["into"]}
        return [plain] + [{**plain, "guard": g} for g in entry.get("guard", [])]
    if kind == "attach":
        return [{"side": side, "type": "attach", "commander": entry["commander"], "unit": u}
                for u in entry["units"]]
    found = []
    for where in destinations(entry["to"]):
        if kind == "corps_move":
            extra = {"entry": entry["entry"]} if "entry" in entry else {}
            found.append({"side": side, "type": kind, "commander": entry["commander"],
                          "units": entry["units"], **where, **extra})
        elif kind == "detach_move":
            found += [{"side": side, "type": kind, "commander": entry["commander"],
                       "units": [u], **where} for u in entry["units"]]
        else:
            found += [{"side": side, "type": kind, "unit": u, **where} for u in entry["units"]]
    return found


def destinations(written: list[Any]) -> list[dict[str, Any]]:
    """{"to"} or {"to", "road"} for each destination, a road's blocking ends included."""
    found: list[dict[str, Any]] = []
    for dest in written:
        if isinstance(dest, str):
            found.append({"to": dest})
            continue
        found.append({"to": dest["to"], "road": dest["road"]})
        found += [{"to": f"{dest['road'][-1]}>{toward}", "road": dest["road"]}
                  for toward in dest.get("block", [])]
    return found


def same_choice(action: dict[str, Any]) -> str:
    """What a move does for the player: a road move into a reserve an ordinary move reaches is
    that ordinary move; a Unit Move by road is the same whichever road it takes."""
    return json.dumps({k: v for k, v in action.items() if k != "road"}, sort_keys=True)


def check_menu(g: TriumphGame) -> list[dict[str, Any]]:
    """Every implied action passes `check`; every legal command is in the menu or does the same
    as a command in it (see `same_choice`)."""
    side = g.state.to_move
    menu = command_menu(g)
    offered = [a for entry in menu for a in implied(side, entry)]
    for action in offered:
        refusal = g.check(action_from_dict(action))
        assert refusal is None, f"{action} refused: {refusal}"
    exact = {json.dumps(a, sort_keys=True) for a in offered}
    plain = {same_choice(a) for a in offered if "road" not in a}
    any_road = {same_choice(a) for a in offered if a["type"] == "unit_move"}
    legal: list[Action] = g.legal_actions()
    missing = []
    for action in (a.to_dict() for a in legal):
        if json.dumps(action, sort_keys=True) in exact:
            continue
        road_to_reserve = "road" in action and action["to"].startswith("R")
        if road_to_reserve and "entry" not in action and same_choice(action) in plain:
            continue
        if action["type"] == "unit_move" and same_choice(action) in any_road:
            continue
        missing.append(action)
    assert not missing, missing
    return menu


def standard_game() -> TriumphGame:
    return TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"), "s")


def test_the_menu_at_seven_offers_every_allied_command_and_nothing_illegal() -> None:
    menu = check_menu(standard_game())
    assert {"type": "end_turn"} in menu
    corps = {e["commander"] for e in menu if e["type"] == "corps_move"}
    assert "Bagration" in corps


@pytest.mark.parametrize("to_move", ["allied", "french"])
def test_the_menu_of_a_crowded_position_is_exact(to_move: str) -> None:
    check_menu(TriumphGame.from_position(crowded_position(to_move)))


@pytest.mark.parametrize("seed", [4, 5])
def test_the_menu_stays_exact_through_random_games(seed: int) -> None:
    # entries, attaches, threats and Guard Attacks appear as the game goes on
    rng = random.Random(seed)
    g = standard_game()
    kinds: set[str] = set()
    for _ in range(700):
        if g.result is not None:
            break
        actions = g.legal_actions()
        entering = any(getattr(a, "entry", None) for a in actions)
        if g.awaiting() == (g.state.to_move, "command") and (entering or rng.random() < 0.15):
            kinds |= {e["type"] + ("-entry" if "entry" in e else "") for e in check_menu(g)}
        eager = [a for a in actions if a.type in ("threat", "press", "attack", "attach")
                 or getattr(a, "entry", None)]
        quiet = [a for a in actions if a.type != "end_turn"]
        draw = rng.random()
        g.push(rng.choice(eager if eager and draw < 0.8 else
                          (quiet if quiet and draw < 0.9 else actions)))
    wanted = {"corps_move", "corps_move-entry", "unit_move", "detach_move", "threat", "attach"}
    assert wanted <= kinds, kinds


def guard_front() -> TriumphGame:
    return game([unit("g1", "french", "G3", "R53", "Bessières"),
                 unit("g2", "french", "G3", "R53", "Bessières"),
                 unit("c1", "french", "C2", "R53"),
                 unit("g3", "french", "G3", "R62"),
                 unit("a1", "allied", "I2", "R52", "Bagration")],
                {"Bessières": "R53", "Bagration": "R52"}, to_move="french")


def test_a_threat_names_the_guard_units_that_may_announce_a_guard_attack() -> None:
    g = guard_front()
    menu = check_menu(g)
    (threat,) = [e for e in menu if e["type"] == "threat"]
    assert (threat["from"], threat["into"]) == (53, 52)
    assert threat["guard"] == ["g1", "g2"]  # not g3: it stands in 62, away from the attack


def test_a_detached_unit_in_a_commanders_position_may_be_attached() -> None:
    menu = check_menu(guard_front())
    assert {"type": "attach", "commander": "Bessières", "units": ["c1"]} in menu


def test_the_corps_move_offers_the_unmoved_units_and_shrinks_as_they_move() -> None:
    g = guard_front()
    (corps,) = [e for e in command_menu(g) if e["type"] == "corps_move"]
    assert corps["units"] == ["g1", "g2"] and "R63" in corps["to"]
    play(g, act("french", "corps_move", commander="Bessières", units=["g1", "g2"], to="R63"))
    assert not [e for e in command_menu(g) if e.get("commander") == "Bessières"]


def test_no_menu_while_an_attack_waits_for_a_step() -> None:
    g = guard_front()
    play(g, act("french", "threat", from_=53, into=52))
    assert command_menu(g) == []
    view = g.view("allied").to_dict()
    assert view["awaiting"]["decision"] == "response"
    assert all("side" in o for o in view["options"])  # the engine's action list, not a menu


def test_the_deciding_side_view_carries_the_menu_and_the_other_none() -> None:
    g = guard_front()
    assert g.view("french").to_dict()["options"] == command_menu(g)
    assert "options" not in g.view("allied").to_dict()
    assert "options" not in g.view(None).to_dict()


def view_size(g: TriumphGame, side: str) -> int:
    """Bytes of the view as the referee seals it (compact JSON, zlib level 6)."""
    text = json.dumps(g.view(side).to_dict(), separators=(",", ":"), ensure_ascii=False)
    return len(zlib.compress(text.encode(), 6))


def test_the_deciding_seat_view_fits_the_envelope_with_room_to_spare() -> None:
    # measured when written: 2669 bytes at 7:00, 3177 with all 80 units on the map; the sealed
    # seat_state adds the set-up object and the instructions (about 500 bytes)
    start = view_size(standard_game(), "allied")
    crowded = max(view_size(TriumphGame.from_position(crowded_position(s)), s)
                  for s in ("allied", "french"))
    assert start < 2900 and crowded < 3400 < ENVELOPE, (start, crowded)


def test_the_menu_is_a_fraction_of_the_full_list_of_legal_commands() -> None:
    g = TriumphGame.from_position(crowded_position("allied"))
    full = len(json.dumps([a.to_dict() for a in g.legal_actions()]))
    assert len(json.dumps(command_menu(g))) < full // 4
