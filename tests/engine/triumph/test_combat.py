"""The formulas of an attack, rule 11 steps 6-10 (our reading, section 1.9), worked examples."""

from __future__ import annotations

from engine.triumph.combat import (
    even_spread,
    final_result,
    initial_result,
    loss_points,
    winner,
)
from engine.triumph.pieces import Face

I3, I2, C3, C2, A1 = (Face("infantry", 3), Face("infantry", 2), Face("cavalry", 3),
                      Face("cavalry", 2), Face("artillery", 1))


def test_step6_leaders_against_leaders_in_the_reserve() -> None:
    # RB 11.6: Inf-3 leads against an Inf-2 leader in the reserve: 3 - 2 = 1, no penalties.
    assert initial_result([I3], [I2], blocked=False, defence_symbols="") == 1


def test_step6_infantry_against_blockers_behind_an_infantry_symbol() -> None:
    # RB 11.6: two Inf-3 against a blocking Inf-2, approach marked IC: 6 - 1 - 1 - 2 = 2.
    assert initial_result([I3, I3], [I2], blocked=True, defence_symbols="IC") == 2


def test_step6_penalties_only_against_blockers() -> None:
    # RB 11.6 (M): the same symbols do not count when the defenders stand in the reserve.
    assert initial_result([I3, I3], [I2], blocked=False, defence_symbols="IC") == 4


def test_step6_cavalry_penalty_letter() -> None:
    # RB 11.6: cavalry leaders pay only the C symbol, never the infantry penalty.
    assert initial_result([C3], [I2], blocked=True, defence_symbols="CA") == 0
    assert initial_result([C3], [I2], blocked=True, defence_symbols="AO") == 1


def test_step6_artillery_ignores_defence_leaders() -> None:
    # RB 11.6: an artillery-led attack does not subtract the defence leaders (A symbol still does).
    assert initial_result([A1], [I3], blocked=True, defence_symbols="") == 1
    assert initial_result([A1], [I3], blocked=True, defence_symbols="AO") == 0


def test_step6_no_attack_leader() -> None:
    # RB 11.6: with no attack leader the result is minus the defence leaders, penalty-free.
    assert initial_result([], [I2, I2], blocked=True, defence_symbols="IAO") == -4


def test_step6_guard_attack_weakens_small_defence_leaders() -> None:
    # RB 15 / 11.6 (M): in a Guard Attack defence leaders under strength 3 count one less.
    guard = Face("infantry", 3, True)
    assert initial_result([guard], [I2], False, "", guard_attack=True) == 2
    assert initial_result([guard], [I3], False, "", guard_attack=True) == 0


def test_step8_counter_attackers_count_after_their_loss() -> None:
    # RB 11.8: initial 2, counter-attack by a Cav-3 and a Cav-2: 2 - 2 - 1 = -1.
    assert final_result(2, [C3, C2]) == -1


def test_step9_winner_and_ties() -> None:
    # RB 11.9 (M): sign decides; a tie goes to blockers, then more units, then the French.
    assert winner(1, False, 1, 5, "allied") == "attacker"
    assert winner(-1, False, 5, 1, "french") == "defender"
    assert winner(0, True, 5, 1, "french") == "defender"
    assert winner(0, False, 3, 2, "allied") == "attacker"
    assert winner(0, False, 2, 3, "french") == "defender"
    assert winner(0, False, 2, 2, "french") == "attacker"
    assert winner(0, False, 2, 2, "allied") == "defender"


def test_step10_loss_points() -> None:
    # RB 11.10 / SEED (7): one point per enemy leader, plus the loser's deficit.
    points = loss_points(2, False, attack_leaders=2, defence_leaders=1,
                         artillery_defence_leaders=0)
    assert (points.attacker, points.defender) == (1, 4)
    points = loss_points(-3, False, attack_leaders=1, defence_leaders=2,
                         artillery_defence_leaders=0)
    assert (points.attacker, points.defender) == (5, 1)


def test_step10_artillery_attacker_loses_nothing() -> None:
    # SEED (7): "Wenn der Angreifer Artillerie eingesetzt hat, verliert er nichts."
    points = loss_points(2, True, 1, 1, 0)
    assert (points.attacker, points.defender) == (0, 2)
    points = loss_points(-1, True, 1, 1, 0)
    assert (points.attacker, points.defender) == (0, 0)


def test_step10_artillery_defence_leader_reduces_defender_points() -> None:
    # RB 11.10 (L): each artillery defence leader takes one point off the defender's losses.
    points = loss_points(1, False, attack_leaders=1, defence_leaders=1,
                         artillery_defence_leaders=1)
    assert (points.attacker, points.defender) == (1, 1)


def test_step10_even_spread_over_two_leaders() -> None:
    # RB 11.10 (M): 3 points on Inf-3 + Inf-2 leaders: 1 each and an odd point to choose.
    assert even_spread(3, [3, 2]) == ([2, 1], 0, True)
    # a strength-1 leader cannot take more than 1: the rest goes to the other
    assert even_spread(3, [1, 3]) == ([1, 2], 0, False)
    # points beyond both leaders pass on to the next group
    assert even_spread(6, [2, 2]) == ([2, 2], 2, False)
    assert even_spread(2, [3]) == ([2], 0, False)


def test_a_guard_block_that_loses_a_step_becomes_line_infantry() -> None:
    # 1.9 step 10 (L): the replacement block of a Gd-3 is a line Inf-2.
    assert Face("infantry", 3, True).reduced() == Face("infantry", 2, False)
    assert Face("cavalry", 1).reduced() is None
