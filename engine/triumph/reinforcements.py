"""French reinforcements (our reading 1.8, 1.3): an off-map corps enters by its entry road.

The entry is a Corps Move with `"entry": "F9"`: its `road` lists the locales entered, the first
being the entry locale, the last holding `to` (a reserve). The reach is 3 when the entry road
and every crossing after it are main roads, else 2. The first entry gives the French +4 morale
and switches the victory conditions (victory.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.actions import CorpsMove
from engine.triumph.mapdata import BattleMap, Entry
from engine.triumph.movement import _beside_enemy_corps, destination_refusal
from engine.triumph.pieces import FRENCH, Position, opponent
from engine.triumph.rules import constants, raw_order_of_battle
from engine.triumph.state import TriumphState

if TYPE_CHECKING:
    from engine.triumph.game import TriumphGame

RULE = "nt-reinforcement"


def arrival_hour(commander: str) -> int | None:
    """The first hour of the 2 December game a reinforcement may enter (None: not one)."""
    for item in raw_order_of_battle()["commanders"]:
        if item["name"] == commander and item.get("arrives"):
            day, hour = item["arrives"].split("-")
            # a corps due on 1 December is already waiting when the 2 December game starts
            return constants().first_hour if day == "1dec" else max(int(hour),
                                                                   constants().first_hour)
    return None


def waiting_units(state: TriumphState, commander: str) -> list[str]:
    """Ids of the units still off the map with a reinforcement commander."""
    return sorted(u.id for u in state.units.values() if u.off_map and u.commander == commander)


def entry_refusal(state: TriumphState, battle_map: BattleMap, action: CorpsMove
                  ) -> Refusal | None:
    """Why a reinforcement corps cannot enter this way now, or None."""
    name, side = action.commander, action.side
    commander = state.commanders.get(name)
    arrives = arrival_hour(name)
    if commander is None or commander.side != side or not commander.off_map or arrives is None:
        return Refusal(RULE, f"{name} is not a {side} reinforcement waiting off the map")
    if state.round < arrives:
        return Refusal(RULE, f"{name} may enter from {arrives}:00 on (now {state.round}:00)")
    if name in state.turn.commanded:
        return Refusal("nt-commands", f"{name} has already given a command this turn")
    limit = constants().corps_commands[side]
    if limit is not None and state.turn.corps_commands >= limit:
        return Refusal("nt-commands", f"the {side} army has used all {limit} corps commands")
    waiting = waiting_units(state, name)
    if readings.REINFORCEMENT_CORPS_ENTERS_WHOLE and sorted(action.units) != waiting:
        return Refusal(RULE, f"{name}'s corps enters whole: {', '.join(waiting)}")
    entry = battle_map.entries.get(action.entry or "")
    if entry is None or entry.side != side:
        return Refusal(RULE, f"{action.entry} is not a {side} entry road")
    road = action.road
    if not road or road[0] != entry.locale or road[-1] != action.to.locale:
        return Refusal(RULE, f"the road starts at the entry locale {entry.locale} and ends "
                             f"with the destination")
    if not action.to.is_reserve:
        return Refusal("nt-road", "a road move ends in the reserve of the last locale entered")
    if len(set(road)) != len(road):
        return Refusal("nt-road", "a road move enters each locale once")
    reach = entry_reach(battle_map, entry, road)
    if reach is None:
        return Refusal("nt-road", f"no connected road from entry {entry.id} through "
                                  f"{', '.join(map(str, road))} within reach (2 by road, 3 by "
                                  f"main road)")
    enemy = opponent(side)
    count = len(action.units)
    for index, locale in enumerate(road):
        if state.occupant(locale) == enemy:
            return Refusal("nt-road", f"{locale} is held by the enemy: a road move cannot "
                                      f"enter it")
        if locale in state.turn.road_closed or locale in state.turn.stormed:
            return Refusal("nt-road", f"the reserve of {locale} is closed this turn")
        if count >= 2 and locale in state.turn.stopped_in:
            return Refusal("nt-road", f"a unit already moved into {locale} this turn: a corps "
                                      f"of two or more may not enter it by road")
        if index < len(road) - 1:
            if len(state.units_in(locale, side)) >= battle_map.locales[locale].capacity:
                return Refusal("nt-road", f"{locale} is full: a road move may not pass "
                                          f"through it")
            if count >= 2 and _beside_enemy_corps(state, battle_map, locale, enemy):
                return Refusal("nt-road", f"{locale} is beside an enemy corps of two or more "
                                          f"units: the corps must halt there")
    # the start lies off the map: no locale of the map is "where the move began"
    return destination_refusal(state, battle_map, side, count, action.to, Position(0))


def entry_reach(battle_map: BattleMap, entry: Entry, road: tuple[int, ...]) -> int | None:
    """The reach of a road from an entry (3 if main all along, else 2), None if it breaks."""
    frontier = {(entry.stretch, entry.main)}
    for previous, target in zip(road, road[1:], strict=False):
        frontier = {(step.target_stretch, main and step.main)
                    for stretch, main in frontier
                    for step in battle_map.road_steps(previous)
                    if step.target == target and step.source_stretch == stretch}
        if not frontier:
            return None
    limits = constants()
    reaches = [limits.main_reach if main else limits.local_reach for _, main in frontier]
    fitting = [r for r in reaches if len(road) <= r]
    return max(fitting) if fitting else None


def apply_entry(game: TriumphGame, action: CorpsMove) -> None:
    """Carry out a checked entry: the corps stands at `to`; the first one lifts French morale."""
    state = game.state
    # 1.7 (L): with the reading, entering is not yet the commander's one command of the turn
    # nor its units' one move: each may be given one more (a second entry is impossible).
    second = readings.REINFORCEMENT_SECOND_COMMAND_ON_ENTRY and action.side == FRENCH
    for unit_id in action.units:
        unit = state.units[unit_id]
        unit.at, unit.off_map = action.to, False
        if not second:
            state.turn.moved.add(unit_id)
    commander = state.commanders[action.commander]
    commander.at, commander.off_map = action.to, False
    state.turn.corps_commands += 1
    if not second:
        state.turn.commanded.add(action.commander)
    state.turn.stopped_in.add(action.to.locale)
    if len(action.units) >= 2:
        state.turn.road_closed.update(action.road or ())
    game.emit("reinforcement", side=action.side, commander=action.commander,
              units=list(action.units), entry=action.entry, to=str(action.to),
              road=list(action.road or ()), second_command=second)
    if action.side == FRENCH and not state.reinforcements_entered:
        state.reinforcements_entered = True
        bonus = int(raw_order_of_battle()["constants"]["reinforcement_morale_bonus"])
        before = state.morale[FRENCH]
        state.morale[FRENCH] = before + bonus
        game.emit("morale", side=FRENCH, before=before, after=before + bonus,
                  why="the first French reinforcement entered")


def entry_actions(state: TriumphState, battle_map: BattleMap, side: str) -> list[CorpsMove]:
    """Candidate entries for every waiting corps: each entry road, each road path in reach."""
    found: dict[CorpsMove, None] = {}  # two crossings between the same locales give one move
    for name, commander in state.commanders.items():
        if commander.side != side or not commander.off_map:
            continue
        units = tuple(waiting_units(state, name))
        if not units:
            continue
        for entry in battle_map.entries.values():
            if entry.side != side:
                continue
            for road in _paths_from(battle_map, entry):
                found[CorpsMove(side, name, units, Position(road[-1]), road, entry=entry.id)] = None
    return list(found)


def _paths_from(battle_map: BattleMap, entry: Entry) -> list[tuple[int, ...]]:
    limits = constants()
    paths: list[tuple[int, ...]] = []
    stack: list[tuple[tuple[int, ...], int, bool]] = [((entry.locale,), entry.stretch, entry.main)]
    while stack:
        path, stretch, main = stack.pop()
        if len(path) <= (limits.main_reach if main else limits.local_reach):
            paths.append(path)
        else:
            continue
        for step in battle_map.road_steps(path[-1]):
            if step.source_stretch == stretch and step.target not in path:
                stack.append((path + (step.target,), step.target_stretch, main and step.main))
    return paths
