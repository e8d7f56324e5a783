"""The compact command menu: the legal commands of a turn grouped by commander, unit and threat.

A tablet must show every command the player may give, but the full list of legal commands (each
unit, each destination, each road) would not fit the sealed view. The menu groups them: one entry
per commander for its Corps Move (the player may leave units behind), Detach Move and Attach, one
per set of units sharing their Unit Move destinations, one per threat. A destination is a
position string ("R63", "64>63") or {"to": position, "road": [locales]} for a road move.

Three things keep it small without taking a choice away from the player:
- a road move into a reserve that an ordinary move of the same entry reaches is left out (the
  ordinary move does the same and closes no road);
- a Unit Move lists one road (the shortest) per destination: only a Corps Move of two or more
  units closes the roads it uses, so for one unit the path changes nothing;
- cavalry ending a road move blocking an approach of the road's last locale is written once per
  road: {"to": "R57", "road": [57], "block": [49, 56]} also offers "57>49" and "57>56" by that
  road (each one legal now).
"""

from __future__ import annotations

from typing import Any

from engine.triumph.actions import (
    Action,
    Attach,
    CorpsMove,
    DetachMove,
    EndTurn,
    Threat,
    UnitMove,
)
from engine.triumph.pieces import Position
from engine.triumph.protocols import ReadGame

Destination = str | dict[str, Any]
Move = CorpsMove | DetachMove | UnitMove


def command_menu(game: ReadGame) -> list[dict[str, Any]]:
    """The menu of the decision "command" (empty when the game waits for anything else)."""
    awaiting = game.awaiting()
    if awaiting is None or awaiting[1] != "command":
        return []
    return menu_from_actions(game, game.legal_actions())


def menu_from_actions(game: ReadGame, actions: list[Action]) -> list[dict[str, Any]]:
    """Group legal commands into menu entries, in a stable order."""
    state = game.state
    side = state.to_move
    corps: dict[tuple[str, str | None], dict[str, Any]] = {}
    detach: dict[str, dict[str, Any]] = {}
    attach: dict[str, dict[str, Any]] = {}
    singles: dict[str, list[Move]] = {}
    threats: list[dict[str, Any]] = []
    ends: list[dict[str, Any]] = []
    for action in actions:
        if isinstance(action, EndTurn):
            ends.append({"type": "end_turn"})
        elif isinstance(action, CorpsMove):
            entry = corps.setdefault((action.commander, action.entry), _corps_entry(action))
            entry["to"].append(action)
        elif isinstance(action, DetachMove):
            name = action.commander
            unmoved = [u.id for u in state.corps(name) if u.id not in state.turn.moved]
            detach.setdefault(name, {"type": "detach_move", "commander": name,
                                     "units": unmoved, "to": []})["to"].append(action)
        elif isinstance(action, UnitMove):
            singles.setdefault(action.unit, []).append(action)
        elif isinstance(action, Attach):
            attach.setdefault(action.commander, {"type": "attach", "commander": action.commander,
                                                 "units": []})["units"].append(action.unit)
        elif isinstance(action, Threat):
            threats.append(_threat_entry(game, side, action))
    moves = [{**e, "to": compact(e["to"], one_path=False)}
             for e in [*corps.values(), *detach.values()]]
    return ends + moves + _unit_moves(singles) + list(attach.values()) + threats


def compact(moves: list[Move], one_path: bool) -> list[Destination]:
    """The destinations of legal moves of one entry, written as the module docstring says."""
    plain = [str(m.to) for m in moves if m.road is None]
    by_road = [m for m in moves if m.road is not None]
    if one_path:
        shortest: dict[Position, Move] = {}
        for move in by_road:
            best = shortest.get(move.to)
            if best is None or len(move.road or ()) < len(best.road or ()):
                shortest[move.to] = move
        by_road = [m for m in by_road if shortest[m.to] is m]
    found: list[Destination] = list(plain)
    roads: dict[tuple[int, ...], dict[str, Any]] = {}
    # reserve ends first, so that a road's blocking ends join the entry of its reserve end
    for move in sorted(by_road, key=lambda m: not m.to.is_reserve):
        road = move.road or ()
        if move.to.is_reserve and str(move.to) in plain:
            continue
        written = roads.get(road)
        if (written is not None and road and not move.to.is_reserve
                and move.to.locale == road[-1]):
            written.setdefault("block", []).append(move.to.toward)
            continue
        written = {"to": str(move.to), "road": list(road)}
        roads.setdefault(road, written)
        found.append(written)
    return found


def _corps_entry(action: CorpsMove) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "corps_move", "commander": action.commander,
                             "units": list(action.units)}
    if action.entry is not None:
        entry["entry"] = action.entry
    entry["to"] = []
    return entry


def _unit_moves(singles: dict[str, list[Move]]) -> list[dict[str, Any]]:
    """One entry per list of destinations, naming every unit that has exactly that list."""
    grouped: dict[str, dict[str, Any]] = {}
    for unit_id, moves in singles.items():
        destinations = compact(moves, one_path=True)
        key = repr(destinations)
        grouped.setdefault(key, {"type": "unit_move", "units": [], "to": destinations})[
            "units"].append(unit_id)
    return list(grouped.values())


def _threat_entry(game: ReadGame, side: str, threat: Threat) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "threat", "from": threat.from_, "into": threat.into}
    guards = [u.id for u in game.state.units.values()
              if u.side == side and u.at is not None and u.face.guard
              and game.check(Threat(side, threat.from_, threat.into, u.id)) is None]
    if guards:
        entry["guard"] = guards
    return entry
