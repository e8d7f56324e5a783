"""A scripted Napoleon's Triumph player: picks one of the options its seat's view offers.

It sees exactly what a tablet sees (the seat's view, enemy blocks under handles) and answers as a
tablet does (an action without its side), so the demo and the end-to-end tests drive the real
referee the way two people would. It is no opponent to learn from: a seeded choice among the
legal options, a little eager to attack so that games reach combats, retreats and an end.
"""

from __future__ import annotations

import random
from typing import Any

EAGER = 0.45  # how often a turn's command is a threat when one is offered
ENDING = 0.12  # how often the turn ends when a move is also possible


def choose_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The action (without side) this player sends for its view, or None if it does not decide."""
    options = view.get("options") or []
    awaiting = view.get("awaiting") or {}
    if not options or awaiting.get("side") != view.get("viewer"):
        return None
    if awaiting.get("decision") != "command":
        chosen = dict(rng.choice(options))
        chosen.pop("side", None)
        return chosen
    return _command(options, rng)


def _command(menu: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """One command from the menu of the decision "command" (docs/mqtt.md)."""
    threats = [e for e in menu if e["type"] == "threat"]
    moves = [e for e in menu if e["type"] in ("corps_move", "detach_move", "unit_move") and e["to"]]
    entries = [e for e in menu if e["type"] == "corps_move" and e.get("entry")]
    if entries:  # reinforcements come on as soon as they may
        return _move(rng.choice(entries), rng)
    if threats and rng.random() < EAGER:
        threat = rng.choice(threats)
        return {"type": "threat", "from": threat["from"], "into": threat["into"]}
    if not moves or rng.random() < ENDING:
        return {"type": "end_turn"}
    return _move(rng.choice(moves), rng)


def _move(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move of a menu entry to one of its destinations."""
    destination = rng.choice(entry["to"])
    action: dict[str, Any] = {"type": entry["type"]}
    if isinstance(destination, dict):
        blocking = [f"{destination['road'][-1]}>{n}" for n in destination.get("block", ())]
        action["to"] = rng.choice([destination["to"], *blocking])
        action["road"] = destination["road"]
    else:
        action["to"] = destination
    if entry["type"] == "unit_move":
        action["unit"] = rng.choice(entry["units"])
        return action
    action["commander"] = entry["commander"]
    if entry["type"] == "detach_move":
        action["units"] = [rng.choice(entry["units"])]
        action.pop("road", None)  # Detach Moves never use roads
    else:
        action["units"] = list(entry["units"])
        if entry.get("entry"):
            action["entry"] = entry["entry"]
    return action
