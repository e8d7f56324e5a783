"""Artillery's own rules: the repeat-fire limit, and the fixed battery that never moves.

The fixed battery (our reading 1.4, 1.7) blocks an approach of the locale it stands in for the
whole game. It may lead an artillery attack across that approach (by a Unit Move: artillery
never leads in a Corps Move) or feint where it stands, and it may belong to a corps; it never
moves: not into a locale it attacked, not onto an approach in an advance, not by any command.
"""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.actions import Order
from engine.triumph.commands import independent_command_refusal
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import ARTILLERY, FRENCH, Position, Unit
from engine.triumph.refusals import refusal
from engine.triumph.state import TriumphState


def fire_refusal(state: TriumphState, battle_map: BattleMap, attack_locale: int,
                 defence_locale: int) -> Refusal | None:
    """Why artillery may not lead across `attack_locale`>`defence_locale` now, or None: not in
    consecutive rounds unless it fires down from a hill (twice in a turn the closed approach
    already forbids)."""
    if not readings.ARTILLERY_REPEAT_FIRE_LIMIT:
        return None
    last = state.artillery_fire.get((attack_locale, defence_locale))
    downhill = (battle_map.locales[attack_locale].hill
                and not battle_map.locales[defence_locale].hill)
    if last == state.round - 1 and not downhill:
        return refusal("artillery-fired-last-round", attack_locale=attack_locale,
                       defence_locale=defence_locale)
    return None


def attack_fire_refusal(state: TriumphState, battle_map: BattleMap, attack_locale: int,
                        defence_locale: int, artillery_led: bool, attackers: list[str]
                        ) -> Refusal | None:
    """The artillery rules of an attack's declaration: the fixed battery attacks only by
    leading with its fire, and artillery leads only where it may fire now."""
    if state.fixed_battery in attackers and not artillery_led:
        return refusal("battery-attacks-only-by-fire", unit=state.fixed_battery)
    if not artillery_led:
        return None
    return fire_refusal(state, battle_map, attack_locale, defence_locale)


def is_battery(state: TriumphState, unit_id: str | None) -> bool:
    """True for the fixed battery."""
    return unit_id is not None and unit_id == state.fixed_battery


def battery_position_problem(state: TriumphState) -> str | None:
    """What is wrong with the fixed battery of a position, or None (1.4)."""
    battery = state.units.get(state.fixed_battery or "")
    if battery is None or battery.side != FRENCH or battery.face.type != ARTILLERY:
        return "fixed_battery must name a French artillery unit"
    if battery.at is None or battery.at.is_reserve:
        return (f"the fixed battery {battery.id} blocks an approach of the locale it stands in "
                f"(not {battery.at or 'off the map'})")
    return None


def battery_may_carry_out(state: TriumphState, battle_map: BattleMap, unit: Unit,
                          attack_locale: int, defence_locale: int) -> bool:
    """Whether the fixed battery itself could carry out an attack across the approach now: it
    blocks that approach, could lead by a Unit Move (not its corps' last unit) and may fire."""
    if unit.at != Position(attack_locale, defence_locale):
        return False
    if independent_command_refusal(state, unit.side) is not None:
        return False
    if unit.commander is not None and len(state.corps(unit.commander)) <= 1:
        return False
    return fire_refusal(state, battle_map, attack_locale, defence_locale) is None


def holds_in_place(state: TriumphState, orders: tuple[Order, ...] | list[Order]) -> bool:
    """True when an occupation is the fixed battery's own Unit Move (1.9 step 2, reading
    FIXED_BATTERY_HOLDS_AFTER_RETREAT: it carries the attack out where it stands, as it would
    lead it: by a Unit Move)."""
    return (readings.FIXED_BATTERY_HOLDS_AFTER_RETREAT and len(orders) == 1
            and orders[0].type == "unit_move" and is_battery(state, orders[0].unit))


def occupation_battery_refusal(state: TriumphState, orders: tuple[Order, ...] | list[Order]
                               ) -> Refusal | None:
    """The fixed battery never moves into the emptied locale; alone it may only hold."""
    moving = [u for order in orders for u in order.moving_units]
    if state.fixed_battery not in moving:
        return None
    if not holds_in_place(state, orders):
        return refusal("battery-never-occupies", unit=state.fixed_battery)
    return None
