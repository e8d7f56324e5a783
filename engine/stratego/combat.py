"""Who wins a battle: one function for every variant, driven by its CombatRules."""

from __future__ import annotations

from enum import StrEnum

from engine.stratego.variants import Variant


class Outcome(StrEnum):
    """The result of an attack, named as in `arbiter check`."""

    ATTACKER = "attacker"  # the attacker wins and stands on the target square
    DEFENDER = "defender"  # the attacker is removed, the defender stays
    BOTH = "both"  # both leave the board

    def __str__(self) -> str:
        return self.value


def resolve_battle(variant: Variant, attacker: str, defender: str) -> Outcome:
    """Decide a battle between two kinds of piece, the attacker moving onto the defender."""
    rules = variant.combat
    if defender in rules.objectives:
        return Outcome.ATTACKER
    if (attacker, defender) in rules.defusers:
        return Outcome.ATTACKER
    if defender in rules.traps:
        return Outcome.DEFENDER
    if (attacker, defender) in rules.assassins:
        return Outcome.ATTACKER
    attack_rank = variant.kinds[attacker].rank or 0
    defence_rank = variant.kinds[defender].rank or 0
    if attack_rank > defence_rank:
        return Outcome.ATTACKER
    if attack_rank < defence_rank:
        return Outcome.DEFENDER
    return Outcome.ATTACKER if rules.ties == "attacker" else Outcome.BOTH
