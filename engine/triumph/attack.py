"""The attack sequence (1.9) as a state machine: steps 1-5 and the dispatch of every step."""

from __future__ import annotations

from engine.triumph import readings
from engine.triumph.actions import (
    Action,
    Advance,
    AssignLosses,
    Attack,
    CounterAttack,
    DefenceLeaders,
    Defend,
    Feint,
    Occupy,
    OddLoss,
    Order,
    Press,
    Regroup,
    Retreat,
    Threat,
)
from engine.triumph.artillery import (
    attack_fire_refusal,
    battery_may_carry_out,
    holds_in_place,
    is_battery,
    occupation_battery_refusal,
)
from engine.triumph.combat import initial_result
from engine.triumph.commands import can_be_commanded
from engine.triumph.effects import eliminate, lose_morale, lose_steps, reveal
from engine.triumph.elite import check_guard_leaders, check_guard_threat
from engine.triumph.elite import commit as commit_elite
from engine.triumph.events import (
    AttackDeclared,
    AttackEnded,
    DefenceLeadersNamed,
    Defended,
    Feinted,
    Pressed,
    Retreated,
    Threatened,
)
from engine.triumph.orders import check_orders, spend_orders
from engine.triumph.pieces import ARTILLERY, CAVALRY, Position, opponent
from engine.triumph.protocols import RulingGame
from engine.triumph.refusals import Refused, refused
from engine.triumph.resolution import (
    advance,
    after_repulse,
    assign_losses,
    counter_attack,
    finish,
    move_in,
    occupy,
    odd_loss,
    regroup,
    resolve,
    stage_decider,
)
from engine.triumph.retreat import default_keep, retreat_plan, retreat_refusal
from engine.triumph.road_attacks import (
    attack_road,
    entry_orders,
    is_road_attack,
    reveal_riders,
    road_march_marks,
    road_riders,
)
from engine.triumph.road_marches import extended, march_attack_refusal
from engine.triumph.state import AttackState, RoadMarch

ATTACKER_STEPS = {"feint_or_press", "attack", "occupy", "regroup"}
STEP_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "response": (Defend, Retreat),
    "feint_or_press": (Feint, Press),
    "defence_leaders": (DefenceLeaders,),
    "attack": (Attack,),
    "counter_attack": (CounterAttack,),
    "odd_loss": (OddLoss,),
    "assign_losses": (AssignLosses,),
    "retreat": (Retreat,),
    "occupy": (Occupy,),
    "regroup": (Regroup,),
    "advance": (Advance,),
}

def decider(attack: AttackState) -> str:
    """The side that must decide the attack's current step."""
    if attack.step in ATTACKER_STEPS:
        return attack.attacker
    if attack.step in ("odd_loss", "assign_losses"):
        return stage_decider(attack, attack.queue[0])
    return attack.defender


def apply_threat(game: RulingGame, action: Threat) -> None:
    """Step 1: check the threat, open the attack and, with blockers, record their defence."""
    state, battle_map = game.state, game.map
    side = action.side
    if action.from_ not in battle_map.locales or action.into not in battle_map.locales:
        raise refused("threat-off-map", attack_locale=action.from_,
                      defence_locale=action.into)
    if state.occupant(action.from_) == opponent(side):
        raise refused("threat-from-enemy", side=side, attack_locale=action.from_)
    if state.occupant(action.into) != opponent(side):
        raise refused("threat-not-enemy", defence_locale=action.into)
    if not battle_map.is_passable(action.from_, action.into):
        raise refused("threat-no-border", attack_locale=action.from_,
                      defence_locale=action.into)
    if (action.from_, action.into) in state.turn.closed:
        raise refused("approach-closed", attack_locale=action.from_,
                      defence_locale=action.into)
    if not attack_candidates(game, side, action.from_, action.into) and not road_riders(
            game, side, action.from_, action.into) and not entry_orders(
            state, battle_map, side, action.from_, action.into) and march_attack_refusal(
            state, battle_map, side, action.from_, action.into, into_defence=False) is not None:
        # 1.9 step 1: a piece there, or (M2) cavalry that can ride up by road and on across
        raise refused("threat-nobody", attack_locale=action.from_, defence_locale=action.into)
    if action.guard is not None:
        problem = check_guard_threat(game, side, action.guard, action.from_, action.into)
        if problem:
            raise Refused(problem)
    attack = AttackState(side, opponent(side), action.from_, action.into,
                         guard_attack=action.guard is not None)
    state.attack = attack
    game.emit(Threatened(side, action.from_, action.into, action.guard))
    if action.guard is not None:
        reveal(game, [action.guard], "Guard Attack announced")
    blockers = [u.id for u in state.units_at(Position(action.into, action.from_))]
    if blockers:
        attack.defenders, attack.blocked = blockers, True
        if readings.BLOCKERS_DEFEND_AUTOMATICALLY:
            _blockers_defend(game, attack)


def _blockers_defend(game: RulingGame, attack: AttackState) -> None:
    """Step 2 with the defence approach blocked: the blockers, and only they, defend."""
    for unit_id in attack.defenders:
        game.state.turn.defended[unit_id] = attack.attack_locale
    game.emit(Defended(attack.defender, tuple(attack.defenders), True))
    attack.step = "feint_or_press"


def _answer_blocked(game: RulingGame, attack: AttackState, action: Defend | Retreat) -> None:
    """The defender's answer to a threat against blockers (3.5): they defend, nothing else.

    Asked only with the reading BLOCKERS_DEFEND_AUTOMATICALLY off; with it on (the engine has
    recorded the defence itself) a record may still carry the answer right after the threat,
    and a defence naming exactly the blockers is then accepted and changes nothing.
    """
    blockers = Position(attack.defence_locale, attack.attack_locale)
    if isinstance(action, Retreat):
        raise refused("blockers-must-defend", position=str(blockers), units=attack.defenders)
    if sorted(action.units) != sorted(attack.defenders):
        raise refused("blockers-defend-alone", position=str(blockers), units=attack.defenders)
    if attack.step == "response":
        _blockers_defend(game, attack)


def attack_candidates(game: RulingGame, side: str, locale: int, into: int) -> list[str]:
    """Units in R`locale` or `locale`>`into` that some command could still move to carry out
    an attack across `locale`>`into` (the fixed battery only where it could lead it)."""
    state = game.state
    return [unit.id for position in (Position(locale), Position(locale, into))
            for unit in state.units_at(position) if can_be_commanded(state, side, unit)
            and (not is_battery(state, unit.id)
                 or battery_may_carry_out(state, game.map, unit, locale, into))]


def apply_step(game: RulingGame, action: Action) -> None:
    """Apply the action the attack's current step expects (refused otherwise)."""
    attack = game.state.attack
    assert attack is not None
    if (attack.blocked and isinstance(action, (Defend, Retreat))
            and action.side == attack.defender and attack.step in ("response", "feint_or_press")):
        _answer_blocked(game, attack, action)
        return
    expected = STEP_ACTIONS[attack.step]
    if not isinstance(action, expected):
        raise refused("attack-in-progress", side=decider(attack), decision=attack.step,
                      actions=" or ".join(cls.type for cls in expected))
    if action.side != decider(attack):
        raise refused("other-side-decides", side=decider(attack), decision=attack.step)
    handler = {Defend: _defend, Retreat: _retreat, Feint: _feint, Press: _press,
               DefenceLeaders: _defence_leaders, Attack: _attack, CounterAttack: counter_attack,
               OddLoss: odd_loss, AssignLosses: assign_losses, Occupy: _occupy,
               Regroup: regroup, Advance: advance}[type(action)]
    handler(game, attack, action)  # type: ignore[operator]


def _defend(game: RulingGame, attack: AttackState, action: Defend) -> None:
    state = game.state
    reserve = Position(attack.defence_locale)
    units = action.units
    if not units or len(set(units)) != len(units):
        raise refused("name-defenders")
    for unit_id in units:
        unit = state.units.get(unit_id)
        if unit is None or unit.side != attack.defender or unit.at != reserve:
            raise refused("defender-not-in-reserve", unit=unit_id, position=str(reserve))
        faced = state.turn.defended.get(unit_id)
        if faced is not None and faced != attack.attack_locale:
            raise refused("defended-elsewhere", unit=unit_id)
        if unit_id in state.turn.retreated:
            raise refused("retreated-after-combat", unit=unit_id)
    if sum(state.units[u].commander is None for u in units) > 1:
        raise refused("one-detached-defender",
                      units=[u for u in units if state.units[u].commander is None])
    attack.defenders, attack.defenders_in_reserve = list(units), True
    for unit_id in units:
        state.turn.defended[unit_id] = attack.attack_locale
    game.emit(Defended(attack.defender, tuple(units), False))
    attack.step = "feint_or_press"


def _retreat(game: RulingGame, attack: AttackState, action: Retreat) -> None:
    state = game.state
    problem = retreat_refusal(state, game.map, attack, action)
    if problem:
        raise Refused(problem)
    before_combat = attack.step == "response"
    plan = retreat_plan(state, game.map, attack)
    reveal(game, plan.units, "retreat")
    commit_elite(game, plan.units, "retreat")
    losses = dict(action.losses)
    lost = 0
    for unit_id in plan.artillery:
        lost += lose_steps(game, unit_id, state.units[unit_id].face.strength, "retreat")
    for unit_id, steps in losses.items():
        if unit_id not in plan.artillery and steps:
            lost += lose_steps(game, unit_id, steps, "retreat")
    survivors = [u for u in plan.units if state.units[u].at is not None]
    keep = default_keep(state, plan, survivors)
    keep.update(dict(action.keep))
    destinations = dict(action.to)
    for unit_id in survivors:
        unit = state.units[unit_id]
        if unit.commander is not None and keep.get(unit.commander) != unit_id:
            unit.commander = None
        target = destinations.get(unit_id)
        if target is None:
            lost += unit.face.strength
            eliminate(game, unit, "no room to retreat")
            continue
        unit.at = Position(target)
        if not before_combat or not readings.BAR_ONLY_AFTER_COMBAT_RETREAT:
            state.turn.retreated.add(unit_id)
    for name in plan.commanders:
        commander = state.commanders[name]
        kept = keep.get(name)
        if kept is not None and state.units[kept].at is not None:
            commander.at = state.units[kept].at
    game.emit(Retreated(attack.defender, attack.defence_locale,
                        {u: destinations[u] for u in survivors if u in destinations}, lost,
                        before_combat))
    attack.lost[attack.defender] = attack.lost.get(attack.defender, 0) + lost
    # 1.11: the side that retreats has lost (before combat, or beaten): it pays these steps now
    lose_morale(game, attack.defender, lost)
    if game.state.result is not None:
        game.state.attack = None
        return
    if not before_combat:
        move_in(game, attack)
        finish(game, attack)
        return
    attack.before_combat = True
    attack.step = "occupy"
    if not readings.FIXED_BATTERY_HOLDS_AFTER_RETREAT and not _occupiers(game, attack):
        # nothing but the fixed battery could carry the attack out, and it never moves
        game.state.attack = None
        game.emit(AttackEnded(attack.attacker, before_combat=True))


def _occupiers(game: RulingGame, attack: AttackState) -> bool:
    """Whether any piece but the fixed battery could still move into the emptied locale."""
    state = game.state
    standing = [u for u in attack_candidates(game, attack.attacker, attack.attack_locale,
                                             attack.defence_locale) if not is_battery(state, u)]
    return bool(standing) or bool(road_riders(game, attack.attacker, attack.attack_locale,
                                              attack.defence_locale, into_defence=True))


def _occupy(game: RulingGame, attack: AttackState, action: Occupy) -> None:
    """After a retreat before combat the attacker moves in; by road the riders are revealed."""
    # No retreat can block the road of a legal road threat: a locale a road attack passes
    # through before the attack locale never borders the defence locale on this map.
    problem = occupation_battery_refusal(game.state, action.orders)
    if problem:
        raise Refused(problem)
    if holds_in_place(game.state, action.orders):
        # the fixed battery carries the attack out where it stands (1.9 step 2, reading
        # FIXED_BATTERY_HOLDS_AFTER_RETREAT): its command is spent, the locale stays empty
        check_orders(game, attack, action.orders)
        spend_orders(game, attack, action.orders)
        game.state.attack = None
        game.emit(AttackEnded(attack.attacker, before_combat=True))
        return
    by_road = is_road_attack(action.orders)
    if by_road:
        check_orders(game, attack, action.orders)  # refuse before any face is shown
        reveal_riders(game, action.orders)
    occupy(game, attack, action)
    if by_road:
        road_march_marks(game, attack, action.orders, attack.defence_locale)
        _march_on(game, attack, action.orders[0])


def _march_on(game: RulingGame, attack: AttackState, order: Order) -> None:
    """Cavalry that took a locale by road may ride on this turn (road_marches.py)."""
    turn = game.state.turn
    if attack.riding_on and turn.road_march is not None:
        turn.road_march = extended(turn.road_march, attack.defence_locale)
        return
    road = attack_road(order.road or (), attack.defence_locale) + (attack.defence_locale,)
    start = attack.start.locale if attack.start is not None and order.entry is None else None
    commander = order.commander if order.type == "corps_move" else None
    turn.road_march = RoadMarch(order.moving_units, commander, start, order.entry, road)


def _feint(game: RulingGame, attack: AttackState, action: Feint) -> None:
    if attack.guard_attack:
        raise refused("guard-no-feint")
    if action.end not in ("approach", "reserve"):
        raise refused("feint-end", end=action.end)
    start = check_orders(game, attack, action.orders)
    spend_orders(game, attack, action.orders)
    by_road = is_road_attack(action.orders)
    if by_road or (action.end == "approach" and start.is_reserve):
        # cavalry by road rides up to the attack locale and stops there (1.9 step 3)
        to = Position(attack.attack_locale, attack.defence_locale)
        if action.end == "reserve":
            to = Position(attack.attack_locale)
        for unit_id in attack.attackers:
            game.state.units[unit_id].at = to
        for name in attack.moving_commanders:
            game.state.commanders[name].at = to
        if by_road:
            reveal_riders(game, action.orders)
            if not attack.riding_on:
                road_march_marks(game, attack, action.orders, attack.attack_locale)
    game.state.turn.road_march = None  # a feint ends any riding on
    attack.feint = True
    game.state.turn.closed.add((attack.attack_locale, attack.defence_locale))
    game.emit(Feinted(attack.attacker, tuple(attack.attackers), action.end))
    after_repulse(game, attack)


def _press(game: RulingGame, attack: AttackState, action: Press) -> None:
    if not attack_candidates(game, attack.attacker, attack.attack_locale, attack.defence_locale):
        raise refused("road-attack-press")
    game.emit(Pressed(attack.attacker))
    attack.step = "defence_leaders"


def _defence_leaders(game: RulingGame, attack: AttackState, action: DefenceLeaders) -> None:
    state = game.state
    border = game.map.border(attack.defence_locale, attack.attack_locale)
    assert border is not None
    leaders = action.units
    limit = 2 if border.wide else 1
    if len(leaders) > limit or len(set(leaders)) != len(leaders):
        raise refused("defence-leaders-count", limit=limit,
                      width="wide" if border.wide else "narrow")
    for unit_id in leaders:
        if unit_id not in attack.defenders:
            raise refused("leader-not-defending", unit=unit_id)
        unit = state.units[unit_id]
        assert unit.at is not None
        if unit.at.is_reserve and unit.face.strength == 1:
            raise refused("weak-reserve-leader", unit=unit_id)
        if unit.face.type == CAVALRY and "O" in border.symbols_of(attack.defence_locale):
            raise refused("cavalry-defence-obstructed", unit=unit_id)
    faces = [state.units[u] for u in leaders]
    if len(faces) == 2:
        if faces[0].face.type != faces[1].face.type:
            raise refused("leaders-same-type", units=leaders)
        assert faces[0].at is not None and faces[1].at is not None
        if faces[0].at.is_reserve and faces[1].at.is_reserve and (
                faces[0].commander is None or faces[0].commander != faces[1].commander):
            raise refused("leaders-same-corps", units=leaders)
    attack.defence_leaders = list(leaders)
    reveal(game, leaders, "defence leader")
    game.emit(DefenceLeadersNamed(attack.defender, tuple(leaders)))
    attack.step = "attack"


def _attack(game: RulingGame, attack: AttackState, action: Attack) -> None:
    state = game.state
    border = game.map.border(attack.defence_locale, attack.attack_locale)
    assert border is not None
    start = check_orders(game, attack, action.orders)
    attackers = [u for order in action.orders for u in order.moving_units]
    if action.wide and not border.wide:
        raise refused("wide-needs-wide-border")
    limit = 2 if action.wide else 1
    leaders = action.leaders
    if len(leaders) > limit or len(set(leaders)) != len(leaders):
        raise refused("attack-leaders-count", limit=limit,
                      width="wide" if action.wide else "narrow")
    corps_units = {u for order in action.orders if order.type == "corps_move"
                   for u in order.units}
    for unit_id in leaders:
        if unit_id not in attackers:
            raise refused("leader-not-attacking", unit=unit_id)
        face = state.units[unit_id].face
        if face.strength == 1 and face.type != ARTILLERY:
            raise refused("weak-attack-leader", unit=unit_id)
        if face.type == ARTILLERY and (start.is_reserve or unit_id in corps_units):
            raise refused("artillery-leads-from-approach", unit=unit_id)
        if face.type == CAVALRY and "O" in border.symbols_of(attack.defence_locale):
            raise refused("cavalry-attack-obstructed", unit=unit_id)
    batteries = [o.unit for o in action.orders if o.type == "unit_move"
                 and o.unit is not None and state.units[o.unit].face.type == ARTILLERY]
    if len(batteries) > 1 and not set(batteries) <= set(leaders):
        raise refused("batteries-combine-leading", units=batteries)
    if len(leaders) == 2:
        first, second = (state.units[u].face for u in leaders)
        if first.type != second.type:
            raise refused("leaders-same-type", units=leaders)
        if first.guard != second.guard:
            raise refused("guard-beside-guard", units=leaders)
    problem = check_guard_leaders(game, attack, leaders)
    if problem:
        raise Refused(problem)
    capacity = game.map.locales[attack.defence_locale].capacity
    if len(attackers) > capacity:
        raise refused("attackers-fit", count=len(attackers), locale=attack.defence_locale,
                      capacity=capacity)
    defence_leaders = list(attack.defence_leaders)
    if not action.wide and len(defence_leaders) == 2:
        if action.engage not in defence_leaders:
            raise refused("engage-one", units=defence_leaders)
        defence_leaders = [action.engage]
    elif action.engage is not None:
        raise refused("engage-only-narrow", unit=action.engage)
    artillery_led = bool(leaders) and state.units[leaders[0]].face.type == ARTILLERY
    fire_refusal = attack_fire_refusal(state, game.map, attack.attack_locale,
                                       attack.defence_locale, artillery_led, attackers)
    if fire_refusal:
        raise Refused(fire_refusal)
    spend_orders(game, attack, action.orders)
    attack.defence_leaders = defence_leaders
    attack.attack_leaders, attack.wide = list(leaders), action.wide
    attack.artillery_led = artillery_led
    if artillery_led:
        state.artillery_fire[(attack.attack_locale, attack.defence_locale)] = state.round
    reveal(game, leaders, "attack leader")
    commit_elite(game, [*leaders, *defence_leaders], "leader")
    attack.initial = initial_result([state.units[u].face for u in leaders],
                                    [state.units[u].face for u in defence_leaders],
                                    attack.blocked, border.symbols_of(attack.defence_locale),
                                    guard_attack=attack.guard_attack)
    game.emit(AttackDeclared(attack.attacker, tuple(attackers), tuple(leaders), action.wide,
                             tuple(defence_leaders), attack.initial))
    if any(u not in defence_leaders for u in attack.defenders):
        attack.step = "counter_attack"
    else:
        resolve(game, attack)
