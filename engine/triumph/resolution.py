"""Attack steps 7-11 (1.9): counter-attack, results, losses and their spread, the outcome."""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.actions import Advance, AssignLosses, CounterAttack, Occupy, OddLoss, Regroup
from engine.triumph.combat import even_spread, final_result, loss_points, winner
from engine.triumph.effects import lose_morale, lose_steps, reveal
from engine.triumph.elite import after_guard_attack
from engine.triumph.elite import commit as commit_elite
from engine.triumph.events import (
    Advanced,
    AttackEnded,
    Combat,
    CounterAttacked,
    LossesAssigned,
    OddLossChosen,
    Regrouped,
    Stormed,
)
from engine.triumph.orders import check_orders, spend_orders
from engine.triumph.pieces import ARTILLERY, CAVALRY, INFANTRY, Face, Position
from engine.triumph.protocols import RulingGame
from engine.triumph.refusals import Refused, refusal, refused
from engine.triumph.state import AttackState

LOSS_STAGES = ("attack_leaders", "defence_leaders", "counter", "attacker_others",
               "defender_others")


def stage_decider(attack: AttackState, stage: str) -> str:
    """Who chooses in a loss stage: leaders' odd points by the opponent, the rest by the owner."""
    if stage == "attack_leaders":
        return attack.defender
    if stage == "defence_leaders":
        return attack.attacker
    if stage == "attacker_others":
        return attack.attacker
    return attack.defender


def counter_attack_refusal(game: RulingGame, attack: AttackState, units: tuple[str, ...]
                           ) -> Refusal | None:
    """Why these units may not counter-attack, or None (rule nt-counter-attack)."""
    state = game.state
    if len(units) > 2 or len(set(units)) != len(units):
        return refusal("counter-attackers-count", units=units)
    if units and attack.artillery_led:
        return refusal("counter-after-artillery", units=units)
    border = game.map.border(attack.defence_locale, attack.attack_locale)
    assert border is not None and attack.initial is not None
    attacker_winning = winner(attack.initial, attack.blocked, len(attack.attackers),
                              len(attack.defenders), attack.attacker) == "attacker"
    for unit_id in units:
        if unit_id not in attack.defenders or unit_id in attack.defence_leaders:
            return refusal("counter-not-defending", unit=unit_id)
        face = state.units[unit_id].face
        if face.type == ARTILLERY:
            return refusal("counter-artillery", unit=unit_id)
        if face.type == CAVALRY and "O" in border.symbols_of(attack.defence_locale):
            return refusal("counter-cavalry-obstructed", unit=unit_id)
        if face.type == INFANTRY and readings.INFANTRY_COUNTER_ONLY_WHEN_ATTACKER_WINNING and (
                not attacker_winning):
            return refusal("counter-infantry-losing", unit=unit_id)
    if len(units) == 2:
        first, second = (state.units[u] for u in units)
        if first.face.type != second.face.type:
            return refusal("counter-same-type", units=units)
        if first.commander != second.commander or (
                first.commander is None and not readings.DETACHED_COUNTER_ATTACKERS_MAY_PAIR):
            return refusal("counter-same-corps", units=units)
        if first.face.guard != second.face.guard:
            return refusal("counter-guard-line", units=units)
    return None


def counter_attack(game: RulingGame, attack: AttackState, action: CounterAttack) -> None:
    """Step 7: reveal the counter-attackers; each loses a step at once."""
    problem = counter_attack_refusal(game, attack, action.units)
    if problem:
        raise Refused(problem)
    faces = [game.state.units[u].face for u in action.units]
    attack.counter = list(action.units)
    reveal(game, action.units, "counter-attack")
    game.emit(CounterAttacked(attack.defender, tuple(action.units)))
    commit_elite(game, action.units, "counter-attack")
    lost = sum(lose_steps(game, u, 1, "counter-attack") for u in action.units)
    attack.lost[attack.defender] = attack.lost.get(attack.defender, 0) + lost
    resolve(game, attack, faces)


def resolve(game: RulingGame, attack: AttackState,
            counter_faces: list[Face] | None = None) -> None:
    """Steps 8-10: final result, winner, loss points, then their spread."""
    state = game.state
    assert attack.initial is not None
    attack.final = final_result(attack.initial, counter_faces or [])
    attack.winner = winner(attack.final, attack.blocked, len(attack.attackers),
                           len(attack.defenders), attack.attacker)
    artillery_defence = sum(state.units[u].face.type == ARTILLERY
                            for u in attack.defence_leaders)
    points = loss_points(attack.final, attack.artillery_led, len(attack.attack_leaders),
                         len(attack.defence_leaders), artillery_defence)
    attack.points = {"attacker": points.attacker, "defender": points.defender}
    attack.left = dict(attack.points)
    state.combats.append({"initial": attack.initial, "final": attack.final,
                          "winner": attack.winner, "losses": dict(attack.points)})
    game.emit(Combat(attack.initial, attack.final, attack.winner, dict(attack.points)))
    attack.queue = list(LOSS_STAGES)
    _spread_losses(game, attack)


def stage_group(game: RulingGame, attack: AttackState, stage: str) -> tuple[str, list[str]]:
    """The role whose points a loss stage spends and the living units it spreads them over."""
    state = game.state

    def alive(ids: list[str]) -> list[str]:
        return [u for u in ids if state.units[u].at is not None]

    if stage == "attack_leaders":
        return "attacker", alive(attack.attack_leaders)
    if stage == "attacker_others":
        return "attacker", alive([u for u in attack.attackers if u not in attack.attack_leaders])
    if stage == "defence_leaders":
        return "defender", alive([u for u in attack.defence_leaders
                                  if state.units[u].face.type != ARTILLERY])
    if stage == "counter":
        return "defender", alive(attack.counter)
    others = [u for u in attack.defenders if u not in attack.defence_leaders
              and u not in attack.counter]
    return "defender", alive(others)


def _spread_losses(game: RulingGame, attack: AttackState) -> None:
    """Apply loss stages until one needs a decision (step odd_loss or assign_losses)."""
    state = game.state
    while attack.queue:
        stage = attack.queue[0]
        role, group = stage_group(game, attack, stage)
        points = attack.left[role]
        strengths = [state.units[u].face.strength for u in group]
        if stage.endswith("others"):
            if points and len(group) > 1 and points < sum(strengths):
                attack.step = "assign_losses"
                return
            _take(game, attack, role, dict(zip(group, _greedy(points, strengths), strict=True)))
        else:
            spread, _, choice = even_spread(points, strengths)
            if choice and len({state.units[u].face for u in group}) > 1:
                attack.step = "odd_loss"
                return
            _take(game, attack, role, dict(zip(group, spread, strict=True)))
        attack.queue.pop(0)
    _outcome(game, attack)


def _greedy(points: int, strengths: list[int]) -> list[int]:
    taken = []
    for strength in strengths:
        take = min(points, strength)
        taken.append(take)
        points -= take
    return taken


def _take(game: RulingGame, attack: AttackState, role: str, losses: dict[str, int]) -> None:
    side = attack.attacker if role == "attacker" else attack.defender
    for unit_id, steps in losses.items():
        if steps:
            commit_elite(game, [unit_id], "loss")
            lost = lose_steps(game, unit_id, steps, "combat")
            attack.left[role] -= lost
            attack.lost[side] = attack.lost.get(side, 0) + lost


def odd_loss(game: RulingGame, attack: AttackState, action: OddLoss) -> None:
    """Step 10: the odd loss point falls on the piece the chooser names."""
    stage = attack.queue[0]
    role, group = stage_group(game, attack, stage)
    if action.unit not in group:
        raise refused("odd-loss-group", units=group)
    strengths = [game.state.units[u].face.strength for u in group]
    spread, _, _ = even_spread(attack.left[role], strengths)
    if group[0] != action.unit:
        spread = [spread[0] - 1, spread[1] + 1]
    game.emit(OddLossChosen(action.side, action.unit))
    _take(game, attack, role, dict(zip(group, spread, strict=True)))
    attack.queue.pop(0)
    _spread_losses(game, attack)


def assign_losses(game: RulingGame, attack: AttackState, action: AssignLosses) -> None:
    """Step 10: the owner spreads the points left over the other pieces."""
    stage = attack.queue[0]
    role, group = stage_group(game, attack, stage)
    allocation = dict(action.allocation)
    state = game.state
    for unit_id, steps in allocation.items():
        if unit_id not in group or not isinstance(steps, int) or isinstance(steps, bool) or not (
                0 <= steps <= state.units[unit_id].face.strength):
            raise refused("losses-on-group", unit=unit_id, units=group)
    if sum(allocation.values()) != attack.left[role]:
        raise refused("losses-exact", points=attack.left[role])
    game.emit(LossesAssigned(action.side, allocation))
    _take(game, attack, role, allocation)
    attack.queue.pop(0)
    _spread_losses(game, attack)


def _settle_morale(game: RulingGame, attack: AttackState) -> bool:
    """1.11: once the losses are taken the loser pays one morale per step it lost (eliminated
    units included), and a failed Guard Attack its extra cost; True if an army broke."""
    loser = attack.defender if attack.winner == "attacker" else attack.attacker
    floor = readings.ARTILLERY_LOSSES_MORALE_FLOOR if attack.artillery_led else 0
    lose_morale(game, loser, attack.lost.get(loser, 0), floor)
    after_guard_attack(game, attack)
    if game.state.result is None:
        return False
    finish(game, attack)
    return True


def _outcome(game: RulingGame, attack: AttackState) -> None:
    state = game.state
    if _settle_morale(game, attack):
        return
    if attack.artillery_led:
        if readings.CLOSE_APPROACH_AFTER_ARTILLERY_ATTACK:
            state.turn.closed.add((attack.attack_locale, attack.defence_locale))
        finish(game, attack)
    elif attack.winner == "attacker":
        if state.units_in(attack.defence_locale, attack.defender):
            attack.step = "retreat"
        else:
            move_in(game, attack)
            finish(game, attack)
    else:
        state.turn.closed.add((attack.attack_locale, attack.defence_locale))
        if _regroup_needed(game, attack):
            attack.step = "regroup"
        else:
            _regroup_apply(game, attack, {})
            after_repulse(game, attack)


def move_in(game: RulingGame, attack: AttackState) -> None:
    """The surviving attackers and their commanders storm into the defence reserve."""
    state = game.state
    to = Position(attack.defence_locale)
    moved = [u for u in attack.attackers if state.units[u].at is not None]
    for unit_id in moved:
        state.units[unit_id].at = to
    for name in attack.moving_commanders:
        if state.corps(name):
            state.commanders[name].at = to
    state.turn.stormed.add(attack.defence_locale)
    game.emit(Stormed(attack.attacker, attack.defence_locale, tuple(moved)))


def _corps_survivors(game: RulingGame, attack: AttackState) -> dict[str, list[str]]:
    state = game.state
    return {name: [u for u in attack.attackers if state.units[u].at is not None
                   and state.units[u].commander == name] for name in attack.moving_commanders}


def _regroup_needed(game: RulingGame, attack: AttackState) -> bool:
    state = game.state
    return any(len({state.units[u].face for u in units}) > 1
               for units in _corps_survivors(game, attack).values())


def _regroup_apply(game: RulingGame, attack: AttackState, keep: dict[str, str]) -> None:
    state = game.state
    for name, units in _corps_survivors(game, attack).items():
        kept = keep.get(name, units[0] if units else None)
        for unit_id in units:
            if unit_id != kept:
                state.units[unit_id].commander = None


def regroup(game: RulingGame, attack: AttackState, action: Regroup) -> None:
    """After a repulse: each attacking corps keeps the unit its owner names."""
    keep = dict(action.keep)
    survivors = _corps_survivors(game, attack)
    for name, units in survivors.items():
        if len({game.state.units[u].face for u in units}) > 1 and keep.get(name) not in units:
            raise refused("regroup-keep", commander=name, units=units)
    if set(keep) - set(survivors):
        raise refused("regroup-attackers-only", commanders=sorted(set(keep) - set(survivors)))
    game.emit(Regrouped(attack.attacker, keep))
    _regroup_apply(game, attack, keep)
    after_repulse(game, attack)


def after_repulse(game: RulingGame, attack: AttackState) -> None:
    """After a feint or a repulse, defenders from the reserve advance to block the approach."""
    survivors = advance_candidates(game, attack)
    if survivors:
        attack.step = "advance"
    else:
        finish(game, attack)


def advance_candidates(game: RulingGame, attack: AttackState) -> list[str]:
    """Defending units still in the reserve that must provide the advance."""
    if not attack.defenders_in_reserve:
        return []
    reserve = Position(attack.defence_locale)
    # the fixed battery never moves (1.4): it neither advances nor is asked to
    return [u for u in attack.defenders if game.state.units[u].at == reserve
            and u != game.state.fixed_battery]


def advance(game: RulingGame, attack: AttackState, action: Advance) -> None:
    """After a feint or repulse: defenders of the reserve move up to block."""
    state = game.state
    candidates = advance_candidates(game, attack)
    units = action.units
    if not units or len(set(units)) != len(units) or not set(units) <= set(candidates):
        raise refused("advance-one", units=candidates)
    reserve = Position(attack.defence_locale)
    for name in action.commanders:
        commander = state.commanders.get(name)
        if commander is None or commander.at != reserve or commander.side != attack.defender:
            raise refused("advance-commander-elsewhere", commander=name, position=str(reserve))
        if any(u.id not in units for u in state.units_at(reserve) if u.commander == name):
            raise refused("advance-commander-whole", commander=name)
    for commander in state.commanders_in(attack.defence_locale):
        if commander.at == reserve and commander.name not in action.commanders:
            mine = [u.id for u in state.units_at(reserve) if u.commander == commander.name]
            if mine and set(mine) <= set(units):
                raise refused("advance-commander-alone", commander=commander.name)
    to = Position(attack.defence_locale, attack.attack_locale)
    for unit_id in units:
        unit = state.units[unit_id]
        unit.at = to
        if unit.commander is not None and unit.commander not in action.commanders:
            unit.commander = None
    for name in action.commanders:
        state.commanders[name].at = to
    game.emit(Advanced(attack.defender, tuple(units), str(to)))
    finish(game, attack)


def occupy(game: RulingGame, attack: AttackState, action: Occupy) -> None:
    """After a retreat before combat: the attacker moves in with the threatened attack."""
    check_orders(game, attack, action.orders)
    count = sum(len(o.moving_units) for o in action.orders)
    capacity = game.map.locales[attack.defence_locale].capacity
    if count > capacity:
        raise refused("occupiers-fit", count=count, locale=attack.defence_locale,
                      capacity=capacity)
    spend_orders(game, attack, action.orders)
    move_in(game, attack)
    game.state.attack = None
    game.emit(AttackEnded(attack.attacker, before_combat=True))


def finish(game: RulingGame, attack: AttackState) -> None:
    """End the attack (its morale was settled when its losses were taken)."""
    game.state.attack = None
    game.emit(AttackEnded(attack.attacker, feint=attack.feint, winner=attack.winner))
