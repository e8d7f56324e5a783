"""The pure formulas of an attack (1.9 steps 6-10): results, winner, loss points, their spread."""

from __future__ import annotations

from dataclasses import dataclass

from engine.triumph import readings
from engine.triumph.pieces import ARTILLERY, CAVALRY, FRENCH, INFANTRY, Face

PENALTY_LETTER = {INFANTRY: "I", CAVALRY: "C", ARTILLERY: "A"}


def initial_result(attack_leaders: list[Face], defence_leaders: list[Face], blocked: bool,
                   defence_symbols: str, guard_attack: bool = False) -> int:
    """Step 6: attack leaders' strength, less the penalties and (unless artillery leads) the
    defence leaders' strength."""
    result = sum(face.strength for face in attack_leaders)
    artillery_led = bool(attack_leaders) and attack_leaders[0].type == ARTILLERY
    if attack_leaders and (blocked or not readings.PENALTIES_ONLY_AGAINST_BLOCKERS):
        kind = attack_leaders[0].type
        if kind == INFANTRY:
            result -= 1
        if PENALTY_LETTER[kind] in defence_symbols:
            result -= 1
    if not artillery_led:
        for face in defence_leaders:
            strength = face.strength
            if guard_attack and strength < 3:
                strength -= 1
            result -= strength
    return result


def final_result(initial: int, counter_attackers: list[Face]) -> int:
    """Step 8: the initial result less each counter-attacker's strength after its lost step."""
    return initial - sum(face.strength - 1 for face in counter_attackers)


def winner(final: int, blocked: bool, attacking_units: int, defending_units: int,
           attacker_side: str) -> str:
    """Step 9: "attacker" or "defender"; ties go to blockers, then to numbers, then the French."""
    if final > 0:
        return "attacker"
    if final < 0 or blocked:
        return "defender"
    if attacking_units != defending_units:
        return "attacker" if attacking_units > defending_units else "defender"
    return "attacker" if attacker_side == FRENCH else "defender"


@dataclass(frozen=True)
class LossPoints:
    """Step 10: the loss points each side takes (before they are capped by the pieces)."""

    attacker: int
    defender: int


def loss_points(final: int, artillery_led: bool, attack_leaders: int, defence_leaders: int,
                artillery_defence_leaders: int) -> LossPoints:
    """Step 10: the attacker loses defence leaders plus any deficit (nothing after artillery);
    the defender loses attack leaders plus any surplus, less its artillery leaders."""
    if artillery_led:
        return LossPoints(0, max(0, final))
    reduce = artillery_defence_leaders if readings.ARTILLERY_DEFENCE_LEADERS_REDUCE_LOSSES else 0
    return LossPoints(defence_leaders + max(0, -final),
                      max(0, attack_leaders + max(0, final) - reduce))


def even_spread(points: int, strengths: list[int]) -> tuple[list[int], int, bool]:
    """Spread points over one or two pieces as evenly as their strengths allow.

    Returns (losses per piece, points left over, whether an odd point needs a choice). With an
    odd point and room in both pieces, the first piece is given it; the caller moves it when
    the chooser picks the other piece.
    """
    total = sum(strengths)
    used = min(points, total)
    if len(strengths) == 1:
        return [used], points - used, False
    if not strengths:
        return [], points, False
    half = used // 2
    first, second = min(half, strengths[0]), min(half, strengths[1])
    rest = used - first - second
    choice = False
    if rest:
        room = [strengths[0] - first, strengths[1] - second]
        if rest == 1 and room[0] and room[1]:
            choice = True
            first += 1
        else:
            take = min(rest, room[0])
            first += take
            second += rest - take
    return [first, second], points - used, choice
