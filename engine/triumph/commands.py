"""Commands (1.7): Corps, Detach and Unit Moves and Attach, with the per-turn limits."""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph.actions import Attach, CorpsMove, DetachMove, UnitMove
from engine.triumph.mapdata import BattleMap
from engine.triumph.movement import destination_refusal, ordinary_move_refusal, road_move_refusal
from engine.triumph.pieces import CAVALRY, Position, Unit
from engine.triumph.refusals import refusal
from engine.triumph.rules import constants
from engine.triumph.state import TriumphState


def corps_command_refusal(state: TriumphState, side: str, name: str) -> Refusal | None:
    """Why `name` cannot give a corps command now, or None."""
    commander = state.commanders.get(name)
    if commander is None or commander.side != side:
        return refusal("not-a-commander", commander=name, side=side)
    if commander.at is None:
        return refusal("commander-off-map", commander=name)
    if name in state.turn.commanded:
        return refusal("commander-commanded", commander=name)
    limit = constants().corps_commands[side]
    if limit is not None and state.turn.corps_commands >= limit:
        return refusal("corps-commands-used", side=side, limit=limit)
    return None


def independent_command_refusal(state: TriumphState, side: str) -> Refusal | None:
    """Why the side has no independent command left, or None."""
    limit = constants().independent_commands[side]
    if state.turn.independent_commands >= limit:
        return refusal("independent-commands-used", side=side, limit=limit)
    return None


def unit_refusal(state: TriumphState, side: str, unit_id: str) -> Refusal | None:
    """Why a unit cannot be moved by a command now, or None."""
    unit = state.units.get(unit_id)
    if unit is None or unit.side != side:
        return refusal("not-a-unit", unit=unit_id, side=side)
    if unit.at is None:
        return refusal("unit-off-map" if unit.off_map else "unit-eliminated", unit=unit_id)
    if unit_id in state.turn.moved:
        return refusal("unit-moved", unit=unit_id)
    return None


def corps_units_refusal(state: TriumphState, side: str, name: str, units: tuple[str, ...],
                        proper: bool) -> Refusal | None:
    """Why `units` are not a valid choice of the commander's units (all of them if not proper)."""
    problem = corps_command_refusal(state, side, name)
    if problem:
        return problem
    if not units or len(set(units)) != len(units):
        return refusal("name-units")
    for unit_id in units:
        problem = unit_refusal(state, side, unit_id)
        if problem:
            return problem
        if state.units[unit_id].commander != name:
            return refusal("not-in-corps", unit=unit_id, commander=name)
    if proper and len(units) >= len(state.corps(name)):
        return refusal("detach-leaves-one", commander=name)
    return None


def independent_unit_refusal(state: TriumphState, side: str, unit_id: str) -> Refusal | None:
    """Why a unit cannot be moved by a Unit Move now, or None."""
    problem = unit_refusal(state, side, unit_id) or independent_command_refusal(state, side)
    if problem:
        return problem
    unit = state.units[unit_id]
    if unit.commander is not None and len(state.corps(unit.commander)) <= 1:
        return refusal("last-unit-of-corps", unit=unit_id, commander=unit.commander)
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
        problem = independent_unit_refusal(state, side, action.unit)
        units: tuple[str, ...] = (action.unit,)
        corps_of_two = False
    else:
        problem = corps_units_refusal(state, side, action.commander, action.units,
                                      proper=isinstance(action, DetachMove))
        units = action.units
        corps_of_two = isinstance(action, CorpsMove) and len(units) >= 2
    if problem:
        return problem
    start = state.units[units[0]].at
    assert start is not None
    if action.road is not None:
        if isinstance(action, DetachMove):
            return refusal("detach-no-road", commander=action.commander)
        cavalry = all(state.units[u].face.type == CAVALRY for u in units)
        return road_move_refusal(state, battle_map, side, len(units), corps_of_two, start,
                                 action.to, action.road, cavalry)
    if action.to.locale not in battle_map.locales:
        return refusal("no-such-locale", locale=action.to.locale)
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
    problem = corps_command_refusal(state, action.side, action.commander)
    if problem:
        return problem
    unit = state.units.get(action.unit)
    if unit is None or unit.side != action.side or unit.at is None:
        return refusal("attach-not-on-map", unit=action.unit, side=action.side)
    commander = state.commanders[action.commander]
    if unit.at != commander.at:
        return refusal("attach-elsewhere", unit=action.unit, commander=action.commander,
                       at=str(commander.at))
    if unit.commander == action.commander:
        return refusal("attach-already", unit=action.unit, commander=action.commander)
    if len(state.corps(action.commander)) >= constants().corps_max_units:
        return refusal("corps-full", commander=action.commander,
                       limit=constants().corps_max_units)
    if unit.commander is not None and len(state.corps(unit.commander)) <= 1:
        return refusal("attach-last-unit", unit=action.unit, commander=unit.commander)
    return None


def apply_attach(state: TriumphState, action: Attach) -> None:
    """Carry out a checked Attach."""
    state.units[action.unit].commander = action.commander
    state.turn.corps_commands += 1
    state.turn.commanded.add(action.commander)


def detached(unit: Unit) -> bool:
    """True for a unit in no corps."""
    return unit.commander is None
