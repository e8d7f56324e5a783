"""How the bot guards its own flag: intruders near it, who holds a square, a garrison against
Miners, and the race home against a piece that would reach the flag first."""

from __future__ import annotations

import pytest

from firmware_bridge.bot.board import BLUE, RED, SearchBoard
from firmware_bridge.bot.defence import (
    GARRISON_COST,
    GARRISON_STEP,
    RACE_STEP,
    SAPPER_REACH,
    FlagDefence,
    intruder_value,
    stopping_share,
)
from firmware_bridge.bot.evaluation import distances
from firmware_bridge.bot.levels import LEVELS
from firmware_bridge.bot.seat import HIDDEN_MOVED
from tests.firmware_bridge.bot.test_evaluation import (
    CLASSIC,
    ENEMY_FAR,
    RULES,
    Placed,
    index,
    normal_bonus,
    switch_bonus,
)


def test_any_walker_near_our_flag_is_an_intruder_but_only_a_miner_from_further_off() -> None:
    # Two steps off, anything that walks is worth stopping: half the value of one beside the flag.
    assert intruder_value(2, walks=1.0) == intruder_value(1, walks=1.0) / 2
    # Seven steps off a Sergeant is no threat to a flag behind bombs, and a piece that may be a
    # Miner still is: the bombs round the flag do not stop it.
    assert intruder_value(7, walks=1.0) == 0.0
    assert intruder_value(7, walks=1.0, sapper=1.0) > 20.0
    assert intruder_value(7, walks=1.0, sapper=0.5) == intruder_value(7, walks=1.0, sapper=1.0) / 2
    assert intruder_value(SAPPER_REACH + 1, walks=1.0, sapper=1.0) == 0.0


def test_an_enemy_miner_far_from_our_flag_is_an_intruder_only_for_a_level_with_sappers() -> None:
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    board.add(index("a2"), RED, "bomb", 2)
    board.add(index("b1"), RED, "bomb", 3)
    board.add(index("f4"), BLUE, "miner", 10, hidden=HIDDEN_MOVED)
    beliefs = {10: {"miner": 0.8, "sergeant": 0.2}}
    for level, expected in (("easy", False), ("normal", True)):
        defence = FlagDefence.around(board, LEVELS[level], index("a1"), RED, distances(RULES),
                                     {10: index("f4")}, beliefs, dict(CLASSIC.army))
        assert (10 in defence.intruders) is expected, level


def intruder_bonus(stoppers: bool) -> list[float]:
    """Root bonuses of our Sergeant (e3-d3) and our shown General (h3-g3) each stepping toward
    a shown enemy Colonel on c2, three steps from our flag on a1 (walled in by bombs on a2 and
    b1, so no hole draws anything; the Colonel the only target)."""
    pieces = [(1, "red", "a1", "flag", False), (4, "red", "a2", "bomb", False),
              (5, "red", "b1", "bomb", False), (2, "red", "e3", "sergeant", False),
              (3, "red", "h3", "general", True), (10, "blue", "c2", "colonel", True),
              (11, "blue", "j10", "flag", False)]
    return normal_bonus(pieces, [("e3", "d3"), ("h3", "g3")], {10: {"colonel": 1.0}},
                        stoppers=stoppers)


def test_only_a_piece_that_can_stop_an_intruder_near_our_flag_is_drawn_to_it() -> None:
    """A Sergeant walked up to a known Colonel beside our flag stops nothing: the Colonel takes
    it and walks on. With `stoppers` the Colonel draws only what beats it (the General)."""
    sergeant_before, general_before = intruder_bonus(stoppers=False)
    sergeant_after, general_after = intruder_bonus(stoppers=True)
    assert sergeant_before > 0.0 and sergeant_after == 0.0
    assert general_after == general_before > 0.0


def race_bonus(race: bool, intruder_at: str, belief: dict[str, float],
               walled: bool = True) -> list[float]:
    """Root bonuses of our shown Marshal stepping toward (f3-g3) and away from (f3-e3) our
    corner flag on j1, walled in by bombs on j2 and i1 (or open on i1), with an enemy piece
    believed `belief` on `intruder_at`; our Scout on g2 steps home (g2-h2) too."""
    pieces = [(1, "red", "j1", "flag", False), (2, "red", "j2", "bomb", False),
              (4, "red", "f3", "marshal", True), (5, "red", "g2", "scout", True),
              (10, "blue", intruder_at, "miner", False), (11, "blue", "a10", "flag", False)]
    if walled:
        pieces.append((3, "red", "i1", "bomb", False))
    return normal_bonus(pieces, [("f3", "g3"), ("f3", "e3"), ("g2", "h2")],
                        {10: belief, 11: {"flag": 1.0}}, race=race)


def race_added(intruder_at: str, belief: dict[str, float], walled: bool = True) -> list[float]:
    """What `race` adds to each of `race_bonus`'s moves."""
    on = race_bonus(True, intruder_at, belief, walled)
    off = race_bonus(False, intruder_at, belief, walled)
    return [a - b for a, b in zip(on, off, strict=True)]


MAYBE_MINER = {"miner": 0.3, "sergeant": 0.4, "captain": 0.3}


def test_a_possible_miner_that_would_reach_our_flag_first_calls_the_nearest_stopper_home() -> None:
    """Game 18 of round twenty-three: a Miner five steps from our walled corner flag, our
    Marshal six steps off on the other side. Each step home is worth the stake (a Miner takes
    the flag 3 times in 10) and each step away costs as much; the Scout, which a Miner beats,
    is no stopper."""
    home, away, scout = race_added("j6", MAYBE_MINER)
    assert home == pytest.approx(RACE_STEP * 0.3)
    assert away == pytest.approx(-RACE_STEP * 0.3)
    assert scout == 0.0


def test_no_race_while_our_stopper_is_well_ahead_or_the_intruder_cannot_dig() -> None:
    """Nine steps off our flag the Miner is three steps behind our Marshal: no call yet. A piece
    that cannot be a Miner takes no flag walled in by bombs; once a bomb is gone, any walker does."""
    assert race_added("j10", MAYBE_MINER) == [0.0, 0.0, 0.0]
    no_miner = {"sergeant": 0.5, "captain": 0.5}
    assert race_added("j6", no_miner) == [0.0, 0.0, 0.0]
    home, _, scout = race_added("j6", no_miner, walled=False)
    assert home == pytest.approx(RACE_STEP)
    assert scout == 0.0  # a Scout beats neither a Sergeant nor a Captain


def test_a_major_holds_a_square_against_most_walkers_a_scout_against_hardly_any() -> None:
    army = dict(CLASSIC.army)
    major, scout = stopping_share(RULES, "major", army), stopping_share(RULES, "scout", army)
    assert major > 0.6 > 0.1 > scout > 0.0  # a Scout stops only the Spy
    assert stopping_share(RULES, "major", {"bomb": 6, "flag": 1}) == 0.0  # no walker left


def garrison_terms(ours: list[tuple[str, str]], moves: list[tuple[str, str]],
                   enemy_miners: bool = True) -> list[float]:
    """Our flag in the corner a1 behind bombs on a2 and b1, our Marshal far off and shown, and
    `ours` (square, kind), all moved; an enemy Sergeant far off: what `garrison` adds."""
    pieces: list[Placed] = [(1, RED, "a1", "flag", False), (2, RED, "a2", "bomb", False),
                            (3, RED, "b1", "bomb", False), (4, RED, "j1", "marshal", True)]
    pieces += [(5 + n, RED, square, kind, True) for n, (square, kind) in enumerate(ours)]
    return switch_bonus("garrison", pieces + ENEMY_FAR, moves, enemy_miners)


def test_with_nobody_home_the_nearest_piece_that_stops_miners_walks_back_to_our_flag() -> None:
    home, away, scout_home, farther_home = garrison_terms(
        [("e4", "captain"), ("e7", "scout"), ("h4", "major")],
        [("e4", "d4"), ("e4", "f4"), ("e7", "d7"), ("h4", "g4")])
    assert home == GARRISON_STEP and away == -GARRISON_STEP
    assert scout_home == 0.0  # a Miner takes a Scout: it guards nothing
    assert farther_home == 0.0  # one guard is called home; the rest of the army plays on


def test_the_last_guard_near_our_flag_pays_to_leave_and_one_of_two_does_not() -> None:
    alone, = garrison_terms([("b3", "captain")], [("b3", "b4")])
    assert alone == -GARRISON_COST
    one_of_two, = garrison_terms([("b3", "captain"), ("a3", "major")], [("b3", "b4")])
    assert one_of_two == 0.0


def test_once_the_enemy_miners_are_dead_nothing_holds_a_guard_home() -> None:
    leave, = garrison_terms([("b3", "captain")], [("b3", "b4")], enemy_miners=False)
    assert leave == 0.0
