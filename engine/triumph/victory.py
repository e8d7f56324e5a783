"""Winning on objectives after the 4:00 PM French turn (RB 16): control traced by road, the verdict."""

from __future__ import annotations

from dataclasses import dataclass

from engine.triumph import readings
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import ALLIED, ARTILLERY, FRENCH, INFANTRY, opponent
from engine.triumph.state import TriumphState

FRENCH_COLOURS = ("green", "red", "black")
ALLIED_COLOUR = "blue"
OBJECTIVES = "objectives"


@dataclass(frozen=True)
class Judgement:
    """Who wins on objectives, why, and the objective locales each side controls."""

    winner: str
    why: str
    control: dict[str, list[int]]


def main_entries(battle_map: BattleMap, side: str) -> list[tuple[int, int]]:
    """(locale, stretch) where each of the side's main-road entries comes onto the map."""
    return [(e.locale, e.stretch) for e in battle_map.entries.values()
            if e.side == side and e.main]


def road_reach(state: TriumphState, battle_map: BattleMap, side: str) -> set[int]:
    """Locales reached by road from the side's main-road entries through no enemy locale."""
    enemy = opponent(side)
    start = [(loc, s) for loc, s in main_entries(battle_map, side)
             if state.occupant(loc) != enemy]
    seen = set(start)
    frontier = list(start)
    while frontier:
        locale, stretch = frontier.pop()
        for step in battle_map.road_steps(locale):
            node = (step.target, step.target_stretch)
            if step.source_stretch != stretch or node in seen:
                continue
            if state.occupant(step.target) == enemy:
                continue
            seen.add(node)
            frontier.append(node)
    return {locale for locale, _ in seen}


def holds(state: TriumphState, side: str, locale: int) -> bool:
    """True when a corps of `side` stands in `locale` with infantry or artillery (1.14)."""
    for unit in state.units_in(locale, side):
        if not readings.CONTROL_NEEDS_CORPS_FOOT_OR_GUNS:
            return True
        if unit.commander is not None and unit.face.type in (INFANTRY, ARTILLERY):
            return True
    return False


def controlled(state: TriumphState, battle_map: BattleMap, side: str, colours: tuple[str, ...]
               ) -> list[int]:
    """Objective locales of the given star colours that `side` controls, in number order."""
    reach = road_reach(state, battle_map, side)
    return sorted(number for number, locale in battle_map.locales.items()
                  if set(colours) & set(locale.stars) and number in reach
                  and holds(state, side, number))


def judge(state: TriumphState, battle_map: BattleMap) -> Judgement:
    """The objective verdict of 1.14, which depends on whether French reinforcements entered."""
    french = controlled(state, battle_map, FRENCH, FRENCH_COLOURS)
    allied = controlled(state, battle_map, ALLIED, (ALLIED_COLOUR,))
    control = {FRENCH: french, ALLIED: allied}
    colours_held = {c for c in FRENCH_COLOURS
                    if any(c in battle_map.locales[n].stars for n in french)}
    if state.reinforcements_entered:
        if colours_held == set(FRENCH_COLOURS) and not allied:
            return Judgement(FRENCH, "reinforced French hold green, red and black and the "
                                     "Allies hold no blue objective", control)
        missing = sorted(set(FRENCH_COLOURS) - colours_held)
        why = (f"the Allies hold blue objective {allied[0]}" if allied else
               f"the reinforced French hold no {' or '.join(missing)} objective")
        return Judgement(ALLIED, why, control)
    if allied and not french:
        return Judgement(ALLIED, "the Allies hold a blue objective and the French (not "
                                 "reinforced) hold no green, red or black one", control)
    why = (f"the French (not reinforced) hold objective {french[0]}" if french else
           "the Allies hold no blue objective")
    return Judgement(FRENCH, why, control)
