"""Elite units (our reading 1.13): heavy cavalry and Guard commitment, Guard Attacks.

The first time one of an army's heavy cavalry (cavalry 3) leads, counter-attacks, takes a loss
or retreats, that army loses 2 morale; the first time a Guard unit does, 4. These costs never
take morale below 1. A Guard Attack is announced at the threat by revealing a Guard unit: it is
led by Guard units only, cannot be a feint, and if it fails the army loses 3 more morale (this
can demoralise) and may declare no more Guard Attacks.
"""

from __future__ import annotations

from engine.core.refusals import Refusal
from engine.triumph import readings
from engine.triumph.effects import lose_morale
from engine.triumph.events import EliteCommitted, GuardAttackFailed
from engine.triumph.pieces import CAVALRY, Face, Position
from engine.triumph.protocols import RulingGame
from engine.triumph.refusals import refusal
from engine.triumph.rules import raw_order_of_battle
from engine.triumph.state import AttackState

HEAVY_CAVALRY, GUARD = "heavy_cavalry", "guard"


def elite_kind(face: Face) -> str | None:
    """"guard", "heavy_cavalry" or None for a face."""
    if face.guard:
        return GUARD
    if face.type == CAVALRY and face.strength == 3:
        return HEAVY_CAVALRY
    return None


def cost(kind: str) -> int:
    """The morale an army pays the first time it commits that kind of elite unit."""
    return int(raw_order_of_battle()["constants"]["elite_costs"][kind])


def commit(game: RulingGame, unit_ids: list[str] | tuple[str, ...], why: str) -> None:
    """Charge the first commitment of heavy cavalry and of the Guard, once per army each."""
    state = game.state
    for unit_id in unit_ids:
        unit = state.units[unit_id]
        kind = elite_kind(unit.face)
        key = f"{unit.side}:{kind}"
        if kind is None or key in state.elite_committed:
            continue
        state.elite_committed.add(key)
        game.emit(EliteCommitted(unit.side, kind, unit_id, why))
        lose_morale(game, unit.side, cost(kind), floor=readings.ELITE_COST_MORALE_FLOOR)


def check_guard_threat(game: RulingGame, side: str, unit_id: str, from_: int, into: int
                       ) -> Refusal | None:
    """Why a Guard Attack cannot be announced with `unit_id`, or None."""
    state = game.state
    unit = state.units.get(unit_id)
    if side in state.guard_attacks_barred:
        return refusal("guard-attacks-barred", side=side)
    if unit is None or unit.side != side or not unit.face.guard or unit.at is None:
        return refusal("not-a-guard", unit=unit_id, side=side)
    if unit.at not in (Position(from_), Position(from_, into)):
        return refusal("guard-elsewhere", unit=unit_id, attack_locale=from_,
                       defence_locale=into)
    return None


def check_guard_leaders(game: RulingGame, attack: AttackState, leaders: tuple[str, ...]
                        ) -> Refusal | None:
    """Why these leaders cannot lead a Guard Attack, or None."""
    if not attack.guard_attack:
        return None
    if not leaders or not all(game.state.units[u].face.guard for u in leaders):
        return refusal("guard-leaders", units=leaders)
    return None


def after_guard_attack(game: RulingGame, attack: AttackState) -> None:
    """A failed Guard Attack costs 3 more morale and bars further Guard Attacks."""
    if not attack.guard_attack or attack.winner != "defender":
        return
    game.state.guard_attacks_barred.add(attack.attacker)
    game.emit(GuardAttackFailed(attack.attacker))
    lose_morale(game, attack.attacker, cost("failed_guard_attack"))
