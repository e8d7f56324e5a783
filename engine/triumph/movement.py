"""Movement (1.8): the four ordinary moves, road moves and what every move must respect."""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import Position, opponent
from engine.triumph.rules import constants
from engine.triumph.state import TriumphState


def road_path_reach(battle_map: BattleMap, start: int, path: list[int] | tuple[int, ...]
                    ) -> int | None:
    """The reach (2 local, 3 main) of a connected road path from `start`, or None if it has none.

    Each step must leave on the stretch the previous crossing arrived on (any stretch for the
    first). A path of three locales needs main-road crossings throughout.
    """
    arrivals = road_arrivals(battle_map, start, path)
    return max((reach for _, reach in arrivals), default=None)


def road_arrivals(battle_map: BattleMap, start: int, path: list[int] | tuple[int, ...]
                  ) -> list[tuple[int, int]]:
    """(arrival stretch in the last locale, reach) for each way of travelling the path in reach."""
    if not path:
        return []
    reach = constants()
    found: list[tuple[int, int]] = []
    # (locale, arrival stretch or None at the start, all crossings so far main)
    frontier: list[tuple[int, int | None, bool]] = [(start, None, True)]
    for target in path:
        following = []
        for locale, stretch, main in frontier:
            for step in battle_map.road_steps(locale):
                if step.target == target and (stretch is None or step.source_stretch == stretch):
                    following.append((target, step.target_stretch, main and step.main))
        frontier = list(dict.fromkeys(following))
        if not frontier:
            return []
    for _, stretch, main in frontier:
        limit = reach.main_reach if main else reach.local_reach
        if len(path) <= limit and stretch is not None:
            found.append((stretch, limit))
    return found


def ordinary_move_refusal(battle_map: BattleMap, start: Position, to: Position) -> Refusal | None:
    """Why `start` -> `to` is not one of the four ordinary moves, or None when it is one."""
    if start.is_reserve and to.is_reserve:
        if battle_map.is_passable(start.locale, to.locale):
            return None
        return Refusal("nt-movement", f"{to.locale} is not across a passable border from "
                                      f"{start.locale}")
    if start.is_reserve:
        if to.locale == start.locale and battle_map.is_passable(start.locale, to.toward or 0):
            return None
        return Refusal("nt-movement", f"from R{start.locale} a unit may block only a passable "
                                      f"approach of {start.locale}")
    if to.is_reserve and to.locale in (start.locale, start.toward):
        return None
    return Refusal("nt-movement", f"from {start} a unit may move only to R{start.locale} or "
                                  f"R{start.toward}")


def destination_refusal(state: TriumphState, battle_map: BattleMap, side: str, count: int,
                        to: Position, start: Position) -> Refusal | None:
    """Capacity, one side per locale, stormed and closed reserves for the end of any move."""
    locale = battle_map.locales.get(to.locale)
    if locale is None:
        return Refusal("nt-movement", f"there is no locale {to.locale}")
    if not to.is_reserve and not battle_map.is_passable(to.locale, to.toward or 0):
        return Refusal("nt-movement", f"{to} is not a passable approach")
    occupant = state.occupant(to.locale)
    if occupant == opponent(side):
        return Refusal("nt-movement", f"{to.locale} is held by the enemy: moving there is an "
                                      f"attack (threaten it)")
    if to.locale != start.locale:
        if to.locale in state.turn.stormed:
            return Refusal("nt-movement", f"{to.locale} was stormed this turn: only the "
                                          f"victorious attackers enter it")
        if to.locale in state.turn.road_closed:
            return Refusal("nt-road", f"a corps marched by road into {to.locale} this turn: its "
                                      f"reserve is closed to other moves")
        present = len(state.units_in(to.locale, side))
        if present + count > locale.capacity:
            return Refusal("nt-capacity", f"{to.locale} holds at most {locale.capacity} units "
                                          f"({present} there, {count} moving)")
    return None


def road_move_refusal(state: TriumphState, battle_map: BattleMap, side: str, count: int,
                      corps_of_two: bool, start: Position, to: Position,
                      road: tuple[int, ...], all_cavalry: bool = False) -> Refusal | None:
    """Why a road move along `road` is illegal, or None: reach, stretches, room and halting."""
    if not start.is_reserve:
        return Refusal("nt-road", "a road move starts in a reserve")
    if not to.is_reserve:
        if not all_cavalry:
            return Refusal("nt-road", "a road move ends in the reserve of the last locale "
                                      "entered (only cavalry may end blocking)")
        arrivals = road_arrivals(battle_map, start.locale, road)
        if not any(step.target == to.toward and step.source_stretch == stretch
                   for stretch, _ in arrivals for step in battle_map.road_steps(to.locale)):
            return Refusal("nt-road", f"cavalry ends a road move blocking {to} only where its "
                                      f"road goes on across that approach")
    if not road or road[-1] != to.locale:
        return Refusal("nt-road", "the road must list the locales entered, ending with the "
                                  "destination")
    if len(set(road)) != len(road) or start.locale in road:
        return Refusal("nt-road", "a road move enters each locale once")
    if any(n not in battle_map.locales for n in road):
        return Refusal("nt-road", "the road names a locale that does not exist")
    if road_path_reach(battle_map, start.locale, road) is None:
        return Refusal("nt-road", f"no connected road from {start.locale} through "
                                  f"{', '.join(map(str, road))} within reach (2 by road, 3 by "
                                  f"main road)")
    enemy = opponent(side)
    for index, locale in enumerate(road):
        last = index == len(road) - 1
        if state.occupant(locale) == enemy:
            return Refusal("nt-road", f"{locale} is held by the enemy: a road move cannot "
                                      f"enter it")
        if locale in state.turn.road_closed or locale in state.turn.stormed:
            return Refusal("nt-road", f"the reserve of {locale} is closed this turn")
        if corps_of_two and locale in state.turn.stopped_in:
            return Refusal("nt-road", f"a unit already moved into {locale} this turn: a corps "
                                      f"of two or more may not enter it by road")
        if not last:
            present = len(state.units_in(locale, side))
            if present >= battle_map.locales[locale].capacity:
                return Refusal("nt-road", f"{locale} is full: a road move may not pass "
                                          f"through it")
            if corps_of_two and _beside_enemy_corps(state, battle_map, locale, enemy):
                return Refusal("nt-road", f"{locale} is beside an enemy corps of two or more "
                                          f"units: the corps must halt there")
    return destination_refusal(state, battle_map, side, count, to, start)


def _beside_enemy_corps(state: TriumphState, battle_map: BattleMap, locale: int,
                        enemy: str) -> bool:
    """True when a locale touching `locale` holds an enemy corps of two or more units."""
    for other in battle_map.touching(locale):
        for commander in state.commanders_in(other):
            if commander.side == enemy and len(state.corps(commander.name)) >= 2:
                return True
    return False


def road_paths(battle_map: BattleMap, start: int) -> list[tuple[int, ...]]:
    """Every connected road path from `start` within reach, ignoring the pieces on the map."""
    reach = constants()
    found: dict[tuple[int, ...], None] = {}
    stack: list[tuple[tuple[int, ...], int, int | None, bool]] = [((), start, None, True)]
    while stack:
        path, locale, stretch, main = stack.pop()
        for step in battle_map.road_steps(locale):
            if stretch is not None and step.source_stretch != stretch:
                continue
            if step.target == start or step.target in path:
                continue
            new_path = path + (step.target,)
            new_main = main and step.main
            limit = reach.main_reach if new_main else reach.local_reach
            if len(new_path) > limit:
                continue
            found[new_path] = None
            stack.append((new_path, step.target, step.target_stretch, new_main))
    return list(found)
