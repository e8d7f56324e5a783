"""Movement (1.8): the four ordinary moves, road moves and what every move must respect."""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import Position, opponent
from engine.triumph.refusals import refusal
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


def road_arrivals(battle_map: BattleMap, start: int, path: list[int] | tuple[int, ...],
                  stretch: int | None = None, main: bool = True, entered: int = 0
                  ) -> list[tuple[int, int]]:
    """(arrival stretch in the last locale, reach) for each way of travelling the path in reach.

    The road leaves `start` on `stretch` (None: any of its stretches) with `main` telling
    whether it has been the main road so far; `entered` locales were already entered before
    `path` (an entry road's own locale) and count against the reach.
    """
    if not path and stretch is None:
        return []
    reach = constants()
    found: list[tuple[int, int]] = []
    # (locale, arrival stretch or None at the start, all crossings so far main)
    frontier: list[tuple[int, int | None, bool]] = [(start, stretch, main)]
    for target in path:
        following = []
        for locale, arrived, so_far in frontier:
            for step in battle_map.road_steps(locale):
                if step.target == target and (arrived is None or step.source_stretch == arrived):
                    following.append((target, step.target_stretch, so_far and step.main))
        frontier = list(dict.fromkeys(following))
        if not frontier:
            return []
    for _, arrived, so_far in frontier:
        limit = reach.main_reach if so_far else reach.local_reach
        if len(path) + entered <= limit and arrived is not None:
            found.append((arrived, limit))
    return found


def ordinary_move_refusal(battle_map: BattleMap, start: Position, to: Position) -> Refusal | None:
    """Why `start` -> `to` is not one of the four ordinary moves, or None when it is one."""
    if start.is_reserve and to.is_reserve:
        if battle_map.is_passable(start.locale, to.locale):
            return None
        return refusal("not-adjacent", locale=to.locale, start=start.locale)
    if start.is_reserve:
        if to.locale == start.locale and battle_map.is_passable(start.locale, to.toward or 0):
            return None
        return refusal("block-own-approach", locale=start.locale, to=str(to))
    if to.is_reserve and to.locale in (start.locale, start.toward):
        return None
    return refusal("from-approach", start=str(start), locale=start.locale, toward=start.toward,
                   to=str(to))


def destination_refusal(state: TriumphState, battle_map: BattleMap, side: str, count: int,
                        to: Position, start: Position) -> Refusal | None:
    """Capacity, one side per locale, stormed and closed reserves for the end of any move."""
    locale = battle_map.locales.get(to.locale)
    if locale is None:
        return refusal("no-such-locale", locale=to.locale)
    if not to.is_reserve and not battle_map.is_passable(to.locale, to.toward or 0):
        return refusal("not-passable-approach", position=str(to))
    occupant = state.occupant(to.locale)
    if occupant == opponent(side):
        return refusal("enemy-locale", locale=to.locale)
    if to.locale != start.locale:
        if to.locale in state.turn.stormed:
            return refusal("stormed", locale=to.locale)
        if to.locale in state.turn.road_closed:
            return refusal("road-closed-reserve", locale=to.locale)
        present = len(state.units_in(to.locale, side))
        if present + count > locale.capacity:
            return refusal("capacity", locale=to.locale, capacity=locale.capacity,
                               present=present, count=count)
    return None


def road_move_refusal(state: TriumphState, battle_map: BattleMap, side: str, count: int,
                      corps_of_two: bool, start: Position, to: Position,
                      road: tuple[int, ...], all_cavalry: bool = False) -> Refusal | None:
    """Why a road move along `road` is illegal, or None: reach, stretches, room and halting."""
    if not start.is_reserve:
        return refusal("road-starts-in-reserve", start=str(start))
    if not to.is_reserve:
        if not all_cavalry:
            return refusal("road-ends-in-reserve", to=str(to))
        arrivals = road_arrivals(battle_map, start.locale, road)
        if not any(step.target == to.toward and step.source_stretch == stretch
                   for stretch, _ in arrivals for step in battle_map.road_steps(to.locale)):
            return refusal("cavalry-blocks-on-road", position=str(to))
    if not road or road[-1] != to.locale:
        return refusal("road-ends-at-destination", road=road, to=str(to))
    if len(set(road)) != len(road) or start.locale in road:
        return refusal("road-enters-once", road=road)
    if any(n not in battle_map.locales for n in road):
        return refusal("road-unknown-locale", road=road)
    if road_path_reach(battle_map, start.locale, road) is None:
        return refusal("road-out-of-reach", start=start.locale, road=road)
    return (road_passage_refusal(state, battle_map, side, corps_of_two, road)
            or destination_refusal(state, battle_map, side, count, to, start))


def road_passage_refusal(state: TriumphState, battle_map: BattleMap, side: str,
                         corps_of_two: bool, road: tuple[int, ...]) -> Refusal | None:
    """Why a road move may not enter and pass the locales of `road` (the last one is where it
    stops), or None: enemy locales, closed reserves, full locales, halting beside enemy corps."""
    enemy = opponent(side)
    for index, locale in enumerate(road):
        last = index == len(road) - 1
        if state.occupant(locale) == enemy:
            return refusal("road-enemy-locale", locale=locale)
        if locale in state.turn.road_closed or locale in state.turn.stormed:
            return refusal("road-reserve-closed", locale=locale)
        if corps_of_two and locale in state.turn.stopped_in:
            return refusal("road-reserve-entered", locale=locale)
        if not last:
            present = len(state.units_in(locale, side))
            if present >= battle_map.locales[locale].capacity:
                return refusal("road-full-locale", locale=locale)
            if corps_of_two and _beside_enemy_corps(state, battle_map, locale, enemy):
                return refusal("road-halts", locale=locale)
    return None


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
