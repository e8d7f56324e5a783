"""Winning (RB 16, our reading 1.14): objectives after the 4:00 PM French turn, demoralisation."""

from __future__ import annotations

from typing import Any

from engine.triumph.effects import lose_morale
from engine.triumph.game import TriumphGame
from tests.engine.triumph.helpers import act, game, play, unit


def last_turn(units: list[dict[str, Any]], commanders: dict[str, str],
              reinforced: bool = False) -> TriumphGame:
    """A game in the French turn of 4:00 PM, ended at once: the objectives are judged."""
    g = game(units, commanders, to_move="french", round_=16)
    g.state.reinforcements_entered = reinforced
    play(g, act("french", "end_turn"))
    return g


def lannes_at(at: str, face: str = "I3") -> list[dict[str, Any]]:
    return [unit("f1", "french", face, at, "Lannes"), unit("f2", "french", "C2", at, "Lannes")]


def bagration_at(at: str) -> list[dict[str, Any]]:
    return [unit("a1", "allied", "I2", at, "Bagration")]


def test_the_game_ends_after_the_4pm_french_turn_with_the_judgement() -> None:
    g = last_turn(lannes_at("R128"), {"Lannes": "R128"})
    assert g.result is not None and g.awaiting() is None
    assert g.events[-1].type == "game-end" and g.events[-1].to_dict()["reason"] == "objectives"


def test_not_reinforced_the_french_win_holding_one_objective() -> None:
    # 1.14: without reinforcements the Allies must hold blue AND deny every green/red/black one
    g = last_turn(lannes_at("R128") + bagration_at("R53"),
                  {"Lannes": "R128", "Bagration": "R53"})
    assert g.result == {"winner": "french", "reason": "objectives",
                        "why": "the French (not reinforced) hold objective 128",
                        "control": {"french": [128], "allied": [53]}}


def test_control_is_traced_by_road_through_no_enemy_locale() -> None:
    # 127 lies on the only road from the French main entry (F2, locale 51) to 128
    g = last_turn(lannes_at("R128") + bagration_at("R53") + [unit("a9", "allied", "C1", "R127")],
                  {"Lannes": "R128", "Bagration": "R53"})
    assert g.result is not None and g.result["control"] == {"french": [], "allied": [53]}
    assert g.result["winner"] == "allied"


def test_an_enemy_on_the_entry_locale_cuts_every_road() -> None:
    g = last_turn(lannes_at("R128") + [unit("a9", "allied", "C1", "R51")], {"Lannes": "R128"})
    assert g.result is not None and g.result["control"]["french"] == []


def test_control_needs_a_corps_with_infantry_or_artillery() -> None:
    cavalry_corps = [unit("f1", "french", "C3", "R128", "Lannes"),
                     unit("f2", "french", "C2", "R128", "Lannes")]
    detached_foot = [unit("f3", "french", "I3", "R87")]
    g = last_turn(cavalry_corps + detached_foot + bagration_at("R53"),
                  {"Lannes": "R128", "Bagration": "R53"})
    assert g.result is not None and g.result["control"]["french"] == []
    assert g.result["winner"] == "allied"


def test_reinforced_the_french_need_all_three_colours_and_no_blue_allied() -> None:
    # 87 carries red, green and black stars: holding it is enough if the Allies hold no blue
    g = last_turn(lannes_at("R87"), {"Lannes": "R87"}, reinforced=True)
    assert g.result is not None and g.result["winner"] == "french"
    g = last_turn(lannes_at("R87") + bagration_at("R53"),
                  {"Lannes": "R87", "Bagration": "R53"}, reinforced=True)
    assert g.result is not None and g.result["winner"] == "allied"
    assert g.result["why"] == "the Allies hold blue objective 53"
    # 128 alone holds all three too, but 112 (red, black) does not hold green
    g = last_turn(lannes_at("R112"), {"Lannes": "R112"}, reinforced=True)
    assert g.result is not None and g.result["winner"] == "allied"
    assert g.result["why"] == "the reinforced French hold no green objective"


def test_demoralisation_ends_the_game_at_once_with_its_reason() -> None:
    g = game(lannes_at("R128"), {"Lannes": "R128"})
    lose_morale(g, "allied", 27)
    assert g.result == {"winner": "french", "reason": "demoralised",
                        "why": "the allied army is demoralised (morale 0)"}
