"""The commands of an attack, feint or occupation (1.7, 1.9): checking them and spending them."""

from __future__ import annotations

from engine.triumph import readings
from engine.triumph.actions import Order
from engine.triumph.commands import corps_units_refusal, unit_refusal
from engine.triumph.pieces import Position
from engine.triumph.protocols import RulingGame
from engine.triumph.refusals import Refused, refused
from engine.triumph.reinforcements import enter_to_attack
from engine.triumph.road_attacks import is_road_attack, road_orders_refusal
from engine.triumph.road_marches import is_march_order, march_attack_refusal
from engine.triumph.rules import constants
from engine.triumph.state import AttackState


def check_orders(game: RulingGame, attack: AttackState, orders: tuple[Order, ...]
                 ) -> Position:
    """Check the commands of an attack, feint or occupation; returns their start position."""
    state = game.state
    if not orders:
        raise refused("name-commands")
    if is_march_order(state, orders, attack.defence_locale):
        # the cavalry that took the attack locale by road rides on: no new command
        if attack.step == "attack":
            raise refused("road-attack-must-feint")
        problem = march_attack_refusal(state, game.map, attack.attacker, attack.attack_locale,
                                       attack.defence_locale, attack.step == "occupy")
        if problem:
            raise Refused(problem)
        attack.riding_on = True
        return Position(attack.attack_locale)
    state.turn.road_march = None  # any other order closes the road march
    if any(order.entry is not None for order in orders):
        # a waiting corps attacking as it comes on: its entry is checked as its command
        problem = road_orders_refusal(game, attack, orders)
        if problem:
            raise Refused(problem)
        return Position((orders[0].road or (attack.attack_locale,))[0])
    starts: set[Position] = set()
    seen: set[str] = set()
    independent = 0
    for order in orders:
        if order.type == "unit_move":
            assert order.unit is not None
            problem = unit_refusal(state, attack.attacker, order.unit)
            if problem is None:
                unit = state.units[order.unit]
                if unit.commander is not None and len(state.corps(unit.commander)) <= 1:
                    raise refused("order-last-unit", unit=order.unit,
                                  commander=unit.commander)
                independent += 1
        elif order.type == "corps_move":
            assert order.commander is not None
            problem = corps_units_refusal(state, attack.attacker, order.commander, order.units,
                                          proper=False)
            if problem is None and order.commander in seen:
                raise refused("one-command-a-turn", commander=order.commander)
            seen.add(order.commander)
        else:
            raise refused("attack-command-kind", kind=order.type)
        if problem:
            raise Refused(problem)
        for unit_id in order.moving_units:
            position = state.units[unit_id].at
            assert position is not None
            starts.add(position)
    units = [u for order in orders for u in order.moving_units]
    if len(set(units)) != len(units):
        raise refused("one-move-a-turn",
                      units=sorted({u for u in units if units.count(u) > 1}))
    taken: dict[str, int] = {}
    for order in orders:
        commander = state.units[order.unit].commander if order.unit is not None else None
        if order.type == "unit_move" and commander is not None:
            taken[commander] = taken.get(commander, 0) + 1
            if taken[commander] >= len(state.corps(commander)):
                raise refused("unit-moves-take-all", commander=commander)

    limits = constants()
    if state.turn.independent_commands + independent > limits.independent_commands[
            attack.attacker]:
        raise refused("independent-commands-short", count=independent,
                      side=attack.attacker)
    corps_limit = limits.corps_commands[attack.attacker]
    if corps_limit is not None and state.turn.corps_commands + len(seen) > corps_limit:
        raise refused("corps-commands-short", side=attack.attacker, limit=corps_limit)
    if is_road_attack(orders):
        problem = road_orders_refusal(game, attack, orders)
        if problem:
            raise Refused(problem)
        return next(iter(starts))
    allowed = {Position(attack.attack_locale),
               Position(attack.attack_locale, attack.defence_locale)}
    if not starts <= allowed:
        raise refused("attackers-start", attack_locale=attack.attack_locale,
                      defence_locale=attack.defence_locale)
    if len(starts) > 1 and readings.ATTACK_ORDERS_SAME_POSITION:
        raise refused("attack-one-position", positions=sorted(map(str, starts)))
    return next(iter(starts))


def spend_orders(game: RulingGame, attack: AttackState, orders: tuple[Order, ...]) -> None:
    """Count the commands and mark the units moved; a Corps Move leaves the others behind.

    A waiting corps attacking as it comes on is placed on its entry locale first."""
    state = game.state
    attack.orders = list(orders)
    attack.attackers = [u for order in orders for u in order.moving_units]
    attack.moving_commanders = [o.commander for o in orders
                                if o.type == "corps_move" and o.commander is not None]
    entering = orders[0].entry
    if entering is not None and orders[0].commander is not None and orders[0].road:
        enter_to_attack(game, attack.attacker, orders[0].commander, orders[0].units, entering,
                        orders[0].road[0])
    first = state.units[attack.attackers[0]].at
    attack.start = first
    if attack.riding_on or entering is not None:
        return  # riding on costs nothing more; an entry was the corps' command
    for order in orders:
        if order.type == "unit_move":
            assert order.unit is not None
            state.turn.independent_commands += 1
            state.units[order.unit].commander = None
        else:
            assert order.commander is not None
            state.turn.corps_commands += 1
            state.turn.commanded.add(order.commander)
            for unit in state.corps(order.commander):
                if unit.id not in order.units:
                    unit.commander = None
    state.turn.moved.update(attack.attackers)
