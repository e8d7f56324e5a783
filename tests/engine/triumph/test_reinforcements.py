"""French reinforcements (our reading 1.8 and 1.3): entry roads, arrival times, the +4 morale."""

from __future__ import annotations

from typing import Any

import pytest

from engine.triumph import readings
from engine.triumph.game import TriumphGame
from tests.engine.triumph.helpers import act, game, play, refusal_rule, unit

DAVOUT = ["d1", "d2", "d3", "d4"]


def waiting(round_: int = 8, extra: list[dict[str, Any]] | None = None,
            commanders: dict[str, Any] | None = None) -> TriumphGame:
    """Davout's and Bernadotte's corps off the map, Lannes at 64; the French turn of `round_`."""
    units = [unit(u, "french", "I2", None, "Davout") for u in DAVOUT]  # type: ignore[arg-type]
    units += [unit(f"b{i}", "french", "C2", None, "Bernadotte") for i in range(4)]  # type: ignore[arg-type]
    units += [unit("l1", "french", "I3", "R64", "Lannes"), unit("a1", "allied", "I2", "R108")]
    return game(units + (extra or []),
                {"Davout": None, "Bernadotte": None, "Lannes": "R64", **(commanders or {})},
                to_move="french", round_=round_)


def enter(name: str, units: list[str], entry: str, road: list[int], **kw: Any) -> Any:
    return act("french", "corps_move", commander=name, units=units, to=f"R{road[-1]}",
               road=road, entry=entry, **kw)


def test_a_corps_enters_from_its_arrival_time_and_the_first_gives_4_morale() -> None:
    # order of battle: Davout from 8:00 AM on 2 December; F2 is the main road at locale 51
    early = waiting(round_=7)
    assert refusal_rule(early, enter("Davout", DAVOUT, "F2", [51, 61])) == "nt-reinforcement"
    g = waiting(round_=8)
    events = play(g, enter("Davout", DAVOUT, "F2", [51, 61]))
    assert [g.position_of(u) for u in DAVOUT] == [g.state.commanders["Davout"].at] * 4
    assert str(g.state.commanders["Davout"].at) == "R61"
    assert g.state.morale["french"] == 27 and g.state.reinforcements_entered
    assert {"type": "morale", "side": "french", "before": 23, "after": 27,
            "why": "the first French reinforcement entered"} in events


def test_only_the_first_reinforcement_gives_morale() -> None:
    g = waiting()
    play(g, enter("Davout", DAVOUT, "F2", [51, 61]),
         enter("Bernadotte", ["b0", "b1", "b2", "b3"], "F1", [1]))
    assert g.state.morale["french"] == 27


def test_bernadotte_waits_from_the_start_of_the_2_december_game() -> None:
    g = waiting(round_=7)
    play(g, enter("Bernadotte", ["b0", "b1", "b2", "b3"], "F2", [51]))
    assert g.state.reinforcements_entered


def test_the_entry_road_sets_the_reach() -> None:
    # F1 is a local road at locale 1: two locales at most; F2 is main: three
    g = waiting()
    assert refusal_rule(g, enter("Davout", DAVOUT, "F1", [1, 23])) is None
    assert refusal_rule(g, enter("Davout", DAVOUT, "F2", [51, 38, 52])) is None
    assert refusal_rule(g, enter("Davout", DAVOUT, "F2", [61])) == "nt-reinforcement"
    assert refusal_rule(g, enter("Davout", DAVOUT, "F2", [51, 53])) == "nt-road"


def test_a_corps_enters_whole_by_a_french_entry() -> None:
    g = waiting()
    assert refusal_rule(g, enter("Davout", DAVOUT[:3], "F2", [51])) == "nt-reinforcement"
    assert refusal_rule(g, enter("Davout", DAVOUT, "A15", [59])) == "nt-reinforcement"
    assert refusal_rule(g, enter("Lannes", ["l1"], "F2", [51])) == "nt-reinforcement"


def test_an_entry_road_through_an_enemy_locale_is_refused() -> None:
    g = waiting(extra=[unit("a2", "allied", "C1", "R51")])
    assert refusal_rule(g, enter("Davout", DAVOUT, "F2", [51, 61])) == "nt-road"


def test_legal_actions_offer_the_entries_and_undo_restores_morale() -> None:
    g = waiting()
    entries = [a for a in g.legal_actions() if getattr(a, "entry", None)]
    assert {a.commander for a in entries} == {"Davout", "Bernadotte"}  # type: ignore[attr-defined]
    assert all(g.check(a) is None for a in entries)
    play(g, entries[0])
    g.pop()
    assert g.state.morale["french"] == 23 and not g.state.reinforcements_entered


def test_entering_switches_the_victory_conditions() -> None:
    # 1.14: Lannes holds 128 at the end. Unreinforced, that wins; reinforced, the French need
    # every colour and 128 holds them all, but 64 (Lannes' start) is not one: move him to 128.
    plain = waiting(round_=16, extra=[unit("l2", "french", "I2", "R128", "Murat")],
                    commanders={"Murat": "R128"})
    play(plain, act("french", "end_turn"))
    assert plain.result is not None and plain.result["winner"] == "french"
    g = waiting(round_=16, extra=[unit("l2", "french", "I2", "R112", "Murat")],
                commanders={"Murat": "R112"})
    play(g, act("french", "end_turn"))
    assert g.result is not None and g.result["winner"] == "french"  # 112: red, not reinforced
    g = waiting(round_=16, extra=[unit("l2", "french", "I2", "R112", "Murat")],
                commanders={"Murat": "R112"})
    play(g, enter("Davout", DAVOUT, "F2", [51]), act("french", "end_turn"))
    assert g.result is not None and g.result["winner"] == "allied"
    assert g.result["why"] == "the reinforced French hold no green objective"


def test_a_reinforcement_commander_gives_a_second_command_in_its_entry_turn() -> None:
    # 1.7 (L, readings.REINFORCEMENT_SECOND_COMMAND_ON_ENTRY): Davout enters by F2 to 61; in
    # the same turn he may command his corps once more (61 -> 62), and no third time
    g = waiting()
    play(g, enter("Davout", DAVOUT, "F2", [51, 61]),
         act("french", "corps_move", commander="Davout", units=DAVOUT, to="R62"))
    assert str(g.state.commanders["Davout"].at) == "R62"
    assert refusal_rule(g, act("french", "detach_move", commander="Davout", units=["d1"],
                               to="R61")) == "nt-commands"
    # any other commander still gives one command a turn
    play(g, act("french", "corps_move", commander="Lannes", units=["l1"], to="R63"))
    assert refusal_rule(g, act("french", "corps_move", commander="Lannes", units=["l1"],
                               to="R64")) == "nt-commands"


def test_units_that_entered_may_move_a_second_time_that_turn() -> None:
    # 1.7 (L): d1 entered with its corps and moves again by a Unit Move; a third move is refused
    g = waiting()
    play(g, enter("Davout", DAVOUT, "F2", [51, 61]),
         act("french", "unit_move", unit="d1", to="R62"))
    assert g.position_of("d1") is not None and str(g.position_of("d1")) == "R62"
    assert refusal_rule(g, act("french", "unit_move", unit="d1", to="R61")) == "nt-commands"
    # the second command is listed like any other
    assert any(getattr(a, "commander", None) == "Davout" for a in g.legal_actions())


def test_the_other_reading_makes_the_entry_the_commanders_one_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the alternative documented in readings.py: entering is the corps' command of the turn
    monkeypatch.setattr(readings, "REINFORCEMENT_SECOND_COMMAND_ON_ENTRY", False)
    g = waiting()
    play(g, enter("Davout", DAVOUT, "F2", [51, 61]))
    assert refusal_rule(g, act("french", "corps_move", commander="Davout", units=DAVOUT,
                               to="R62")) == "nt-commands"
    assert refusal_rule(g, act("french", "unit_move", unit="d1", to="R62")) == "nt-commands"
    assert not any(getattr(a, "commander", None) == "Davout" for a in g.legal_actions())
