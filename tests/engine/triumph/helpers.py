"""Small positions for the Napoleon's Triumph tests, written the way records write them."""

from __future__ import annotations

from typing import Any

from engine.triumph.actions import Action, action_from_dict
from engine.triumph.game import TriumphGame

SHORT = {"I": "infantry", "C": "cavalry", "A": "artillery", "G": "infantry"}


def unit(uid: str, side: str, face: str, at: str, commander: str | None = None) -> dict[str, Any]:
    """A unit entry; `face` like "I3", "C2", "A1" or "G3" (Guard infantry)."""
    entry: dict[str, Any] = {"id": uid, "side": side, "type": SHORT[face[0]],
                             "strength": int(face[1]), "guard": face[0] == "G", "at": at}
    if commander:
        entry["commander"] = commander
    return entry


def position(units: list[dict[str, Any]], commanders: dict[str, str] | None = None,
             to_move: str = "french", round_: int = 7,
             morale: dict[str, int] | None = None) -> dict[str, Any]:
    """A position object; commanders as {name: position}, their sides from the orders of battle."""
    from engine.triumph.rules import commanders as known

    return {"round": round_, "to_move": to_move,
            "morale": morale or {"french": 23, "allied": 27},
            "commanders": [{"name": n, "side": known()[n].side, "at": at}
                           for n, at in (commanders or {}).items()],
            "units": units}


def game(units: list[dict[str, Any]], commanders: dict[str, str] | None = None,
         **kwargs: Any) -> TriumphGame:
    """A game from a small position."""
    return TriumphGame.from_position(position(units, commanders, **kwargs))


def act(side: str, kind: str, **fields: Any) -> Action:
    """An action written as in a record."""
    if "from_" in fields:
        fields["from"] = fields.pop("from_")
    return action_from_dict({"side": side, "type": kind, **fields})


def play(g: TriumphGame, *actions: Action) -> list[dict[str, Any]]:
    """Push actions in order; the events of all of them in their wire form (`to_dict`)."""
    events = []
    for action in actions:
        events += [event.to_dict() for event in g.push(action)]
    return events


def refusal_rule(g: TriumphGame, action: Action) -> str | None:
    """The rule a refused action names (None when it is legal)."""
    refusal = g.check(action)
    return refusal.rule if refusal else None


def at(g: TriumphGame, uid: str) -> str | None:
    """Where a unit stands, as text (None once eliminated)."""
    where = g.state.units[uid].at
    return str(where) if where else None


def strength(g: TriumphGame, uid: str) -> int:
    """A unit's strength now (0 once eliminated)."""
    u = g.state.units[uid]
    return 0 if u.at is None else u.face.strength
