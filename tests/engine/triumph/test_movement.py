"""Movement, rule 10 (our reading, section 1.8): ordinary moves, roads, capacity and closures."""

from __future__ import annotations

import pytest

from tests.engine.triumph.helpers import act, at, game, play, refusal_rule, unit


def lone(at_: str, to_move: str = "french", extra: list | None = None):
    return game([unit("u", "french", "I2", at_), *(extra or [])], to_move=to_move)


@pytest.mark.parametrize(("start", "to"), [
    ("R95", "R108"),     # reserve -> adjacent reserve
    ("R95", "95>108"),   # reserve -> own approach
    ("95>108", "R95"),   # approach -> own reserve
    ("95>108", "R108"),  # approach -> the reserve across that approach
])
def test_the_four_ordinary_moves(start: str, to: str) -> None:
    g = lone(start)
    play(g, act("french", "unit_move", unit="u", to=to))
    assert at(g, "u") == to


@pytest.mark.parametrize(("start", "to"), [
    ("95>108", "95>83"),  # approach -> another approach
    ("95>108", "R83"),    # a blocking unit crossing another border
    ("R95", "R96"),       # not adjacent
    ("R95", "95>96"),     # 95 has no border with 96
    ("R58", "R78"),       # impassable border
])
def test_other_moves_are_refused(start: str, to: str) -> None:
    assert refusal_rule(lone(start), act("french", "unit_move", unit="u", to=to)) == \
        "nt-movement"


def test_capacity_counts_blocks_of_the_locale() -> None:
    # 107 Pratze holds 4 blocks, reserve and approaches together.
    extra = [unit(f"f{n}", "french", "I2", "107>94" if n else "R107") for n in range(4)]
    g = lone("R95", extra=extra)
    assert refusal_rule(g, act("french", "unit_move", unit="u", to="R107")) == "nt-capacity"


def test_one_side_per_locale_moving_in_is_an_attack() -> None:
    g = lone("R95", extra=[unit("a", "allied", "I2", "R108")])
    assert refusal_rule(g, act("french", "unit_move", unit="u", to="R108")) == "nt-movement"


def test_main_road_reach_three() -> None:
    # SEED (4): 3 locales by main road (51 -> 38 -> 52 -> 53).
    g = lone("R51")
    play(g, act("french", "unit_move", unit="u", to="R53", road=[38, 52, 53]))
    assert at(g, "u") == "R53"


def test_local_road_reach_two() -> None:
    # SEED (4): 2 locales by road; 52|61 is a local road, so 38, 52, 61 is too far.
    assert refusal_rule(lone("R51"), act("french", "unit_move", unit="u", to="R61",
                                         road=[38, 52, 61])) == "nt-road"
    g = lone("R51")
    play(g, act("french", "unit_move", unit="u", to="R52", road=[38, 52]))


def test_road_stretches_must_connect() -> None:
    # 41 arrives on a stretch of 29 that does not lead on to 43; from 42 it does.
    assert refusal_rule(lone("R41"), act("french", "unit_move", unit="u", to="R43",
                                         road=[29, 43])) == "nt-road"
    g = lone("R42")
    play(g, act("french", "unit_move", unit="u", to="R43", road=[29, 43]))


def test_road_moves_start_in_a_reserve_and_end_in_one() -> None:
    assert refusal_rule(lone("51>38"), act("french", "unit_move", unit="u", to="R52",
                                           road=[38, 52])) == "nt-road"


def test_passing_through_a_full_locale_is_refused() -> None:
    # Erratum (M): pass through only a locale with a free place. 52 Bellowitz holds 4.
    extra = [unit(f"f{n}", "french", "I2", "R52") for n in range(4)]
    g = lone("R38", extra=extra)
    assert refusal_rule(g, act("french", "unit_move", unit="u", to="R63",
                                road=[52, 53, 63])) == "nt-road"


def test_a_road_move_never_enters_enemy_locales() -> None:
    g = lone("R51", extra=[unit("a", "allied", "I2", "R52")])
    assert refusal_rule(g, act("french", "unit_move", unit="u", to="R53",
                                road=[38, 52, 53])) == "nt-road"


def corps_at(locale: int, extra: list | None = None, commanders: dict | None = None):
    units = [unit("l1", "french", "I2", f"R{locale}", "Lannes"),
             unit("l2", "french", "I2", f"R{locale}", "Lannes"),
             unit("d", "french", "C2", "R25"), *(extra or [])]
    return game(units, {"Lannes": f"R{locale}", **(commanders or {})})


def test_a_corps_halts_beside_an_enemy_corps_of_two() -> None:
    # RB 10 (M): a corps of 2+ by road stops in the first locale touching an enemy corps of 2+.
    enemy = [unit("a1", "allied", "I2", "R62", "Bagration"),
             unit("a2", "allied", "I2", "R62", "Bagration")]
    g = corps_at(38, enemy, {"Bagration": "R62"})
    move = act("french", "corps_move", commander="Lannes", units=["l1", "l2"], to="R63",
               road=[52, 53, 63])
    assert refusal_rule(g, move) == "nt-road"  # 53 touches 62: it must stop there
    play(g, act("french", "corps_move", commander="Lannes", units=["l1", "l2"], to="R53",
                road=[52, 53]))


def test_a_single_unit_does_not_halt_beside_enemy_corps() -> None:
    enemy = [unit("a1", "allied", "I2", "R62", "Bagration"),
             unit("a2", "allied", "I2", "R62", "Bagration")]
    g = game([unit("u", "french", "I2", "R38"), *enemy], {"Bagration": "R62"})
    play(g, act("french", "unit_move", unit="u", to="R63", road=[52, 53, 63]))


def test_a_road_marched_reserve_is_closed_to_other_moves() -> None:
    # FAQ: after a corps enters a locale by road, nobody else moves into or through it.
    g = corps_at(51)
    play(g, act("french", "corps_move", commander="Lannes", units=["l1", "l2"], to="R52",
                road=[38, 52]))
    assert refusal_rule(g, act("french", "unit_move", unit="d", to="R38")) == "nt-road"


def test_a_reserve_entered_this_turn_is_closed_to_corps_road_moves() -> None:
    # FAQ: a corps of 2+ may not enter by road a reserve a unit already moved into and stopped.
    g = corps_at(51)
    play(g, act("french", "unit_move", unit="d", to="R38"))
    move = act("french", "corps_move", commander="Lannes", units=["l1", "l2"], to="R52",
               road=[38, 52])
    assert refusal_rule(g, move) == "nt-road"


def test_cavalry_may_end_a_road_move_blocking_where_the_road_goes_on() -> None:
    # RB 10 (M): a move made only by cavalry may end blocking an approach of the last locale
    # entered when its road continues across that approach; the cavalry is then revealed.
    g = game([unit("c", "french", "C2", "R51"), unit("i", "french", "I2", "R51")])
    play(g, act("french", "unit_move", unit="c", to="53>63", road=[38, 52, 53]))
    assert at(g, "c") == "53>63" and "c" in g.state.turn.revealed
    assert refusal_rule(g, act("french", "unit_move", unit="i", to="52>53",
                                road=[38, 52])) == "nt-road"
    g = game([unit("c", "french", "C2", "R51")])
    # no road crosses the 38|25 border
    assert refusal_rule(g, act("french", "unit_move", unit="c", to="38>25",
                                road=[38])) == "nt-road"
    play(g, act("french", "unit_move", unit="c", to="38>24", road=[38]))
