"""The attack sequence (1.9) as a state machine: steps 1-5 and the dispatch of every step."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from engine.triumph.elite import RULE as GUARD_RULE
from engine.triumph.elite import check_guard_leaders, check_guard_threat
from engine.triumph.elite import commit as commit_elite
from engine.triumph.orders import check_orders, spend_orders
from engine.triumph.pieces import ARTILLERY, CAVALRY, Position, opponent
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
from engine.triumph.road_attacks import RULE as ROAD_RULE
from engine.triumph.road_attacks import (
    is_road_attack,
    reveal_riders,
    road_march_marks,
    road_riders,
)
from engine.triumph.state import AttackState

if TYPE_CHECKING:
    from engine.triumph.game import TriumphGame

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


def apply_threat(game: TriumphGame, action: Threat) -> None:
    """Step 1: check the threat, open the attack and, with blockers, record their defence."""
    state, battle_map = game.state, game.map
    side = action.side
    if action.from_ not in battle_map.locales or action.into not in battle_map.locales:
        raise game.refuse("nt-attack", "threaten from a locale into a locale of the map")
    if state.occupant(action.from_) == opponent(side):
        raise game.refuse("nt-attack", f"the {side} army does not occupy {action.from_}")
    if state.occupant(action.into) != opponent(side):
        raise game.refuse("nt-attack", f"{action.into} is not held by the enemy")
    if not battle_map.is_passable(action.from_, action.into):
        raise game.refuse("nt-attack", f"{action.from_} and {action.into} share no passable "
                                       f"border")
    if (action.from_, action.into) in state.turn.closed:
        raise game.refuse("nt-attack", f"the approach {action.from_}>{action.into} is closed "
                                       f"this turn")
    if not attack_candidates(game, side, action.from_, action.into) and not road_riders(
            game, side, action.from_, action.into):
        # 1.9 step 1: a piece there, or (M2) cavalry that can ride up by road and on across
        raise game.refuse("nt-attack", f"no unit in R{action.from_} or {action.from_}>"
                                       f"{action.into} can still be commanded to attack, and "
                                       f"no cavalry can ride there by road and on into "
                                       f"{action.into}")
    if action.guard is not None:
        problem = check_guard_threat(game, side, action.guard, action.from_, action.into)
        if problem:
            raise game.refuse(GUARD_RULE, problem)
    attack = AttackState(side, opponent(side), action.from_, action.into,
                         guard_attack=action.guard is not None)
    state.attack = attack
    game.emit("threat", side=side, attack_locale=action.from_, defence_locale=action.into,
              guard=action.guard)
    if action.guard is not None:
        game.reveal([action.guard], "Guard Attack announced")
    blockers = [u.id for u in state.units_at(Position(action.into, action.from_))]
    if blockers:
        attack.defenders, attack.blocked = blockers, True
        if readings.BLOCKERS_DEFEND_AUTOMATICALLY:
            _blockers_defend(game, attack)


def _blockers_defend(game: TriumphGame, attack: AttackState) -> None:
    """Step 2 with the defence approach blocked: the blockers, and only they, defend."""
    for unit_id in attack.defenders:
        game.state.turn.defended[unit_id] = attack.attack_locale
    game.emit("defend", side=attack.defender, units=list(attack.defenders), blocking=True)
    attack.step = "feint_or_press"


def _answer_blocked(game: TriumphGame, attack: AttackState, action: Defend | Retreat) -> None:
    """The defender's answer to a threat against blockers (3.5): they defend, nothing else.

    Asked only with the reading BLOCKERS_DEFEND_AUTOMATICALLY off; with it on (the engine has
    recorded the defence itself) a record may still carry the answer right after the threat,
    and a defence naming exactly the blockers is then accepted and changes nothing.
    """
    blockers = Position(attack.defence_locale, attack.attack_locale)
    if isinstance(action, Retreat):
        raise game.refuse("nt-retreat", "defenders blocking the approach must defend")
    if sorted(action.units) != sorted(attack.defenders):
        raise game.refuse("nt-defend", f"the units blocking {blockers} defend, and no others: "
                                       f"{', '.join(attack.defenders)}")
    if attack.step == "response":
        _blockers_defend(game, attack)


def attack_candidates(game: TriumphGame, side: str, locale: int, into: int) -> list[str]:
    """Units in R`locale` or `locale`>`into` that some command could still move to carry out
    an attack across `locale`>`into` (the fixed battery only where it could lead it)."""
    state = game.state
    return [unit.id for position in (Position(locale), Position(locale, into))
            for unit in state.units_at(position) if can_be_commanded(state, side, unit)
            and (not is_battery(state, unit.id)
                 or battery_may_carry_out(state, game.map, unit, locale, into))]


def apply_step(game: TriumphGame, action: Action) -> None:
    """Apply the action the attack's current step expects (refused otherwise)."""
    attack = game.state.attack
    assert attack is not None
    if (attack.blocked and isinstance(action, (Defend, Retreat))
            and action.side == attack.defender and attack.step in ("response", "feint_or_press")):
        _answer_blocked(game, attack, action)
        return
    expected = STEP_ACTIONS[attack.step]
    if not isinstance(action, expected):
        names = " or ".join(cls.type for cls in expected)
        raise game.refuse("nt-turn", f"an attack is in progress: the {decider(attack)} player "
                                     f"must decide {attack.step} ({names})")
    if action.side != decider(attack):
        raise game.refuse("nt-turn", f"the {decider(attack)} player decides {attack.step}")
    handler = {Defend: _defend, Retreat: _retreat, Feint: _feint, Press: _press,
               DefenceLeaders: _defence_leaders, Attack: _attack, CounterAttack: counter_attack,
               OddLoss: odd_loss, AssignLosses: assign_losses, Occupy: _occupy,
               Regroup: regroup, Advance: advance}[type(action)]
    handler(game, attack, action)  # type: ignore[operator]


def _defend(game: TriumphGame, attack: AttackState, action: Defend) -> None:
    state = game.state
    reserve = Position(attack.defence_locale)
    units = action.units
    if not units or len(set(units)) != len(units):
        raise game.refuse("nt-attack", "name at least one defending unit, each once")
    for unit_id in units:
        unit = state.units.get(unit_id)
        if unit is None or unit.side != attack.defender or unit.at != reserve:
            raise game.refuse("nt-attack", f"{unit_id} is not a unit in {reserve}")
        faced = state.turn.defended.get(unit_id)
        if faced is not None and faced != attack.attack_locale:
            raise game.refuse("nt-attack", f"{unit_id} already defended another approach this "
                                           f"turn")
        if unit_id in state.turn.retreated:
            raise game.refuse("nt-attack", f"{unit_id} retreated after combat this turn")
    if sum(state.units[u].commander is None for u in units) > 1:
        raise game.refuse("nt-attack", "at most one detached unit may defend")
    attack.defenders, attack.defenders_in_reserve = list(units), True
    for unit_id in units:
        state.turn.defended[unit_id] = attack.attack_locale
    game.emit("defend", side=attack.defender, units=list(units), blocking=False)
    attack.step = "feint_or_press"


def _retreat(game: TriumphGame, attack: AttackState, action: Retreat) -> None:
    state = game.state
    refusal = retreat_refusal(state, game.map, attack, action)
    if refusal:
        raise game.refuse(refusal.rule, refusal.message)
    before_combat = attack.step == "response"
    plan = retreat_plan(state, game.map, attack)
    game.reveal(plan.units, "retreat")
    commit_elite(game, plan.units, "retreat")
    losses = dict(action.losses)
    lost = 0
    for unit_id in plan.artillery:
        lost += game.lose_steps(unit_id, state.units[unit_id].face.strength, "retreat")
    for unit_id, steps in losses.items():
        if unit_id not in plan.artillery and steps:
            lost += game.lose_steps(unit_id, steps, "retreat")
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
            game.eliminate(unit, "no room to retreat")
            continue
        unit.at = Position(target)
        if not before_combat or not readings.BAR_ONLY_AFTER_COMBAT_RETREAT:
            state.turn.retreated.add(unit_id)
    for name in plan.commanders:
        commander = state.commanders[name]
        kept = keep.get(name)
        if kept is not None and state.units[kept].at is not None:
            commander.at = state.units[kept].at
    game.emit("retreat", side=attack.defender, locale=attack.defence_locale,
              to={u: destinations[u] for u in survivors if u in destinations},
              steps_lost=lost, before_combat=before_combat)
    attack.lost[attack.defender] = attack.lost.get(attack.defender, 0) + lost
    # 1.11: the side that retreats has lost (before combat, or beaten): it pays these steps now
    game.lose_morale(attack.defender, lost)
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
        game.emit("attack-end", side=attack.attacker, before_combat=True)


def _occupiers(game: TriumphGame, attack: AttackState) -> bool:
    """Whether any piece but the fixed battery could still move into the emptied locale."""
    state = game.state
    standing = [u for u in attack_candidates(game, attack.attacker, attack.attack_locale,
                                             attack.defence_locale) if not is_battery(state, u)]
    return bool(standing) or bool(road_riders(game, attack.attacker, attack.attack_locale,
                                              attack.defence_locale, into_defence=True))


def _occupy(game: TriumphGame, attack: AttackState, action: Occupy) -> None:
    """After a retreat before combat the attacker moves in; by road the riders are revealed."""
    # No retreat can block the road of a legal road threat: a locale a road attack passes
    # through before the attack locale never borders the defence locale on this map.
    refusal = occupation_battery_refusal(game.state, action.orders)
    if refusal:
        raise game.refuse(refusal.rule, refusal.message)
    if holds_in_place(game.state, action.orders):
        # the fixed battery carries the attack out where it stands (1.9 step 2, reading
        # FIXED_BATTERY_HOLDS_AFTER_RETREAT): its command is spent, the locale stays empty
        check_orders(game, attack, action.orders)
        spend_orders(game, attack, action.orders)
        game.state.attack = None
        game.emit("attack-end", side=attack.attacker, before_combat=True)
        return
    by_road = is_road_attack(action.orders)
    if by_road:
        check_orders(game, attack, action.orders)  # refuse before any face is shown
        reveal_riders(game, action.orders)
    occupy(game, attack, action)
    if by_road:
        road_march_marks(game, attack, action.orders, attack.defence_locale)


def _feint(game: TriumphGame, attack: AttackState, action: Feint) -> None:
    if attack.guard_attack:
        raise game.refuse(GUARD_RULE, "a Guard Attack cannot be a feint")
    if action.end not in ("approach", "reserve"):
        raise game.refuse("nt-attack", "a feint ends on the approach or in the reserve")
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
            road_march_marks(game, attack, action.orders, attack.attack_locale)
    attack.feint = True
    game.state.turn.closed.add((attack.attack_locale, attack.defence_locale))
    game.emit("feint", side=attack.attacker, units=list(attack.attackers), end=action.end)
    after_repulse(game, attack)


def _press(game: TriumphGame, attack: AttackState, action: Press) -> None:
    if not attack_candidates(game, attack.attacker, attack.attack_locale, attack.defence_locale):
        raise game.refuse(ROAD_RULE, "only cavalry by road can carry out this attack, and a "
                                     "cavalry attack by road must be a feint when the "
                                     "defender stands")
    game.emit("press", side=attack.attacker)
    attack.step = "defence_leaders"


def _defence_leaders(game: TriumphGame, attack: AttackState, action: DefenceLeaders) -> None:
    state = game.state
    border = game.map.border(attack.defence_locale, attack.attack_locale)
    assert border is not None
    leaders = action.units
    limit = 2 if border.wide else 1
    if len(leaders) > limit or len(set(leaders)) != len(leaders):
        raise game.refuse("nt-leaders", f"at most {limit} defence leader(s) across a "
                                        f"{'wide' if border.wide else 'narrow'} border")
    for unit_id in leaders:
        if unit_id not in attack.defenders:
            raise game.refuse("nt-leaders", f"{unit_id} is not a defending unit")
        unit = state.units[unit_id]
        assert unit.at is not None
        if unit.at.is_reserve and unit.face.strength == 1:
            raise game.refuse("nt-leaders", f"{unit_id} has strength 1: it cannot lead from "
                                            f"the reserve")
        if unit.face.type == CAVALRY and "O" in border.symbols_of(attack.defence_locale):
            raise game.refuse("nt-leaders", "cavalry cannot lead the defence of an obstructed "
                                            "approach")
    faces = [state.units[u] for u in leaders]
    if len(faces) == 2:
        if faces[0].face.type != faces[1].face.type:
            raise game.refuse("nt-leaders", "two leaders must be of the same type")
        assert faces[0].at is not None and faces[1].at is not None
        if faces[0].at.is_reserve and faces[1].at.is_reserve and (
                faces[0].commander is None or faces[0].commander != faces[1].commander):
            raise game.refuse("nt-leaders", "two leaders from the reserve must be of one corps")
    attack.defence_leaders = list(leaders)
    game.reveal(leaders, "defence leader")
    game.emit("defence-leaders", side=attack.defender, units=list(leaders))
    attack.step = "attack"


def _attack(game: TriumphGame, attack: AttackState, action: Attack) -> None:
    state = game.state
    border = game.map.border(attack.defence_locale, attack.attack_locale)
    assert border is not None
    start = check_orders(game, attack, action.orders)
    attackers = [u for order in action.orders for u in order.moving_units]
    if action.wide and not border.wide:
        raise game.refuse("nt-attack", "a wide attack needs a wide border")
    limit = 2 if action.wide else 1
    leaders = action.leaders
    if len(leaders) > limit or len(set(leaders)) != len(leaders):
        raise game.refuse("nt-leaders", f"at most {limit} attack leader(s) in a "
                                        f"{'wide' if action.wide else 'narrow'} attack")
    corps_units = {u for order in action.orders if order.type == "corps_move"
                   for u in order.units}
    for unit_id in leaders:
        if unit_id not in attackers:
            raise game.refuse("nt-leaders", f"{unit_id} is not an attacking unit")
        face = state.units[unit_id].face
        if face.strength == 1 and face.type != ARTILLERY:
            raise game.refuse("nt-leaders", f"{unit_id} has strength 1: only artillery leads "
                                            f"at strength 1")
        if face.type == ARTILLERY and (start.is_reserve or unit_id in corps_units):
            raise game.refuse("nt-leaders", "artillery leads only from the attack approach, "
                                            "by a Unit Move")
        if face.type == CAVALRY and "O" in border.symbols_of(attack.defence_locale):
            raise game.refuse("nt-leaders", "cavalry cannot lead across an obstructed approach")
    batteries = [o.unit for o in action.orders if o.type == "unit_move"
                 and o.unit is not None and state.units[o.unit].face.type == ARTILLERY]
    if len(batteries) > 1 and not set(batteries) <= set(leaders):
        raise game.refuse("nt-commands", "two artillery Unit Moves combine only when both "
                                         "batteries lead the attack")
    if len(leaders) == 2:
        first, second = (state.units[u].face for u in leaders)
        if first.type != second.type:
            raise game.refuse("nt-leaders", "two leaders must be of the same type")
        if first.guard != second.guard:
            raise game.refuse("nt-leaders", "a Guard unit leads only beside a Guard unit")
    problem = check_guard_leaders(game, attack, leaders)
    if problem:
        raise game.refuse(GUARD_RULE, problem)
    capacity = game.map.locales[attack.defence_locale].capacity
    if len(attackers) > capacity:
        raise game.refuse("nt-capacity", f"{len(attackers)} attackers do not fit "
                                         f"{attack.defence_locale} (capacity {capacity})")
    defence_leaders = list(attack.defence_leaders)
    if not action.wide and len(defence_leaders) == 2:
        if action.engage not in defence_leaders:
            raise game.refuse("nt-leaders", "a narrow attack engages one of the two defence "
                                            "leaders: name it")
        defence_leaders = [action.engage]
    elif action.engage is not None:
        raise game.refuse("nt-leaders", "engage only in a narrow attack on two defence leaders")
    artillery_led = bool(leaders) and state.units[leaders[0]].face.type == ARTILLERY
    fire_refusal = attack_fire_refusal(state, game.map, attack.attack_locale,
                                       attack.defence_locale, artillery_led, attackers)
    if fire_refusal:
        raise game.refuse(fire_refusal.rule, fire_refusal.message)
    spend_orders(game, attack, action.orders)
    attack.defence_leaders = defence_leaders
    attack.attack_leaders, attack.wide = list(leaders), action.wide
    attack.artillery_led = artillery_led
    if artillery_led:
        state.artillery_fire[(attack.attack_locale, attack.defence_locale)] = state.round
    game.reveal(leaders, "attack leader")
    commit_elite(game, [*leaders, *defence_leaders], "leader")
    attack.initial = initial_result([state.units[u].face for u in leaders],
                                    [state.units[u].face for u in defence_leaders],
                                    attack.blocked, border.symbols_of(attack.defence_locale),
                                    guard_attack=attack.guard_attack)
    game.emit("attack", side=attack.attacker, units=attackers, leaders=list(leaders),
              wide=action.wide, engaged=defence_leaders, initial=attack.initial)
    if any(u not in defence_leaders for u in attack.defenders):
        attack.step = "counter_attack"
    else:
        resolve(game, attack)
