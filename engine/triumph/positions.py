"""Reading a position object (section 3.5 of our NT reading) into a checked game state."""

from __future__ import annotations

from typing import Any

from engine.triumph.artillery import battery_position_problem
from engine.triumph.errors import TriumphError
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import SIDES, UNIT_TYPES, Commander, Face, Position, Unit
from engine.triumph.rules import commanders as known_commanders
from engine.triumph.rules import constants
from engine.triumph.state import TriumphState


def state_from_position(data: Any, battle_map: BattleMap) -> TriumphState:
    """A state from a position object; TriumphError naming the first thing that is wrong."""
    if not isinstance(data, dict):
        raise TriumphError("the position must be an object")
    limits = constants()
    round_ = data.get("round")
    if not isinstance(round_, int) or not limits.first_hour <= round_ <= limits.last_hour:
        raise TriumphError(f"round must be an hour {limits.first_hour}-{limits.last_hour}")
    to_move = data.get("to_move")
    if to_move not in SIDES:
        raise TriumphError("to_move must be french or allied")
    morale = data.get("morale", dict(limits.starting_morale))
    if not isinstance(morale, dict) or set(morale) != set(SIDES) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in morale.values()):
        raise TriumphError("morale must give french and allied as whole numbers")
    commanders: dict[str, Commander] = {}
    for item in _list(data, "commanders"):
        name, side = item.get("name"), item.get("side")
        info = known_commanders().get(name) if isinstance(name, str) else None
        if info is None or side != info.side or not isinstance(name, str):
            raise TriumphError(f"unknown commander {name!r} of side {side!r}")
        if name in commanders:
            raise TriumphError(f"commander {name} listed twice")
        at = _position(item.get("at"), battle_map)
        commanders[name] = Commander(name, side, at, off_map=at is None)
    units: dict[str, Unit] = {}
    for item in _list(data, "units"):
        unit_id, side = item.get("id"), item.get("side")
        if not isinstance(unit_id, str) or not unit_id or unit_id in units:
            raise TriumphError(f"unit ids must be distinct strings ({unit_id!r})")
        if side not in SIDES:
            raise TriumphError(f"{unit_id}: side must be french or allied")
        kind, strength, guard = item.get("type"), item.get("strength"), item.get("guard", False)
        if kind not in UNIT_TYPES or strength not in (1, 2, 3) or not isinstance(guard, bool):
            raise TriumphError(f"{unit_id}: a face is a type, a strength 1-3 and a guard flag")
        if guard and (kind != "infantry" or strength != 3):
            raise TriumphError(f"{unit_id}: only 3-strength infantry carries the Guard mark")
        at = _position(item.get("at"), battle_map)
        name = item.get("commander")
        if name is not None:
            commander = commanders.get(name)
            if commander is None or commander.side != side or commander.at != at:
                raise TriumphError(f"{unit_id}: its commander {name!r} must be listed, of its "
                                   f"side, in its position")
        # A unit off the map (at null) is a reinforcement not yet entered: it waits (M2).
        units[unit_id] = Unit(unit_id, side, Face(kind, strength, guard), at, name,
                              off_map=at is None)
    state = TriumphState(units, commanders, dict(morale), round_, to_move,
                         reinforcements_entered=bool(data.get("reinforcements_entered", False)))
    _check_consistency(state, battle_map)
    battery = data.get("fixed_battery")
    if battery is not None:
        state.fixed_battery = battery if isinstance(battery, str) else ""
        problem = battery_position_problem(state)
        if problem:
            raise TriumphError(problem)
    return state


def position_from_state(state: TriumphState) -> dict[str, Any]:
    """The position object of a state (what a record's `position` holds): pieces, morale, time,
    the reinforcement mark and the fixed battery. Per-turn marks, remembered faces, elite
    commitments and the artillery record are not part of a position: a game from a position
    starts without them."""
    position: dict[str, Any] = {
        "round": state.round, "to_move": state.to_move, "morale": dict(state.morale),
        "reinforcements_entered": state.reinforcements_entered,
        "commanders": [{"name": c.name, "side": c.side, "at": _text(c.at)}
                       for c in state.commanders.values() if c.at is not None or c.off_map],
        "units": [_unit_entry(u) for u in state.units.values() if u.at is not None or u.off_map]}
    if state.fixed_battery is not None:
        position["fixed_battery"] = state.fixed_battery
    return position


def _unit_entry(unit: Unit) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": unit.id, "side": unit.side, "type": unit.face.type,
                             "strength": unit.face.strength, "guard": unit.face.guard,
                             "at": _text(unit.at)}
    if unit.commander is not None:
        entry["commander"] = unit.commander
    return entry


def _text(position: Position | None) -> str | None:
    return str(position) if position is not None else None


def _check_consistency(state: TriumphState, battle_map: BattleMap) -> None:
    for name, commander in state.commanders.items():
        size = len(state.corps(name))
        if commander.at is not None and size == 0:
            raise TriumphError(f"{name} stands without units: a corps is never just a commander")
        if size > constants().corps_max_units:
            raise TriumphError(f"{name}'s corps has {size} units (at most 8)")
    for number, locale in battle_map.locales.items():
        sides = {u.side for u in state.units_in(number)} | {
            c.side for c in state.commanders_in(number)}
        if len(sides) > 1:
            raise TriumphError(f"locale {number} holds both sides")
        if len(state.units_in(number)) > locale.capacity:
            raise TriumphError(f"locale {number} holds more than its {locale.capacity} units")


def _list(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise TriumphError(f"{key} must be a list of objects")
    return value


def _position(value: Any, battle_map: BattleMap) -> Position | None:
    if value is None:
        return None
    position = Position.parse(value)
    if position.locale not in battle_map.locales:
        raise TriumphError(f"no locale {position.locale}")
    if position.toward is not None and not battle_map.is_passable(position.locale,
                                                                  position.toward):
        raise TriumphError(f"{position} is not a passable approach")
    return position
