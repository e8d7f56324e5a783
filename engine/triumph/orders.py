"""The commands of an attack, feint or occupation (1.7, 1.9): checking them and spending them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.triumph import readings
from engine.triumph.actions import Order
from engine.triumph.commands import corps_units_refusal, unit_refusal
from engine.triumph.pieces import Position
from engine.triumph.road_attacks import is_road_attack, road_orders_refusal
from engine.triumph.rules import constants
from engine.triumph.state import AttackState

if TYPE_CHECKING:
    from engine.triumph.game import TriumphGame


def check_orders(game: TriumphGame, attack: AttackState, orders: tuple[Order, ...]
                 ) -> Position:
    """Check the commands of an attack, feint or occupation; returns their start position."""
    state = game.state
    if not orders:
        raise game.refuse("nt-attack", "name at least one command")
    starts: set[Position] = set()
    seen: set[str] = set()
    independent = 0
    for order in orders:
        if order.type == "unit_move":
            assert order.unit is not None
            refusal = unit_refusal(state, attack.attacker, order.unit)
            if refusal is None:
                unit = state.units[order.unit]
                if unit.commander is not None and len(state.corps(unit.commander)) <= 1:
                    raise game.refuse("nt-commands", f"{order.unit} is the last unit of its "
                                                     f"corps: use a Corps Move")
                independent += 1
        elif order.type == "corps_move":
            assert order.commander is not None
            refusal = corps_units_refusal(state, attack.attacker, order.commander, order.units,
                                          proper=False)
            if refusal is None and order.commander in seen:
                raise game.refuse("nt-commands", f"{order.commander} gives one command a turn")
            seen.add(order.commander)
        else:
            raise game.refuse("nt-attack", f"attacks are made by unit_move or corps_move, not "
                                           f"{order.type}")
        if refusal:
            raise game.refuse(refusal.rule, refusal.message)
        for unit_id in order.moving_units:
            position = state.units[unit_id].at
            assert position is not None
            starts.add(position)
    units = [u for order in orders for u in order.moving_units]
    if len(set(units)) != len(units):
        raise game.refuse("nt-commands", "a unit moves by one command a turn")
    taken: dict[str, int] = {}
    for order in orders:
        commander = state.units[order.unit].commander if order.unit is not None else None
        if order.type == "unit_move" and commander is not None:
            taken[commander] = taken.get(commander, 0) + 1
            if taken[commander] >= len(state.corps(commander)):
                raise game.refuse("nt-commands", f"Unit Moves may not take all of "
                                                 f"{commander}'s units: use a Corps Move")

    limits = constants()
    if state.turn.independent_commands + independent > limits.independent_commands[
            attack.attacker]:
        raise game.refuse("nt-commands", f"not enough independent commands left for "
                                         f"{independent} Unit Moves")
    corps_limit = limits.corps_commands[attack.attacker]
    if corps_limit is not None and state.turn.corps_commands + len(seen) > corps_limit:
        raise game.refuse("nt-commands", f"the {attack.attacker} army has only {corps_limit} "
                                         f"corps commands a turn")
    if is_road_attack(orders):
        refusal = road_orders_refusal(game, attack, orders)
        if refusal:
            raise game.refuse(refusal.rule, refusal.message)
        return next(iter(starts))
    allowed = {Position(attack.attack_locale),
               Position(attack.attack_locale, attack.defence_locale)}
    if not starts <= allowed:
        raise game.refuse("nt-attack", f"attackers start in R{attack.attack_locale} or on "
                                       f"{attack.attack_locale}>{attack.defence_locale}")
    if len(starts) > 1 and readings.ATTACK_ORDERS_SAME_POSITION:
        raise game.refuse("nt-attack", "the commands of one attack start from one position")
    return next(iter(starts))


def spend_orders(game: TriumphGame, attack: AttackState, orders: tuple[Order, ...]) -> None:
    """Count the commands and mark the units moved; a Corps Move leaves the others behind."""
    state = game.state
    attack.orders = list(orders)
    attack.attackers = [u for order in orders for u in order.moving_units]
    attack.moving_commanders = [o.commander for o in orders
                                if o.type == "corps_move" and o.commander is not None]
    first = state.units[attack.attackers[0]].at
    attack.start = first
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
