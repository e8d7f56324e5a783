"""French reinforcements (our reading 1.8, 1.3): an off-map corps enters by its entry road.

The entry is a Corps Move with `"entry": "F9"`: its `road` lists the locales entered, the first
being the entry locale, the last holding `to` (a reserve). The reach is 3 when the entry road
and every crossing after it are main roads, else 2. The first entry gives the French +4 morale
and switches the victory conditions (victory.py).
"""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.actions import CorpsMove
from engine.triumph.events import MoraleChanged, Reinforced
from engine.triumph.mapdata import BattleMap, Entry
from engine.triumph.movement import destination_refusal, road_arrivals, road_passage_refusal
from engine.triumph.pieces import FRENCH, Position
from engine.triumph.protocols import RulingGame
from engine.triumph.refusals import refusal
from engine.triumph.rules import constants, raw_order_of_battle
from engine.triumph.state import TriumphState

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
        return refusal("not-a-reinforcement", commander=name, side=side)
    if state.round < arrives:
        return refusal("too-early", commander=name, hour=arrives, round=state.round)
    if name in state.turn.commanded:
        return refusal("commander-commanded", commander=name)
    limit = constants().corps_commands[side]
    if limit is not None and state.turn.corps_commands >= limit:
        return refusal("entry-corps-commands-used", side=side, limit=limit)
    waiting = waiting_units(state, name)
    if readings.REINFORCEMENT_CORPS_ENTERS_WHOLE and sorted(action.units) != waiting:
        return refusal("enters-whole", commander=name, units=waiting)
    entry = battle_map.entries.get(action.entry or "")
    if entry is None or entry.side != side:
        return refusal("not-an-entry", entry=action.entry, side=side)
    road = action.road
    if not road or road[0] != entry.locale or road[-1] != action.to.locale:
        return refusal("entry-road", locale=entry.locale, entry=entry.id, road=road or ())
    if not action.to.is_reserve:
        return refusal("entry-ends-in-reserve", to=str(action.to))
    if len(set(road)) != len(road):
        return refusal("road-enters-once", road=road)
    reach = entry_reach(battle_map, entry, road)
    if reach is None:
        return refusal("entry-road-out-of-reach", entry=entry.id, road=road)
    count = len(action.units)
    passage = road_passage_refusal(state, battle_map, side, count >= 2, road)
    if passage:
        return passage
    # the start lies off the map: no locale of the map is "where the move began"
    return destination_refusal(state, battle_map, side, count, action.to, Position(0))


def entry_reach(battle_map: BattleMap, entry: Entry, road: tuple[int, ...]) -> int | None:
    """The reach of a road from an entry (3 if main all along, else 2), None if it breaks."""
    return max((reach for _, reach in entry_arrivals(battle_map, entry, road)), default=None)


def entry_arrivals(battle_map: BattleMap, entry: Entry, road: tuple[int, ...]
                   ) -> list[tuple[int, int]]:
    """(arrival stretch, reach) of a road that comes on by `entry` (its first locale is the
    entry locale, which counts as entered)."""
    if not road or road[0] != entry.locale:
        return []
    return road_arrivals(battle_map, entry.locale, road[1:], entry.stretch, entry.main, 1)


def apply_entry(game: RulingGame, action: CorpsMove) -> None:
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
    game.emit(Reinforced(action.side, action.commander, tuple(action.units), action.entry,
                         str(action.to), tuple(action.road or ()), second))
    _first_entry_bonus(game, action.side)


def enter_to_attack(game: RulingGame, side: str, commander: str, units: tuple[str, ...],
                    entry: str, locale: int) -> None:
    """A waiting corps attacking as it comes on (road_attacks.py) stands first on its entry
    locale, from which its road attack moves it on; that attack is its one command."""
    state = game.state
    at = Position(locale)
    for unit_id in units:
        state.units[unit_id].at, state.units[unit_id].off_map = at, False
    state.turn.moved.update(units)
    state.commanders[commander].at, state.commanders[commander].off_map = at, False
    state.turn.corps_commands += 1
    state.turn.commanded.add(commander)
    game.emit(Reinforced(side, commander, units, entry, str(at), (locale,), False))
    _first_entry_bonus(game, side)


def _first_entry_bonus(game: RulingGame, side: str) -> None:
    """The first French reinforcement to enter lifts French morale and switches victory."""
    state = game.state
    if side == FRENCH and not state.reinforcements_entered:
        state.reinforcements_entered = True
        bonus = int(raw_order_of_battle()["constants"]["reinforcement_morale_bonus"])
        before = state.morale[FRENCH]
        state.morale[FRENCH] = before + bonus
        game.emit(MoraleChanged(FRENCH, before, before + bonus,
                                "the first French reinforcement entered"))


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
            for road in paths_from(battle_map, entry):
                found[CorpsMove(side, name, units, Position(road[-1]), road, entry=entry.id)] = None
    return list(found)


def paths_from(battle_map: BattleMap, entry: Entry) -> list[tuple[int, ...]]:
    """Every road path within reach that comes on by `entry` (the entry locale first)."""
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
