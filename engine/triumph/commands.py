"""Commands (1.7): Corps, Detach and Unit Moves and Attach, with the per-turn limits."""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph.actions import Attach, CorpsMove, DetachMove, UnitMove
from engine.triumph.mapdata import BattleMap
from engine.triumph.movement import destination_refusal, ordinary_move_refusal, road_move_refusal
from engine.triumph.pieces import CAVALRY, Position, Unit
from engine.triumph.rules import constants
from engine.triumph.state import TriumphState


def corps_command_refusal(state: TriumphState, side: str, name: str) -> Refusal | None:
    """Why `name` cannot give a corps command now, or None."""
    commander = state.commanders.get(name)
    if commander is None or commander.side != side:
        return Refusal("nt-commands", f"{name} is not a commander of the {side} army")
    if commander.at is None:
        return Refusal("nt-commands", f"{name} is not on the map")
    if name in state.turn.commanded:
        return Refusal("nt-commands", f"{name} has already given a command this turn")
    limit = constants().corps_commands[side]
    if limit is not None and state.turn.corps_commands >= limit:
        return Refusal("nt-commands", f"the {side} army has used all {limit} corps commands "
                                      f"this turn")
    return None


def independent_command_refusal(state: TriumphState, side: str) -> Refusal | None:
    """Why the side has no independent command left, or None."""
    limit = constants().independent_commands[side]
    if state.turn.independent_commands >= limit:
        return Refusal("nt-commands", f"the {side} army has used all {limit} independent "
                                      f"commands this turn")
    return None


def unit_refusal(state: TriumphState, side: str, unit_id: str) -> Refusal | None:
    """Why a unit cannot be moved by a command now, or None."""
    unit = state.units.get(unit_id)
    if unit is None or unit.side != side:
        return Refusal("nt-commands", f"{unit_id} is not a unit of the {side} army")
    if unit.at is None:
        where = "is off the map (reinforcements enter in M2)" if unit.off_map else \
            "has been eliminated"
        return Refusal("nt-commands", f"{unit_id} {where}")
    if unit_id in state.turn.moved:
        return Refusal("nt-commands", f"{unit_id} has already moved this turn")
    return None


def corps_units_refusal(state: TriumphState, side: str, name: str, units: tuple[str, ...],
                        proper: bool) -> Refusal | None:
    """Why `units` are not a valid choice of the commander's units (all of them if not proper)."""
    refusal = corps_command_refusal(state, side, name)
    if refusal:
        return refusal
    if not units or len(set(units)) != len(units):
        return Refusal("nt-commands", "name at least one unit, each once")
    for unit_id in units:
        refusal = unit_refusal(state, side, unit_id)
        if refusal:
            return refusal
        if state.units[unit_id].commander != name:
            return Refusal("nt-commands", f"{unit_id} is not in {name}'s corps")
    if proper and len(units) >= len(state.corps(name)):
        return Refusal("nt-commands", "a Detach Move leaves at least one unit with its commander")
    return None


def independent_unit_refusal(state: TriumphState, side: str, unit_id: str) -> Refusal | None:
    """Why a unit cannot be moved by a Unit Move now, or None."""
    refusal = unit_refusal(state, side, unit_id) or independent_command_refusal(state, side)
    if refusal:
        return refusal
    unit = state.units[unit_id]
    if unit.commander is not None and len(state.corps(unit.commander)) <= 1:
        return Refusal("nt-commands", f"{unit_id} is the last unit of {unit.commander}'s corps: "
                                      f"move it with a Corps Move")
    return None


def can_be_commanded(state: TriumphState, side: str, unit: Unit) -> bool:
    """True when some command (its corps' or an independent one) could still move the unit."""
    if unit.side != side or unit.at is None or unit.id in state.turn.moved:
        return False
    by_corps = unit.commander is not None and corps_units_refusal(
        state, side, unit.commander, (unit.id,), proper=False) is None
    alone = independent_command_refusal(state, side) is None and (
        unit.commander is None or len(state.corps(unit.commander)) > 1)
    return by_corps or alone


def move_refusal(state: TriumphState, battle_map: BattleMap,
                 action: CorpsMove | DetachMove | UnitMove) -> Refusal | None:
    """Why a Corps, Detach or Unit Move is illegal, or None."""
    side = action.side
    if isinstance(action, UnitMove):
        refusal = independent_unit_refusal(state, side, action.unit)
        units: tuple[str, ...] = (action.unit,)
        corps_of_two = False
    else:
        refusal = corps_units_refusal(state, side, action.commander, action.units,
                                      proper=isinstance(action, DetachMove))
        units = action.units
        corps_of_two = isinstance(action, CorpsMove) and len(units) >= 2
    if refusal:
        return refusal
    start = state.units[units[0]].at
    assert start is not None
    if action.road is not None:
        if isinstance(action, DetachMove):
            return Refusal("nt-road", "a Detach Move never uses roads")
        cavalry = all(state.units[u].face.type == CAVALRY for u in units)
        return road_move_refusal(state, battle_map, side, len(units), corps_of_two, start,
                                 action.to, action.road, cavalry)
    if action.to.locale not in battle_map.locales:
        return Refusal("nt-movement", f"there is no locale {action.to.locale}")
    return (ordinary_move_refusal(battle_map, start, action.to)
            or destination_refusal(state, battle_map, side, len(units), action.to, start))


def apply_move(state: TriumphState, action: CorpsMove | DetachMove | UnitMove) -> Position:
    """Carry out a checked move; returns where the units started."""
    turn = state.turn
    units = (action.unit,) if isinstance(action, UnitMove) else action.units
    start = state.units[units[0]].at
    assert start is not None
    for unit_id in units:
        unit = state.units[unit_id]
        unit.at = action.to
        turn.moved.add(unit_id)
        if not isinstance(action, CorpsMove):
            unit.commander = None
    if isinstance(action, UnitMove):
        turn.independent_commands += 1
    else:
        turn.corps_commands += 1
        turn.commanded.add(action.commander)
    if isinstance(action, CorpsMove):
        state.commanders[action.commander].at = action.to
        for unit in state.corps(action.commander):
            if unit.id not in units:
                unit.commander = None
    if action.to.locale != start.locale:
        turn.stopped_in.add(action.to.locale)
    if action.road is not None and isinstance(action, CorpsMove) and len(units) >= 2:
        turn.road_closed.update(action.road)
    return start


def attach_refusal(state: TriumphState, action: Attach) -> Refusal | None:
    """Why an Attach is illegal, or None."""
    refusal = corps_command_refusal(state, action.side, action.commander)
    if refusal:
        return refusal
    unit = state.units.get(action.unit)
    if unit is None or unit.side != action.side or unit.at is None:
        return Refusal("nt-commands", f"{action.unit} is not a unit of the {action.side} army "
                                      f"on the map")
    commander = state.commanders[action.commander]
    if unit.at != commander.at:
        return Refusal("nt-commands", f"{action.unit} does not stand in {action.commander}'s "
                                      f"position {commander.at}")
    if unit.commander == action.commander:
        return Refusal("nt-commands", f"{action.unit} is already in {action.commander}'s corps")
    if len(state.corps(action.commander)) >= constants().corps_max_units:
        return Refusal("nt-commands", f"a corps holds at most {constants().corps_max_units} "
                                      f"units")
    if unit.commander is not None and len(state.corps(unit.commander)) <= 1:
        return Refusal("nt-commands", f"{action.unit} is the last unit of {unit.commander}'s "
                                      f"corps")
    return None


def apply_attach(state: TriumphState, action: Attach) -> None:
    """Carry out a checked Attach."""
    state.units[action.unit].commander = action.commander
    state.turn.corps_commands += 1
    state.turn.commanded.add(action.commander)


def detached(unit: Unit) -> bool:
    """True for a unit in no corps."""
    return unit.commander is None
