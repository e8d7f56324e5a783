"""Listing legal actions and describing the pending decision (awaiting) with its options."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.triumph import attack as steps
from engine.triumph import resolution
from engine.triumph.actions import (
    Action,
    Advance,
    AssignLosses,
    Attach,
    Attack,
    CorpsMove,
    CounterAttack,
    DefenceLeaders,
    Defend,
    DetachMove,
    EndTurn,
    Feint,
    Occupy,
    OddLoss,
    Order,
    Press,
    Regroup,
    Retreat,
    Threat,
    UnitMove,
)
from engine.triumph.commands import (
    attach_refusal,
    corps_command_refusal,
    independent_unit_refusal,
    move_refusal,
)
from engine.triumph.movement import road_paths
from engine.triumph.pieces import Position, opponent
from engine.triumph.protocols import ReadGame
from engine.triumph.reinforcements import paths_from, waiting_units
from engine.triumph.retreat import retreat_plan, retreat_targets
from engine.triumph.road_attacks import road_order_sets, road_riders
from engine.triumph.state import AttackState


def legal_actions(game: ReadGame) -> list[Action]:
    """Every legal command, or a representative set of legal answers to the attack's step."""
    if game.state.result is not None:
        return []
    attack = game.state.attack
    if attack is None:
        with game.state.indexed():
            return _commands(game)
    candidates = _attack_candidates(game, attack)
    return [a for a in candidates if game.check(a) is None]


def decision_options(game: ReadGame) -> dict[str, Any]:
    """{"side", "decision", "options"}: the pending decision and its legal actions as data."""
    awaiting = game.awaiting()
    if awaiting is None:
        return {"side": None, "decision": None, "options": []}
    side, decision = awaiting
    return {"side": side, "decision": decision,
            "options": [a.to_dict() for a in legal_actions(game)]}


def _destinations(game: ReadGame, start: Position) -> list[Position]:
    battle_map = game.map
    if start.is_reserve:
        found = [Position(n) for n in battle_map.neighbours(start.locale)]
        found += [Position(start.locale, n) for n in battle_map.neighbours(start.locale)]
        return found
    assert start.toward is not None
    return [Position(start.locale), Position(start.toward)]


def _moves_for(game: ReadGame, make: Any, start: Position, roads: bool,
               cavalry: bool = False) -> list[Action]:
    found: list[Action] = []
    for to in _destinations(game, start):
        action = make(to, None)
        if move_refusal(game.state, game.map, action) is None:
            found.append(action)
    if roads and start.is_reserve:
        for path in road_paths(game.map, start.locale):
            ends = [Position(path[-1])]
            if cavalry:
                ends += [Position(path[-1], n) for n in game.map.neighbours(path[-1])]
            for end in ends:
                action = make(end, path)
                if move_refusal(game.state, game.map, action) is None:
                    found.append(action)
    return found


def _commands(game: ReadGame) -> list[Action]:
    state = game.state
    side = state.to_move
    found: list[Action] = [EndTurn(side), *_rides_on(game)]
    for unit in state.units.values():
        if unit.side != side or unit.at is None or unit.id in state.turn.moved:
            continue
        if independent_unit_refusal(state, side, unit.id) is None:
            found += _moves_for(game, lambda to, road, u=unit.id: UnitMove(side, u, to, road),
                                unit.at, True, unit.face.type == "cavalry")
    for commander in state.commanders.values():
        if commander.side != side or commander.at is None:
            continue
        if corps_command_refusal(state, side, commander.name) is not None:
            continue
        units = tuple(u.id for u in state.corps(commander.name) if u.id not in state.turn.moved)
        if units:
            name = commander.name
            found += _moves_for(game, lambda to, road, n=name, us=units: CorpsMove(
                side, n, us, to, road), commander.at, True)
            if len(state.corps(name)) > 1:
                first = (units[0],)
                found += _moves_for(game, lambda to, road, n=name, us=first: DetachMove(
                    side, n, us, to, road), commander.at, False)
        for unit in state.units_at(commander.at):
            action = Attach(side, commander.name, unit.id)
            if unit.side == side and attach_refusal(state, action) is None:
                found.append(action)
    for locale in {u.at.locale for u in state.units.values() if u.side == side and u.at}:
        for into in game.map.neighbours(locale):
            if (state.occupant(into) == opponent(side)
                    and (locale, into) not in state.turn.closed
                    and steps.attack_candidates(game, side, locale, into)):
                found.append(Threat(side, locale, into))
    found += _road_threats(game, side, {(t.from_, t.into) for t in found
                                        if isinstance(t, Threat)})
    return found


def _rides_on(game: ReadGame) -> list[Action]:
    """The moves by which cavalry that took a locale by road rides on (road_marches.py)."""
    state, battle_map = game.state, game.map
    march = state.turn.road_march
    if march is None:
        return []
    last = march.path[-1]
    ends: list[tuple[Position, tuple[int, ...]]] = [
        (Position(last, n), ()) for n in battle_map.neighbours(last)]
    for road in road_paths(battle_map, last):
        ends += [(Position(road[-1]), road)]
        ends += [(Position(road[-1], n), road) for n in battle_map.neighbours(road[-1])]
    found: list[Action] = []
    for to, road in ends:
        move: Action = (UnitMove(state.to_move, march.units[0], to, road)
                        if march.commander is None else
                        CorpsMove(state.to_move, march.commander, march.units, to, road))
        if game.check(move) is None:
            found.append(move)
    return found


def _road_threats(game: ReadGame, side: str, listed: set[tuple[int, int]]) -> list[Action]:
    """Threats only cavalry riding by road could carry out (1.9 step 1)."""
    state = game.state
    pairs: dict[tuple[int, int], None] = {}
    for unit in state.units.values():
        if unit.side != side or unit.at is None or not unit.at.is_reserve or (
                unit.face.type != "cavalry" or unit.id in state.turn.moved):
            continue
        for road in road_paths(game.map, unit.at.locale):
            if len(road) >= 2 and state.occupant(road[-1]) == opponent(side):
                pairs[(road[-2], road[-1])] = None
    found: list[Action] = []
    for attack_locale, defence_locale in pairs:
        if ((attack_locale, defence_locale) not in listed
                and (attack_locale, defence_locale) not in state.turn.closed
                and road_riders(game, side, attack_locale, defence_locale)):
            found.append(Threat(side, attack_locale, defence_locale))
    listed |= {(t.from_, t.into) for t in found if isinstance(t, Threat)}
    # cavalry riding on from the locale it took, and waiting cavalry corps coming on by road
    starts = {path[-1] for entry in game.map.entries.values() if entry.side == side
              for path in paths_from(game.map, entry)} if _waiting_cavalry(game, side) else set()
    if state.turn.road_march is not None:
        starts.add(state.turn.road_march.path[-1])
    for attack_locale in sorted(starts):
        for defence_locale in game.map.neighbours(attack_locale):
            threat = Threat(side, attack_locale, defence_locale)
            if ((attack_locale, defence_locale) not in listed
                    and state.occupant(defence_locale) == opponent(side)
                    and game.check(threat) is None):
                found.append(threat)
    return found


def _waiting_cavalry(game: ReadGame, side: str) -> bool:
    """Whether a waiting reinforcement corps of `side` is all cavalry (it may attack by road)."""
    state = game.state
    return any(c.side == side and c.off_map and (units := waiting_units(state, c.name))
               and all(state.units[u].face.type == "cavalry" for u in units)
               for c in state.commanders.values())


def _order_sets(game: ReadGame, attack: AttackState) -> list[tuple[Order, ...]]:
    """Plausible command sets for an attack: one per start position and per kind of command."""
    state = game.state
    found: list[tuple[Order, ...]] = []
    for position in (Position(attack.attack_locale),
                     Position(attack.attack_locale, attack.defence_locale)):
        here = [u for u in state.units_at(position) if u.side == attack.attacker
                and u.id not in state.turn.moved]
        by_corps: dict[str, list[str]] = {}
        for unit in here:
            if unit.commander is not None:
                by_corps.setdefault(unit.commander, []).append(unit.id)
            found.append((Order("unit_move", unit=unit.id),))
        for name, units in by_corps.items():
            found.append((Order("corps_move", commander=name, units=tuple(units)),))
        if len(by_corps) > 1:
            found.append(tuple(Order("corps_move", commander=n, units=tuple(us))
                               for n, us in by_corps.items()))
    return found


def _attack_candidates(game: ReadGame, attack: AttackState) -> list[Action]:
    state = game.state
    side = steps.decider(attack)
    step = attack.step
    if step == "response":
        reserve = [u.id for u in state.units_at(Position(attack.defence_locale))
                   if u.side == side]
        found: list[Action] = [_retreat_choice(game, attack, target) for target in
                               [None, *retreat_targets(state, game.map, attack)]]
        found += [Defend(side, (u,)) for u in reserve]
        corps_units = [u for u in reserve if state.units[u].commander is not None]
        if corps_units:
            found.append(Defend(side, tuple(corps_units)))
        return found
    if step == "feint_or_press":
        found = [Press(side)]
        for orders in _order_sets(game, attack) + road_order_sets(game, attack, False):
            found += [Feint(side, orders, "approach"), Feint(side, orders, "reserve")]
        return found
    if step == "defence_leaders":
        choices: list[tuple[str, ...]] = [(), *((u,) for u in attack.defenders)]
        choices += list(combinations(attack.defenders, 2))
        return [DefenceLeaders(side, tuple(c)) for c in choices]
    if step == "attack":
        found = []
        border = game.map.border(attack.defence_locale, attack.attack_locale)
        widths = [False, True] if border is not None and border.wide else [False]
        for orders in _order_sets(game, attack):
            units = [u for o in orders for u in o.moving_units]
            singles: list[tuple[str, ...]] = [(), *((u,) for u in units)]
            leader_sets = singles + list(combinations(units, 2))
            for wide in widths:
                for leaders in leader_sets:
                    engages = [None] + list(attack.defence_leaders)
                    found += [Attack(side, orders, wide, tuple(leaders), e) for e in engages]
        return found
    if step == "counter_attack":
        others = [u for u in attack.defenders if u not in attack.defence_leaders]
        picks: list[tuple[str, ...]] = [(), *((u,) for u in others)]
        choices = picks + list(combinations(others, 2))
        return [CounterAttack(side, tuple(c)) for c in choices]
    if step == "odd_loss":
        _, group = resolution.stage_group(game, attack, attack.queue[0])
        return [OddLoss(side, u) for u in group]
    if step == "assign_losses":
        role, group = resolution.stage_group(game, attack, attack.queue[0])
        return _allocations(game, side, group, attack.left[role])
    if step == "retreat":
        return [_retreat_choice(game, attack, target) for target in
                [None, *retreat_targets(state, game.map, attack)]]
    if step == "occupy":
        sets = _order_sets(game, attack) + road_order_sets(game, attack, True)
        return [Occupy(side, orders) for orders in sets]
    if step == "regroup":
        survivors = {n: [u for u in attack.attackers if state.units[u].at is not None
                         and state.units[u].commander == n] for n in attack.moving_commanders}
        first = {n: us[0] for n, us in survivors.items() if us}
        last = {n: us[-1] for n, us in survivors.items() if us}
        return [Regroup(side, tuple(sorted(first.items()))),
                Regroup(side, tuple(sorted(last.items())))]
    if step == "advance":
        candidates = resolution.advance_candidates(game, attack)
        return [_advance(game, attack, units)
                for units in [*((u,) for u in candidates), tuple(candidates)]]
    return []


def _advance(game: ReadGame, attack: AttackState, units: tuple[str, ...]) -> Advance:
    """Advance `units`, with every commander whose units in the reserve all go."""
    reserve = Position(attack.defence_locale)
    commanders = []
    for commander in game.state.commanders_in(attack.defence_locale):
        mine = {u.id for u in game.state.units_at(reserve) if u.commander == commander.name}
        if commander.at == reserve and mine and mine <= set(units):
            commanders.append(commander.name)
    return Advance(attack.defender, units, tuple(commanders))


def _allocations(game: ReadGame, side: str, group: list[str], points: int
                 ) -> list[Action]:
    found: list[Action] = []
    for order in (group, list(reversed(group))):
        left, allocation = points, {}
        for unit_id in order:
            take = min(left, game.state.units[unit_id].face.strength)
            allocation[unit_id] = take
            left -= take
        found.append(AssignLosses(side, tuple(sorted(allocation.items()))))
    return found


def _retreat_choice(game: ReadGame, attack: AttackState, prefer: int | None) -> Retreat:
    """A legal retreat: losses on the first units of each group, survivors to `prefer` first."""
    state = game.state
    plan = retreat_plan(state, game.map, attack)
    losses: dict[str, int] = {u: state.units[u].face.strength for u in plan.artillery}
    for group in plan.groups:
        left = group.steps
        for unit_id in group.units:
            take = min(left, state.units[unit_id].face.strength)
            if take:
                losses[unit_id] = take
            left -= take
    survivors = [u for u in plan.units if u not in plan.artillery
                 and state.units[u].face.strength - losses.get(u, 0) > 0]
    targets = retreat_targets(state, game.map, attack)
    if prefer is not None:
        targets = [prefer] + [t for t in targets if t != prefer]
    room = {n: game.map.locales[n].capacity - len(state.units_in(n, attack.defender))
            for n in targets}
    to = {}
    for unit_id in survivors:
        for target in targets:
            if room[target] > 0:
                to[unit_id] = target
                room[target] -= 1
                break
    keep = {}
    for name in plan.commanders:
        mine = [u for u in survivors if state.units[u].commander == name]
        if mine:
            keep[name] = mine[0]
    return Retreat(attack.defender, tuple(sorted(losses.items())), tuple(sorted(to.items())),
                   tuple(sorted(keep.items())))
