"""The attack sequence (1.9) as a state machine: each step checks one decision and moves on."""

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
    Order,
    Press,
    Regroup,
    Retreat,
    Threat,
)
from engine.triumph.combat import (
    even_spread,
    final_result,
    initial_result,
    loss_points,
    winner,
)
from engine.triumph.commands import (
    corps_units_refusal,
    independent_command_refusal,
    unit_refusal,
)
from engine.triumph.pieces import ARTILLERY, CAVALRY, INFANTRY, Face, Position, opponent
from engine.triumph.retreat import default_keep, retreat_plan, retreat_refusal
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
# The loss stages of step 10, in the fixed order the decisions are asked.
LOSS_STAGES = ("attack_leaders", "defence_leaders", "counter", "attacker_others",
               "defender_others")


def decider(attack: AttackState) -> str:
    """The side that must decide the attack's current step."""
    if attack.step in ATTACKER_STEPS:
        return attack.attacker
    if attack.step in ("odd_loss", "assign_losses"):
        return stage_decider(attack, attack.queue[0])
    return attack.defender


def stage_decider(attack: AttackState, stage: str) -> str:
    """Who chooses in a loss stage: leaders' odd points by the opponent, the rest by the owner."""
    if stage == "attack_leaders":
        return attack.defender
    if stage == "defence_leaders":
        return attack.attacker
    if stage == "attacker_others":
        return attack.attacker
    return attack.defender


# --- step 1: threat ----------------------------------------------------------------------

def apply_threat(game: TriumphGame, action: Threat) -> None:
    """Step 1: check the threat, open the attack and, with blockers, record their defence."""
    state, battle_map = game.state, game.map
    side = action.side
    if action.guard is not None:
        raise game.refuse("nt-attack", "Guard Attacks come with the elite-unit rules (M2)")
    if action.from_ not in battle_map.locales or action.into not in battle_map.locales:
        raise game.refuse("nt-attack", "threaten from a locale into a locale of the map")
    if state.occupant(action.from_) != side:
        raise game.refuse("nt-attack", f"the {side} army does not occupy {action.from_}")
    if state.occupant(action.into) != opponent(side):
        raise game.refuse("nt-attack", f"{action.into} is not held by the enemy")
    if not battle_map.is_passable(action.from_, action.into):
        raise game.refuse("nt-attack", f"{action.from_} and {action.into} share no passable "
                                       f"border")
    if (action.from_, action.into) in state.turn.closed:
        raise game.refuse("nt-attack", f"the approach {action.from_}>{action.into} is closed "
                                       f"this turn")
    if not attack_candidates(game, side, action.from_, action.into):
        raise game.refuse("nt-attack", f"no unit in R{action.from_} or {action.from_}>"
                                       f"{action.into} can still be commanded to attack")
    attack = AttackState(side, opponent(side), action.from_, action.into)
    state.attack = attack
    game.emit("threat", side=side, attack_locale=action.from_, defence_locale=action.into)
    blockers = [u.id for u in state.units_at(Position(action.into, action.from_))]
    if blockers and readings.BLOCKERS_DEFEND_AUTOMATICALLY:
        attack.defenders, attack.blocked = blockers, True
        for unit_id in blockers:
            state.turn.defended[unit_id] = action.from_
        game.emit("defend", side=attack.defender, units=blockers, blocking=True)
        attack.step = "feint_or_press"


def attack_candidates(game: TriumphGame, side: str, locale: int, into: int) -> list[str]:
    """Units in R`locale` or `locale`>`into` that some command could still move."""
    state = game.state
    found = []
    for position in (Position(locale), Position(locale, into)):
        for unit in state.units_at(position):
            if unit.side != side or unit.id in state.turn.moved:
                continue
            if unit.commander is not None and corps_units_refusal(
                    state, side, unit.commander, (unit.id,), proper=False) is None or independent_command_refusal(state, side) is None and (
                    unit.commander is None or len(state.corps(unit.commander)) > 1):
                found.append(unit.id)
    return found


# --- the dispatcher ----------------------------------------------------------------------

def apply_step(game: TriumphGame, action: Action) -> None:
    """Apply the action the attack's current step expects (refused otherwise)."""
    attack = game.state.attack
    assert attack is not None
    expected = STEP_ACTIONS[attack.step]
    if not isinstance(action, expected):
        names = " or ".join(cls.type for cls in expected)
        raise game.refuse("nt-turn", f"an attack is in progress: the {decider(attack)} player "
                                     f"must decide {attack.step} ({names})")
    if action.side != decider(attack):
        raise game.refuse("nt-turn", f"the {decider(attack)} player decides {attack.step}")
    handler = {Defend: _defend, Retreat: _retreat, Feint: _feint, Press: _press,
               DefenceLeaders: _defence_leaders, Attack: _attack, CounterAttack: _counter,
               OddLoss: _odd_loss, AssignLosses: _assign_losses, Occupy: _occupy,
               Regroup: _regroup, Advance: _advance}[type(action)]
    handler(game, attack, action)  # type: ignore[operator]


# --- step 2: response --------------------------------------------------------------------

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
    if attack.step == "response" and attack.blocked:
        raise game.refuse("nt-retreat", "defenders blocking the approach must defend")
    refusal = retreat_refusal(state, game.map, attack, action)
    if refusal:
        raise game.refuse(refusal.rule, refusal.message)
    before_combat = attack.step == "response"
    plan = retreat_plan(state, game.map, attack)
    game.reveal(plan.units, "retreat")
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
    if before_combat:
        attack.before_combat = True
        game.lose_morale(attack.defender, lost)
        if game.state.result is not None:
            game.state.attack = None
            return
        attack.step = "occupy"
        return
    _move_in(game, attack)
    _finish(game, attack)


# --- step 3: feint or press --------------------------------------------------------------

def _feint(game: TriumphGame, attack: AttackState, action: Feint) -> None:
    if action.end not in ("approach", "reserve"):
        raise game.refuse("nt-attack", "a feint ends on the approach or in the reserve")
    start = _orders_refusal(game, attack, action.orders)
    _spend(game, attack, action.orders)
    if action.end == "approach" and start.is_reserve:
        to = Position(attack.attack_locale, attack.defence_locale)
        for unit_id in attack.attackers:
            game.state.units[unit_id].at = to
        for name in attack.moving_commanders:
            game.state.commanders[name].at = to
    attack.feint = True
    game.state.turn.closed.add((attack.attack_locale, attack.defence_locale))
    game.emit("feint", side=attack.attacker, units=list(attack.attackers), end=action.end)
    _after_repulse(game, attack)


def _press(game: TriumphGame, attack: AttackState, action: Press) -> None:
    game.emit("press", side=attack.attacker)
    attack.step = "defence_leaders"


# --- step 4: defence leaders -------------------------------------------------------------

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


# --- step 5: attack declaration ----------------------------------------------------------

def _attack(game: TriumphGame, attack: AttackState, action: Attack) -> None:
    state = game.state
    border = game.map.border(attack.defence_locale, attack.attack_locale)
    assert border is not None
    start = _orders_refusal(game, attack, action.orders)
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
    _spend(game, attack, action.orders)
    attack.defence_leaders = defence_leaders
    attack.attack_leaders, attack.wide = list(leaders), action.wide
    attack.artillery_led = bool(leaders) and state.units[leaders[0]].face.type == ARTILLERY
    game.reveal(leaders, "attack leader")
    attack.initial = initial_result([state.units[u].face for u in leaders],
                                    [state.units[u].face for u in defence_leaders],
                                    attack.blocked, border.symbols_of(attack.defence_locale))
    game.emit("attack", side=attack.attacker, units=attackers, leaders=list(leaders),
              wide=action.wide, engaged=defence_leaders, initial=attack.initial)
    if any(u not in defence_leaders for u in attack.defenders):
        attack.step = "counter_attack"
    else:
        _resolve(game, attack)


def _orders_refusal(game: TriumphGame, attack: AttackState, orders: tuple[Order, ...]
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
    from engine.triumph.rules import constants

    limits = constants()
    if state.turn.independent_commands + independent > limits.independent_commands[
            attack.attacker]:
        raise game.refuse("nt-commands", f"not enough independent commands left for "
                                         f"{independent} Unit Moves")
    corps_limit = limits.corps_commands[attack.attacker]
    if corps_limit is not None and state.turn.corps_commands + len(seen) > corps_limit:
        raise game.refuse("nt-commands", f"the {attack.attacker} army has only {corps_limit} "
                                         f"corps commands a turn")
    allowed = {Position(attack.attack_locale),
               Position(attack.attack_locale, attack.defence_locale)}
    if not starts <= allowed:
        raise game.refuse("nt-attack", f"attackers start in R{attack.attack_locale} or on "
                                       f"{attack.attack_locale}>{attack.defence_locale}")
    if len(starts) > 1 and readings.ATTACK_ORDERS_SAME_POSITION:
        raise game.refuse("nt-attack", "the commands of one attack start from one position")
    return next(iter(starts))


def _spend(game: TriumphGame, attack: AttackState, orders: tuple[Order, ...]) -> None:
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


# --- steps 7-10 --------------------------------------------------------------------------

def counter_attack_refusal(game: TriumphGame, attack: AttackState, units: tuple[str, ...]
                           ) -> str | None:
    """Why these units may not counter-attack, or None (rule nt-counter-attack)."""
    state = game.state
    if len(units) > 2 or len(set(units)) != len(units):
        return "at most two counter-attackers, each once"
    if units and attack.artillery_led:
        return "nobody counter-attacks an artillery-led attack"
    border = game.map.border(attack.defence_locale, attack.attack_locale)
    assert border is not None and attack.initial is not None
    attacker_winning = winner(attack.initial, attack.blocked, len(attack.attackers),
                              len(attack.defenders), attack.attacker) == "attacker"
    for unit_id in units:
        if unit_id not in attack.defenders or unit_id in attack.defence_leaders:
            return f"{unit_id} is not a defending unit that is not leading"
        face = state.units[unit_id].face
        if face.type == ARTILLERY:
            return "artillery never counter-attacks"
        if face.type == CAVALRY and "O" in border.symbols_of(attack.defence_locale):
            return "cavalry cannot counter-attack across an obstructed approach"
        if face.type == INFANTRY and readings.INFANTRY_COUNTER_ONLY_WHEN_ATTACKER_WINNING and (
                not attacker_winning):
            return "infantry counter-attacks only when the attacker is winning"
    if len(units) == 2:
        first, second = (state.units[u] for u in units)
        if first.face.type != second.face.type:
            return "two counter-attackers are of one type"
        if first.commander != second.commander or (
                first.commander is None and not readings.DETACHED_COUNTER_ATTACKERS_MAY_PAIR):
            return "two counter-attackers are of one corps"
        if first.face.guard != second.face.guard:
            return "Guard does not counter-attack beside line infantry"
    return None


def _counter(game: TriumphGame, attack: AttackState, action: CounterAttack) -> None:
    problem = counter_attack_refusal(game, attack, action.units)
    if problem:
        raise game.refuse("nt-counter-attack", problem)
    faces = [game.state.units[u].face for u in action.units]
    attack.counter = list(action.units)
    game.reveal(action.units, "counter-attack")
    game.emit("counter-attack", side=attack.defender, units=list(action.units))
    lost = sum(game.lose_steps(u, 1, "counter-attack") for u in action.units)
    attack.lost[attack.defender] = attack.lost.get(attack.defender, 0) + lost
    _resolve(game, attack, faces)


def _resolve(game: TriumphGame, attack: AttackState, counter_faces: list[Face] | None = None) -> None:
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
    game.emit("combat", initial=attack.initial, final=attack.final, winner=attack.winner,
              losses=dict(attack.points))
    attack.queue = list(LOSS_STAGES)
    _spread_losses(game, attack)


def stage_group(game: TriumphGame, attack: AttackState, stage: str) -> tuple[str, list[str]]:
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


def _spread_losses(game: TriumphGame, attack: AttackState) -> None:
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


def _take(game: TriumphGame, attack: AttackState, role: str, losses: dict[str, int]) -> None:
    side = attack.attacker if role == "attacker" else attack.defender
    for unit_id, steps in losses.items():
        if steps:
            lost = game.lose_steps(unit_id, steps, "combat")
            attack.left[role] -= lost
            attack.lost[side] = attack.lost.get(side, 0) + lost


def _odd_loss(game: TriumphGame, attack: AttackState, action: OddLoss) -> None:
    stage = attack.queue[0]
    role, group = stage_group(game, attack, stage)
    if action.unit not in group:
        raise game.refuse("nt-attack", f"the odd loss point falls on one of {', '.join(group)}")
    strengths = [game.state.units[u].face.strength for u in group]
    spread, _, _ = even_spread(attack.left[role], strengths)
    if group[0] != action.unit:
        spread = [spread[0] - 1, spread[1] + 1]
    game.emit("odd-loss", side=action.side, unit=action.unit)
    _take(game, attack, role, dict(zip(group, spread, strict=True)))
    attack.queue.pop(0)
    _spread_losses(game, attack)


def _assign_losses(game: TriumphGame, attack: AttackState, action: AssignLosses) -> None:
    stage = attack.queue[0]
    role, group = stage_group(game, attack, stage)
    allocation = dict(action.allocation)
    state = game.state
    for unit_id, steps in allocation.items():
        if unit_id not in group or not isinstance(steps, int) or isinstance(steps, bool) or not (
                0 <= steps <= state.units[unit_id].face.strength):
            raise game.refuse("nt-attack", f"{unit_id}: losses fall on {', '.join(group)}, "
                                           f"within each unit's strength")
    if sum(allocation.values()) != attack.left[role]:
        raise game.refuse("nt-attack", f"spread exactly {attack.left[role]} loss point(s)")
    game.emit("assign-losses", side=action.side, allocation=allocation)
    _take(game, attack, role, allocation)
    attack.queue.pop(0)
    _spread_losses(game, attack)


# --- step 11: outcome --------------------------------------------------------------------

def _outcome(game: TriumphGame, attack: AttackState) -> None:
    state = game.state
    if attack.artillery_led:
        if readings.CLOSE_APPROACH_AFTER_ARTILLERY_ATTACK:
            state.turn.closed.add((attack.attack_locale, attack.defence_locale))
        _finish(game, attack)
    elif attack.winner == "attacker":
        if state.units_in(attack.defence_locale, attack.defender):
            attack.step = "retreat"
        else:
            _move_in(game, attack)
            _finish(game, attack)
    else:
        state.turn.closed.add((attack.attack_locale, attack.defence_locale))
        if _regroup_needed(game, attack):
            attack.step = "regroup"
        else:
            _regroup_apply(game, attack, {})
            _after_repulse(game, attack)


def _move_in(game: TriumphGame, attack: AttackState) -> None:
    state = game.state
    to = Position(attack.defence_locale)
    moved = [u for u in attack.attackers if state.units[u].at is not None]
    for unit_id in moved:
        state.units[unit_id].at = to
    for name in attack.moving_commanders:
        if state.corps(name):
            state.commanders[name].at = to
    state.turn.stormed.add(attack.defence_locale)
    game.emit("storm", side=attack.attacker, locale=attack.defence_locale, units=moved)


def _corps_survivors(game: TriumphGame, attack: AttackState) -> dict[str, list[str]]:
    state = game.state
    return {name: [u for u in attack.attackers if state.units[u].at is not None
                   and state.units[u].commander == name] for name in attack.moving_commanders}


def _regroup_needed(game: TriumphGame, attack: AttackState) -> bool:
    state = game.state
    return any(len({state.units[u].face for u in units}) > 1
               for units in _corps_survivors(game, attack).values())


def _regroup_apply(game: TriumphGame, attack: AttackState, keep: dict[str, str]) -> None:
    state = game.state
    for name, units in _corps_survivors(game, attack).items():
        kept = keep.get(name, units[0] if units else None)
        for unit_id in units:
            if unit_id != kept:
                state.units[unit_id].commander = None


def _regroup(game: TriumphGame, attack: AttackState, action: Regroup) -> None:
    keep = dict(action.keep)
    survivors = _corps_survivors(game, attack)
    for name, units in survivors.items():
        if len({game.state.units[u].face for u in units}) > 1 and keep.get(name) not in units:
            raise game.refuse("nt-attack", f"name the unit {name}'s corps keeps (one of "
                                           f"{', '.join(units)})")
    if set(keep) - set(survivors):
        raise game.refuse("nt-attack", "only attacking corps regroup")
    game.emit("regroup", side=attack.attacker, keep=keep)
    _regroup_apply(game, attack, keep)
    _after_repulse(game, attack)


def _after_repulse(game: TriumphGame, attack: AttackState) -> None:
    """After a feint or a repulse, defenders from the reserve advance to block the approach."""
    survivors = advance_candidates(game, attack)
    if survivors:
        attack.step = "advance"
    else:
        _finish(game, attack)


def advance_candidates(game: TriumphGame, attack: AttackState) -> list[str]:
    """Defending units still in the reserve that must provide the advance."""
    if not attack.defenders_in_reserve:
        return []
    reserve = Position(attack.defence_locale)
    return [u for u in attack.defenders if game.state.units[u].at == reserve]


def _advance(game: TriumphGame, attack: AttackState, action: Advance) -> None:
    state = game.state
    candidates = advance_candidates(game, attack)
    units = action.units
    if not units or len(set(units)) != len(units) or not set(units) <= set(candidates):
        raise game.refuse("nt-attack", f"at least one of {', '.join(candidates)} advances to "
                                       f"block the approach")
    reserve = Position(attack.defence_locale)
    for name in action.commanders:
        commander = state.commanders.get(name)
        if commander is None or commander.at != reserve or commander.side != attack.defender:
            raise game.refuse("nt-attack", f"{name} is not a commander in {reserve}")
        if any(u.id not in units for u in state.units_at(reserve) if u.commander == name):
            raise game.refuse("nt-attack", f"{name} advances only with all its units there")
    for commander in state.commanders_in(attack.defence_locale):
        if commander.at == reserve and commander.name not in action.commanders:
            mine = [u.id for u in state.units_at(reserve) if u.commander == commander.name]
            if mine and set(mine) <= set(units):
                raise game.refuse("nt-attack", f"{commander.name} cannot stay behind alone: "
                                               f"it advances with its units")
    to = Position(attack.defence_locale, attack.attack_locale)
    for unit_id in units:
        unit = state.units[unit_id]
        unit.at = to
        if unit.commander is not None and unit.commander not in action.commanders:
            unit.commander = None
    for name in action.commanders:
        state.commanders[name].at = to
    game.emit("advance", side=attack.defender, units=list(units), to=str(to))
    _finish(game, attack)


def _occupy(game: TriumphGame, attack: AttackState, action: Occupy) -> None:
    _orders_refusal(game, attack, action.orders)
    count = sum(len(o.moving_units) for o in action.orders)
    capacity = game.map.locales[attack.defence_locale].capacity
    if count > capacity:
        raise game.refuse("nt-capacity", f"{count} units do not fit {attack.defence_locale} "
                                         f"(capacity {capacity})")
    _spend(game, attack, action.orders)
    _move_in(game, attack)
    game.state.attack = None
    game.emit("attack-end", side=attack.attacker, before_combat=True)


def _finish(game: TriumphGame, attack: AttackState) -> None:
    """End the attack: the loser of a fought attack loses morale for the steps it lost."""
    state = game.state
    state.attack = None
    if not attack.feint and not attack.before_combat and attack.winner is not None:
        loser = attack.defender if attack.winner == "attacker" else attack.attacker
        floor = readings.ARTILLERY_LOSSES_MORALE_FLOOR if attack.artillery_led else 0
        game.lose_morale(loser, attack.lost.get(loser, 0), floor)
    game.emit("attack-end", side=attack.attacker, feint=attack.feint, winner=attack.winner)
