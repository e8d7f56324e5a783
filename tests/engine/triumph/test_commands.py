"""Commands and their limits, rule 9 (our reading, section 1.7)."""

from __future__ import annotations

import pytest

from engine.core.refusals import IllegalMove
from tests.engine.triumph.helpers import act, at, game, play, refusal_rule, unit

ALLIED_CORPS = {"Bagration": "R67", "Constantine": "R87", "Dokhturov": "R121",
                "Kienmayer": "R143", "Kollowrath": "R112", "Langeron": "R106"}


def allied_army():
    units = []
    for number, (name, where) in enumerate(ALLIED_CORPS.items()):
        units += [unit(f"a{number}x", "allied", "I2", where, name),
                  unit(f"a{number}y", "allied", "I2", where, name)]
    units += [unit(f"d{n}", "allied", "C2", "R96") for n in range(5)]
    units.append(unit("e", "allied", "C2", "R94"))
    units.append(unit("f1", "french", "I3", "R64", "Lannes"))
    units += [unit(f"f{n}", "french", "I2", "R64", "Lannes") for n in (2, 3)]
    units += [unit(f"fd{n}", "french", "C2", "R72") for n in range(6)]
    return game(units, {**ALLIED_CORPS, "Lannes": "R64"}, to_move="allied")


def test_corps_move_takes_some_units_and_detaches_the_rest() -> None:
    # RB 9: a Corps Move moves the commander with any non-empty subset; the rest detach.
    g = allied_army()
    play(g, act("allied", "corps_move", commander="Langeron", units=["a5x"], to="R108"))
    assert at(g, "a5x") == "R108" and g.state.units["a5x"].commander == "Langeron"
    assert str(g.state.commanders["Langeron"].at) == "R108"
    assert at(g, "a5y") == "R106" and g.state.units["a5y"].commander is None


def test_the_sixth_allied_corps_command_is_refused() -> None:
    # RB 9 (M): the Allies give at most 5 corps commands a turn.
    g = allied_army()
    moves = [("Bagration", "a0x", "R68"), ("Constantine", "a1x", "R99"),
             ("Dokhturov", "a2x", "R120"), ("Kienmayer", "a3x", "R136"),
             ("Kollowrath", "a4x", "R113")]
    for name, uid, to in moves:
        play(g, act("allied", "corps_move", commander=name, units=[uid], to=to))
    sixth = act("allied", "attach", commander="Langeron", unit="a5x")
    assert g.check(act("allied", "attach", commander="Langeron", unit="a5y")) is not None
    assert refusal_rule(g, sixth) == "nt-commands"


def test_the_french_have_no_corps_command_limit_but_four_independent() -> None:
    # RB 9 (M): French corps commands unlimited; independent commands: French 4, Allies 3.
    g = allied_army()
    play(g, act("allied", "end_turn"))
    for n in range(4):
        play(g, act("french", "unit_move", unit=f"fd{n}", to=f"72>{[63, 71, 73, 74][n]}"))
    assert refusal_rule(g, act("french", "unit_move", unit="fd4", to="72>81")) == "nt-commands"


def test_the_fourth_allied_independent_command_is_refused() -> None:
    g = allied_army()
    for n, toward in enumerate((84, 108, 109)):
        play(g, act("allied", "unit_move", unit=f"d{n}", to=f"96>{toward}"))
    assert refusal_rule(g, act("allied", "unit_move", unit="d3", to="96>110")) == "nt-commands"


def test_a_commander_gives_one_command_a_turn() -> None:
    g = allied_army()
    play(g, act("allied", "detach_move", commander="Langeron", units=["a5x"], to="R108"))
    second = act("allied", "corps_move", commander="Langeron", units=["a5y"], to="R121")
    assert refusal_rule(g, second) == "nt-commands"


def test_a_unit_moves_once_a_turn() -> None:
    g = allied_army()
    play(g, act("allied", "unit_move", unit="d0", to="R108"))
    assert refusal_rule(g, act("allied", "unit_move", unit="d0", to="R106")) == "nt-commands"


def test_detach_move_never_uses_roads_and_never_takes_all() -> None:
    # RB 9/10 (M): Detach Moves have no road; they leave at least one unit behind.
    g = allied_army()
    road = act("allied", "detach_move", commander="Langeron", units=["a5x"], to="R108",
               road=[108])
    assert refusal_rule(g, road) == "nt-road"
    everything = act("allied", "detach_move", commander="Langeron", units=["a5x", "a5y"],
                     to="R108")
    assert refusal_rule(g, everything) == "nt-commands"


def test_unit_move_cannot_take_the_last_unit_of_a_corps() -> None:
    g = allied_army()
    play(g, act("allied", "detach_move", commander="Langeron", units=["a5x"], to="R108"))
    assert refusal_rule(g, act("allied", "unit_move", unit="a5y", to="R108")) == "nt-commands"


def test_attach_takes_a_unit_in_the_same_position() -> None:
    # RB 9 / SEED (2): units join a corps only by an Attach command, in the same position.
    g = allied_army()
    assert refusal_rule(g, act("allied", "attach", commander="Langeron", unit="e")) == \
        "nt-commands"
    play(g, act("allied", "unit_move", unit="e", to="R106"))
    play(g, act("allied", "attach", commander="Langeron", unit="e"))
    assert g.state.units["e"].commander == "Langeron"


def test_attach_respects_the_corps_limit_of_8() -> None:
    units = [unit(f"a{n}", "allied", "I2", "R96", "Miloradovich") for n in range(8)]
    units.append(unit("d", "allied", "C2", "R96"))
    g = game(units, {"Miloradovich": "R96"}, to_move="allied")
    assert refusal_rule(g, act("allied", "attach", commander="Miloradovich", unit="d")) == \
        "nt-commands"


def test_a_refused_command_changes_nothing() -> None:
    g = allied_army()
    before = repr(g.state)
    with pytest.raises(IllegalMove) as refused:
        g.push(act("allied", "unit_move", unit="d0", to="R1"))
    assert refused.value.refusal.rule == "nt-movement"
    assert repr(g.state) == before and g.actions == []


def test_commands_only_in_ones_own_turn() -> None:
    g = allied_army()
    assert refusal_rule(g, act("french", "unit_move", unit="fd0", to="72>63")) == "nt-turn"
