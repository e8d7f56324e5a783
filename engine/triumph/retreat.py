"""Retreats (1.10): which groups lose steps, where survivors may go, which unit a corps keeps."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.actions import Retreat
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import ARTILLERY, CAVALRY, INFANTRY, Position, opponent
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
            return Refusal("nt-retreat", f"{unit_id}: losses name retreating units and steps")
    grouped = {u for g in plan.groups for u in g.units}
    for unit_id, steps in losses.items():
        if unit_id in plan.artillery:
            if steps != state.units[unit_id].face.strength:
                return Refusal("nt-retreat", f"{unit_id} is artillery: it is eliminated")
        elif steps and unit_id not in grouped:
            return Refusal("nt-retreat", f"{unit_id} loses nothing in this retreat")
        elif steps < 0 or steps > state.units[unit_id].face.strength:
            return Refusal("nt-retreat", f"{unit_id} cannot lose {steps} steps")
    for group in plan.groups:
        total = sum(state.units[u].face.strength for u in group.units)
        due = min(group.steps, total)
        given = sum(losses.get(u, 0) for u in group.units)
        if given != due:
            return Refusal("nt-retreat", f"the {group.what} lose {due} step(s) between them, "
                                         f"not {given}")
    survivors = [u for u in plan.units if u not in plan.artillery
                 and state.units[u].face.strength - losses.get(u, 0) > 0]
    keep = dict(action.keep)
    for name in plan.commanders:
        mine = [u for u in survivors if state.units[u].commander == name]
        chosen = keep.get(name)
        if chosen is not None and chosen not in mine:
            return Refusal("nt-retreat", f"{name} can keep only one of its surviving units")
        if chosen is None and len({state.units[u].face for u in mine}) > 1:
            return Refusal("nt-retreat", f"name the unit {name}'s corps keeps")
    for name in keep:
        if name not in plan.commanders:
            return Refusal("nt-retreat", f"{name} is not retreating")
    targets = retreat_targets(state, battle_map, attack)
    room = {n: battle_map.locales[n].capacity - len(state.units_in(n, attack.defender))
            for n in targets}
    destinations = dict(action.to)
    for unit_id in destinations:
        if unit_id not in survivors:
            return Refusal("nt-retreat", f"{unit_id} is not a surviving retreating unit")
    for unit_id in survivors:
        target = destinations.get(unit_id)
        if target is None:
            continue
        if target not in room:
            return Refusal("nt-retreat", f"{unit_id} cannot retreat to {target}: not adjacent, "
                                         f"held by the enemy or the attack locale")
        if room[target] <= 0:
            return Refusal("nt-retreat", f"{target} has no room for {unit_id}")
        room[target] -= 1
    if any(u not in destinations for u in survivors) and any(r > 0 for r in room.values()):
        return Refusal("nt-retreat", "every surviving unit must retreat while there is room")
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
