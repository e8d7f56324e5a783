"""Retreats (1.10): which groups lose steps, where survivors may go, which unit a corps keeps."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.actions import Retreat
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import ARTILLERY, CAVALRY, INFANTRY, Position, opponent
from engine.triumph.refusals import refusal
from engine.triumph.state import AttackState, TriumphState


@dataclass(frozen=True)
class LossGroup:
    """Units that lose `steps` between them as their owner chooses (capped by their strength)."""

    units: tuple[str, ...]
    steps: int
    what: str


@dataclass(frozen=True)
class RetreatPlan:
    """Every piece that must retreat, the artillery lost outright and the loss groups."""

    units: tuple[str, ...]
    artillery: tuple[str, ...]
    groups: tuple[LossGroup, ...]
    commanders: tuple[str, ...]


def retreat_plan(state: TriumphState, battle_map: BattleMap, attack: AttackState) -> RetreatPlan:
    """The defender's retreat from the defence locale (before or after combat)."""
    locale = attack.defence_locale
    units = [u for u in state.units_in(locale, attack.defender)]
    named = set(attack.defenders) if readings.NAMED_DEFENDERS_SPARED_IN_RETREAT else set()
    defence_border = battle_map.border(locale, attack.attack_locale)
    assert defence_border is not None
    groups = []
    reserve_infantry = tuple(u.id for u in units if u.at is not None and u.at.is_reserve
                             and u.face.type == INFANTRY and u.id not in named)
    if reserve_infantry:
        groups.append(LossGroup(reserve_infantry, 2 if defence_border.wide else 1,
                                f"infantry in R{locale}"))
    towards = sorted({u.at.toward for u in units if u.at is not None and u.at.toward is not None})
    for toward in towards:
        if toward == attack.attack_locale:
            continue
        blockers = tuple(u.id for u in units if u.at == Position(locale, toward)
                         and u.face.type in (INFANTRY, CAVALRY) and u.id not in named)
        border = battle_map.border(locale, toward)
        if blockers and border is not None:
            groups.append(LossGroup(blockers, 2 if border.wide else 1,
                                    f"units at {locale}>{toward}"))
    artillery = tuple(u.id for u in units if u.face.type == ARTILLERY)
    commanders = tuple(c.name for c in state.commanders_in(locale) if c.side == attack.defender)
    return RetreatPlan(tuple(u.id for u in units), artillery, tuple(groups), commanders)


def retreat_targets(state: TriumphState, battle_map: BattleMap, attack: AttackState) -> list[int]:
    """Locales a retreating unit may go to: adjacent, passable, not enemy-held, not the attack
    locale (room is checked as units are placed)."""
    enemy = opponent(attack.defender)
    return [n for n in battle_map.neighbours(attack.defence_locale)
            if n != attack.attack_locale and state.occupant(n) != enemy]


def retreat_refusal(state: TriumphState, battle_map: BattleMap, attack: AttackState,
                    action: Retreat) -> Refusal | None:
    """Why a retreat's losses, destinations or kept units are wrong, or None."""
    plan = retreat_plan(state, battle_map, attack)
    losses = dict(action.losses)
    for unit_id, steps in losses.items():
        if unit_id not in plan.units or not isinstance(steps, int) or isinstance(steps, bool):
            return refusal("retreat-losses-named", unit=unit_id)
    grouped = {u for g in plan.groups for u in g.units}
    for unit_id, steps in losses.items():
        if unit_id in plan.artillery:
            if steps != state.units[unit_id].face.strength:
                return refusal("retreat-artillery", unit=unit_id)
        elif steps and unit_id not in grouped:
            return refusal("retreat-loses-nothing", unit=unit_id)
        elif steps < 0 or steps > state.units[unit_id].face.strength:
            return refusal("retreat-steps", unit=unit_id, steps=steps)
    for group in plan.groups:
        total = sum(state.units[u].face.strength for u in group.units)
        due = min(group.steps, total)
        given = sum(losses.get(u, 0) for u in group.units)
        if given != due:
            return refusal("retreat-group-losses", group=group.what, units=group.units, due=due,
                           given=given)
    survivors = [u for u in plan.units if u not in plan.artillery
                 and state.units[u].face.strength - losses.get(u, 0) > 0]
    keep = dict(action.keep)
    for name in plan.commanders:
        mine = [u for u in survivors if state.units[u].commander == name]
        chosen = keep.get(name)
        if chosen is not None and chosen not in mine:
            return refusal("retreat-keep-survivor", commander=name, units=mine)
        if chosen is None and len({state.units[u].face for u in mine}) > 1:
            return refusal("retreat-name-kept", commander=name, units=mine)
    for name in keep:
        if name not in plan.commanders:
            return refusal("retreat-not-retreating", commander=name)
    targets = retreat_targets(state, battle_map, attack)
    room = {n: battle_map.locales[n].capacity - len(state.units_in(n, attack.defender))
            for n in targets}
    destinations = dict(action.to)
    for unit_id in destinations:
        if unit_id not in survivors:
            return refusal("retreat-not-survivor", unit=unit_id)
    for unit_id in survivors:
        target = destinations.get(unit_id)
        if target is None:
            continue
        if target not in room:
            return refusal("retreat-target", unit=unit_id, locale=target)
        if room[target] <= 0:
            return refusal("retreat-no-room", locale=target, unit=unit_id)
        room[target] -= 1
    if any(u not in destinations for u in survivors) and any(r > 0 for r in room.values()):
        return refusal("retreat-while-room", units=[u for u in survivors if u not in destinations])
    return None


def default_keep(state: TriumphState, plan: RetreatPlan, survivors: list[str]
                 ) -> dict[str, str]:
    """The unit each retreating corps keeps when its owner had no real choice."""
    kept = {}
    for name in plan.commanders:
        mine = [u for u in survivors if state.units[u].commander == name]
        if mine:
            kept[name] = mine[0]
    return kept
