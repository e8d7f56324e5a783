"""Cavalry riding on after a road attack (our reading 1.9 and open question 12, L; the public
reconstruction, justinkwaugh/tabletop `src/model/roadAttack.spec.ts`, rules it so).

Cavalry that takes a locale by road (it rode in when the defender retreated before its threat)
has not finished its road move: until another order is given this turn, the same command may
ride on along its road with the reach it has left, at no further cost:

- on by road as a move: a `unit_move` / `corps_move` of exactly the riders whose `road` goes on
  from the locale they took, ending as any cavalry road move ends (a reserve, or an approach its
  road crosses);
- or into another attack: they threaten again from the locale they took; if the defender stands
  they must feint, and if he retreats they ride in again (and may ride on once more). Their orders
  carry `"road": []`: they enter no locale before the defence locale.

Any other command, an attack carried out by other pieces, or the end of the turn closes the road
march (`TurnState.road_march`).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.refusals import Refusal
from engine.triumph.actions import CorpsMove, Order, UnitMove
from engine.triumph.mapdata import BattleMap
from engine.triumph.movement import (
    _beside_enemy_corps,
    destination_refusal,
    road_arrivals,
    road_passage_refusal,
)
from engine.triumph.pieces import Position, opponent
from engine.triumph.refusals import refusal
from engine.triumph.reinforcements import entry_arrivals
from engine.triumph.state import RoadMarch, TriumphState


def march_arrivals(battle_map: BattleMap, march: RoadMarch, more: tuple[int, ...]
                   ) -> list[tuple[int, int]]:
    """(arrival stretch, reach) of the march's road travelled on through `more`."""
    path = march.path + more
    if march.entry is not None:
        return entry_arrivals(battle_map, battle_map.entries[march.entry], path)
    assert march.start is not None
    return road_arrivals(battle_map, march.start, path)


def _riders_of(march: RoadMarch, commander: str | None, units: tuple[str, ...]) -> bool:
    """True when a command names exactly the march's riders under the march's command."""
    return set(units) == set(march.units) and commander == march.commander


def is_march_order(state: TriumphState, orders: tuple[Order, ...], defence_locale: int) -> bool:
    """True when an attack's orders are the open march riding on (`road` naming no locale
    before the defence locale)."""
    march = state.turn.road_march
    if march is None or len(orders) != 1 or orders[0].entry is not None:
        return False
    order = orders[0]
    road = order.road
    if road is None or road not in ((), (defence_locale,)):
        return False
    commander = order.commander if order.type == "corps_move" else None
    return _riders_of(march, commander, order.moving_units)


def march_attack_refusal(state: TriumphState, battle_map: BattleMap, side: str,
                         attack_locale: int, defence_locale: int, into_defence: bool
                         ) -> Refusal | None:
    """Why the open march cannot carry out an attack across attack>defence now, or None."""
    march = state.turn.road_march
    if march is None or march.path[-1] != attack_locale or any(
            state.units[u].side != side or state.units[u].at != Position(attack_locale)
            for u in march.units):
        return refusal("ride-on-units", locale=attack_locale,
                       units=march.units if march else ())
    if not march_arrivals(battle_map, march, (defence_locale,)):
        return refusal("road-attack-reach", start=march.start or march.path[0], road=march.path,
                       defence_locale=defence_locale)
    corps_of_two = march.commander is not None and len(march.units) >= 2
    if into_defence:
        return (road_passage_refusal(state, battle_map, side, corps_of_two, (defence_locale,))
                or destination_refusal(state, battle_map, side, len(march.units),
                                       Position(defence_locale), Position(attack_locale)))
    if corps_of_two and _beside_enemy_corps(state, battle_map, attack_locale, opponent(side)):
        return refusal("road-attack-halts", attack_locale=attack_locale)
    return None


def march_orders(state: TriumphState) -> list[Order]:
    """The order by which the open march rides on into an attack (none without a march)."""
    march = state.turn.road_march
    if march is None:
        return []
    if march.commander is None:
        return [Order("unit_move", unit=march.units[0], road=())]
    return [Order("corps_move", commander=march.commander, units=march.units, road=())]


def is_ride_on(state: TriumphState, action: CorpsMove | UnitMove) -> bool:
    """True when a move is the open march riding on by road."""
    march = state.turn.road_march
    if march is None or action.road is None or getattr(action, "entry", None) is not None:
        return False
    if isinstance(action, UnitMove):
        return _riders_of(march, None, (action.unit,))
    return _riders_of(march, action.commander, action.units)


def ride_on_refusal(state: TriumphState, battle_map: BattleMap, action: CorpsMove | UnitMove
                    ) -> Refusal | None:
    """Why the riders cannot ride on along `action.road` to `action.to`, or None."""
    march = state.turn.road_march
    assert march is not None and action.road is not None
    road, to = action.road, action.to
    # an empty road stays in the locale taken, ending blocking an approach the road crosses
    if (road[-1] if road else march.path[-1]) != to.locale or (not road and to.is_reserve):
        return refusal("road-ends-at-destination", road=road, to=str(to))
    full = march.path + road
    if len(set(full)) != len(full) or march.start in full:
        return refusal("road-enters-once", road=full)
    arrivals = march_arrivals(battle_map, march, road)
    if not arrivals:
        return refusal("road-out-of-reach", start=march.start or march.path[0], road=full)
    if not to.is_reserve and not any(
            step.target == to.toward and step.source_stretch == stretch
            for stretch, _ in arrivals for step in battle_map.road_steps(to.locale)):
        return refusal("cavalry-blocks-on-road", position=str(to))
    corps_of_two = march.commander is not None and len(march.units) >= 2
    return (road_passage_refusal(state, battle_map, action.side, corps_of_two, road)
            or destination_refusal(state, battle_map, action.side, len(march.units), to,
                                   Position(march.path[-1])))


def apply_ride_on(state: TriumphState, action: CorpsMove | UnitMove) -> Position:
    """Carry out a checked ride on: the riders (and a Corps Move's commander) move, the road
    march ends; returns where they started."""
    march = state.turn.road_march
    assert march is not None and action.road is not None
    start = Position(march.path[-1])
    for unit_id in march.units:
        state.units[unit_id].at = action.to
    if march.commander is not None:
        state.commanders[march.commander].at = action.to
    state.turn.stopped_in.add(action.to.locale)
    if march.commander is not None and len(march.units) >= 2:
        state.turn.road_closed.update(action.road)
    state.turn.road_march = None
    return start


def extended(march: RoadMarch, locale: int) -> RoadMarch:
    """The march once its riders have ridden on into `locale`."""
    return replace(march, path=march.path + (locale,))
