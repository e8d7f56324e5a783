"""Cavalry attacks by road (1.9, open question 12): who may threaten, feint and ride in by road.

A road attack is made by cavalry not yet in the attack locale: it rides along a road into the
attack locale and, with reach left, on across the approach into the defence locale. Its orders
carry `"road"`: the locales entered in order up to and including the attack locale (3.5); the
defence locale is implied by the attack, and a road that names it as its last entry too is
read the same way. If the defender stands it must be a feint, ending in the attack locale (on its
reserve or its approach); if he retreats before combat the cavalry rides in. Either way its face
is revealed (1.16). Refusals name `nt-road`.
"""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.actions import CorpsMove, Order
from engine.triumph.commands import can_be_commanded
from engine.triumph.effects import reveal
from engine.triumph.mapdata import BattleMap
from engine.triumph.movement import (
    _beside_enemy_corps,
    road_move_refusal,
    road_path_reach,
    road_paths,
)
from engine.triumph.pieces import CAVALRY, Position, opponent
from engine.triumph.protocols import RulingGame
from engine.triumph.refusals import refusal
from engine.triumph.reinforcements import entry_arrivals, entry_refusal, paths_from, waiting_units
from engine.triumph.road_marches import march_orders
from engine.triumph.state import AttackState, TriumphState

RULE = "nt-road"


def is_road_attack(orders: tuple[Order, ...] | list[Order]) -> bool:
    """True when any command of an attack, feint or occupation goes by road."""
    return any(order.road is not None for order in orders)


def attack_road(road: tuple[int, ...], defence_locale: int) -> tuple[int, ...]:
    """The road of an attack as 3.5 writes it: up to the attack locale (a last entry naming
    the defence locale is dropped)."""
    return road[:-1] if road and road[-1] == defence_locale else road


def road_path_refusal(state: TriumphState, battle_map: BattleMap, side: str, start: Position,
                      road: tuple[int, ...], attack_locale: int, defence_locale: int,
                      count: int, corps_of_two: bool, into_defence: bool) -> Refusal | None:
    """Why `count` cavalry cannot attack by `road` from `start` now, or None.

    `into_defence` after a retreat before combat (they ride into the emptied locale); otherwise
    they ride up to the attack locale and must have the reach to go on into the defence locale.
    """
    if not start.is_reserve:
        return refusal("road-attack-from-reserve", start=str(start))
    road = attack_road(road, defence_locale)
    if (road[-1] if road else start.locale) != attack_locale:
        return refusal("road-attack-road", attack_locale=attack_locale,
                       defence_locale=defence_locale, road=road)
    full = road + (defence_locale,)
    if len(set(full)) != len(full) or start.locale in full:
        return refusal("road-enters-once", road=full)
    if road_path_reach(battle_map, start.locale, full) is None:
        return refusal("road-attack-reach", start=start.locale, road=road,
                       defence_locale=defence_locale)
    if into_defence:
        return road_move_refusal(state, battle_map, side, count, corps_of_two, start,
                                 Position(defence_locale), full, all_cavalry=True)
    if road:
        problem = road_move_refusal(state, battle_map, side, count, corps_of_two, start,
                                    Position(attack_locale), road, all_cavalry=True)
        if problem:
            return problem
    if corps_of_two and _beside_enemy_corps(state, battle_map, attack_locale, opponent(side)):
        return refusal("road-attack-halts", attack_locale=attack_locale)
    return None


def entry_attack_refusal(state: TriumphState, battle_map: BattleMap, side: str,
                         attack_locale: int, defence_locale: int, orders: tuple[Order, ...],
                         into_defence: bool) -> Refusal | None:
    """Why a waiting reinforcement corps cannot attack as it comes on by its entry road, or
    None: one Corps Move of the whole corps, all cavalry, along a road from the entry to the
    attack locale with the reach left to cross into the defence locale (our reading 1.8, 1.9;
    the reconstruction allows it)."""
    order = orders[0]
    if len(orders) != 1 or order.type != "corps_move" or order.commander is None:
        return refusal("entry-attack-corps")
    road = attack_road(order.road or (), defence_locale)
    if not road or road[-1] != attack_locale:
        return refusal("road-attack-road", attack_locale=attack_locale,
                       defence_locale=defence_locale, road=road)
    to = Position(defence_locale) if into_defence else Position(attack_locale)
    path = road + (defence_locale,) if into_defence else road
    move = CorpsMove(side, order.commander, order.units, to, path, entry=order.entry)
    problem = entry_refusal(state, battle_map, move)
    if problem:
        return problem
    if any(state.units[u].face.type != CAVALRY for u in order.units):
        return refusal("road-attack-cavalry",
                       units=[u for u in order.units if state.units[u].face.type != CAVALRY])
    entry = battle_map.entries[order.entry or ""]
    if not entry_arrivals(battle_map, entry, road + (defence_locale,)):
        return refusal("road-attack-reach", start=entry.locale, road=road,
                       defence_locale=defence_locale)
    if (not into_defence and len(order.units) >= 2
            and _beside_enemy_corps(state, battle_map, attack_locale, opponent(side))):
        return refusal("road-attack-halts", attack_locale=attack_locale)
    return None


def entry_orders(state: TriumphState, battle_map: BattleMap, side: str, attack_locale: int,
                 defence_locale: int, into_defence: bool = False) -> list[Order]:
    """The Corps Moves by which waiting cavalry corps could attack as they come on."""
    found = []
    for name, commander in state.commanders.items():
        units = tuple(waiting_units(state, name))
        if (commander.side != side or not commander.off_map or not units
                or any(state.units[u].face.type != CAVALRY for u in units)):
            continue
        for entry in battle_map.entries.values():
            if entry.side != side:
                continue
            for path in paths_from(battle_map, entry):
                order = Order("corps_move", commander=name, units=units, road=path,
                              entry=entry.id)
                if path[-1] == attack_locale and entry_attack_refusal(
                        state, battle_map, side, attack_locale, defence_locale, (order,),
                        into_defence) is None:
                    found.append(order)
    return found


def road_orders_refusal(game: RulingGame, attack: AttackState, orders: tuple[Order, ...]
                        ) -> Refusal | None:
    """Why commands going by road cannot carry out the attack's current step, or None.

    The commands themselves (limits, units, corps) are checked by `orders.check_orders`.
    """
    state = game.state
    if not all(order.road is not None for order in orders):
        return refusal("road-attack-all-by-road")
    if attack.step == "attack":
        return refusal("road-attack-must-feint")
    if any(order.entry is not None for order in orders):
        return entry_attack_refusal(state, game.map, attack.attacker, attack.attack_locale,
                                    attack.defence_locale, orders, attack.step == "occupy")
    if readings.ROAD_ATTACK_ONE_COMMAND and len(orders) > 1:
        return refusal("road-attack-one-command")
    roads = {attack_road(order.road or (), attack.defence_locale) for order in orders}
    if len(roads) > 1:
        return refusal("road-attack-one-road")
    units = [u for order in orders for u in order.moving_units]
    if any(state.units[u].face.type != CAVALRY for u in units):
        return refusal("road-attack-cavalry",
                       units=[u for u in units if state.units[u].face.type != CAVALRY])
    starts = {state.units[u].at for u in units}
    if len(starts) > 1:
        return refusal("road-attack-one-reserve")
    start = next(iter(starts))
    road = next(iter(roads))
    assert start is not None and road is not None
    corps_of_two = any(order.type == "corps_move" and len(order.units) >= 2 for order in orders)
    return road_path_refusal(state, game.map, attack.attacker, start, road,
                             attack.attack_locale, attack.defence_locale, len(units),
                             corps_of_two, into_defence=attack.step == "occupy")


def road_riders(game: RulingGame, side: str, attack_locale: int, defence_locale: int,
                into_defence: bool = False) -> list[tuple[str, tuple[int, ...]]]:
    """(unit, road) for each cavalry unit that could attack alone by that road now."""
    state, battle_map = game.state, game.map
    found = []
    for unit in state.units.values():
        if (unit.side != side or unit.at is None or not unit.at.is_reserve
                or unit.face.type != CAVALRY or unit.at.locale == attack_locale
                or not can_be_commanded(state, side, unit)):
            continue
        for road in road_paths(battle_map, unit.at.locale):
            if road[-2:] != (attack_locale, defence_locale):
                continue
            if road_path_refusal(state, battle_map, side, unit.at, road, attack_locale,
                                 defence_locale, 1, False, into_defence) is None:
                found.append((unit.id, road[:-1]))
    return found


def road_order_sets(game: RulingGame, attack: AttackState, into_defence: bool
                    ) -> list[tuple[Order, ...]]:
    """Plausible road commands for a feint or occupation: each rider alone, and with its corps."""
    state = game.state
    found: dict[tuple[Order, ...], None] = {}
    riders = road_riders(game, attack.attacker, attack.attack_locale, attack.defence_locale,
                         into_defence)
    for unit_id, road in riders:
        unit = state.units[unit_id]
        found[(Order("unit_move", unit=unit_id, road=road),)] = None
        if unit.commander is not None:
            name = unit.commander
            found[(Order("corps_move", commander=name, units=(unit_id,), road=road),)] = None
            horse = tuple(u.id for u in state.corps(name) if u.at == unit.at
                          and u.face.type == CAVALRY and u.id not in state.turn.moved)
            if len(horse) > 1:
                found[(Order("corps_move", commander=name, units=horse, road=road),)] = None
    if into_defence:  # cavalry in the attack locale may ride in by road, to ride on after
        for unit in state.units_at(Position(attack.attack_locale)):
            if unit.face.type == CAVALRY and can_be_commanded(state, attack.attacker, unit):
                found[(Order("unit_move", unit=unit.id, road=()),)] = None
    for order in entry_orders(state, game.map, attack.attacker, attack.attack_locale,
                              attack.defence_locale, into_defence) + march_orders(state):
        found[(order,)] = None
    return list(found)


def reveal_riders(game: RulingGame, orders: tuple[Order, ...]) -> None:
    """1.16: cavalry that attacks by road shows its face."""
    reveal(game, [u for order in orders for u in order.moving_units], "cavalry attacking by road")


def road_march_marks(game: RulingGame, attack: AttackState, orders: tuple[Order, ...],
                     end: int) -> None:
    """The marks of a road attack that ended in locale `end`, the attack or the defence locale
    (1.8: the reserve entered and stopped in; for a corps of two, every reserve entered)."""
    turn = game.state.turn
    given = next(order.road for order in orders if order.road is not None)
    assert given is not None
    road = attack_road(given, attack.defence_locale) + (attack.defence_locale,)
    entered = road[:road.index(end) + 1] if end in road else ()
    if not entered:
        return  # cavalry that stood in the attack locale and feinted from there
    turn.stopped_in.add(end)
    if any(order.type == "corps_move" and len(order.units) >= 2 for order in orders):
        turn.road_closed.update(entered)
