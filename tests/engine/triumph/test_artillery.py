"""Artillery: the fixed battery never moves (our reading 1.4 and 1.7; the reconstruction's
reading of 1.9 step 2 for the end of an attack only the battery could carry out).

In every example the French battery fb (Art-1) blocks 95's approach to 108; Allied infantry
holds 108.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.triumph import readings
from engine.triumph.errors import TriumphError
from engine.triumph.game import TriumphGame
from tests.engine.triumph.helpers import act, at, play, position, refusal_rule, unit

BATTERY_FIRES = [{"type": "unit_move", "unit": "fb"}]


def battery_game(*extra: dict[str, Any], commanders: dict[str, str] | None = None,
                 battery: dict[str, Any] | None = None, **kwargs: Any) -> TriumphGame:
    """fb (fixed) on 95>108 against a1 (Inf-2) in 108; French to move at 7:00."""
    units = [battery or unit("fb", "french", "A1", "95>108"),
             unit("a1", "allied", "I2", "R108"), *extra]
    data = position(units, commanders, **kwargs)
    data["fixed_battery"] = "fb"
    return TriumphGame.from_position(data)


def test_a_position_with_the_battery_in_a_reserve_is_refused() -> None:
    # 1.4: the battery blocks an approach of the locale it stands in
    with pytest.raises(TriumphError, match="fixed battery"):
        battery_game(battery=unit("fb", "french", "A1", "R95"))
    with pytest.raises(TriumphError, match="fixed battery"):
        battery_game(battery=unit("fb", "french", "A1", None))  # type: ignore[arg-type]


def test_the_battery_threatens_where_it_could_fire() -> None:
    g = battery_game()
    assert refusal_rule(g, act("french", "threat", from_=95, into=108)) is None
    # it led an attack across 95>108 last round: it may not fire there now (95 is no hill)
    g.state.artillery_fire[(95, 108)] = 6
    assert refusal_rule(g, act("french", "threat", from_=95, into=108)) == "nt-attack"


def test_a_battery_that_is_the_last_unit_of_its_corps_threatens_nothing() -> None:
    # it leads only by a Unit Move, which may not take a corps' last unit, and never moves
    g = battery_game(battery=unit("fb", "french", "A1", "95>108", "Lannes"),
                     commanders={"Lannes": "95>108"})
    assert refusal_rule(g, act("french", "threat", from_=95, into=108)) == "nt-attack"
    with_others = battery_game(unit("l1", "french", "I2", "95>108", "Lannes"),
                               battery=unit("fb", "french", "A1", "95>108", "Lannes"),
                               commanders={"Lannes": "95>108"})
    assert refusal_rule(with_others, act("french", "threat", from_=95, into=108)) is None


def test_after_a_retreat_before_its_threat_the_battery_holds_its_approach() -> None:
    # 1.9 step 2 left open for a threat only the battery could carry out (reading
    # FIXED_BATTERY_HOLDS_AFTER_RETREAT): the occupation naming the battery is made in place
    g = battery_game()
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "retreat", losses={"a1": 1}, to={"a1": 96}, keep={}))
    assert g.awaiting() == ("french", "occupy")
    events = play(g, act("french", "occupy", orders=BATTERY_FIRES))
    assert at(g, "fb") == "95>108" and g.state.attack is None
    assert not any(u.side == "french" for u in g.state.units_in(108))
    assert g.state.turn.independent_commands == 1 and "fb" in g.state.turn.moved
    assert [e["type"] for e in events if e["type"] == "storm"] == []
    # the emptied locale may be entered later in the turn by an ordinary move
    assert 108 not in g.state.turn.stormed


def test_the_battery_never_joins_an_occupation() -> None:
    g = battery_game(unit("i1", "french", "I2", "95>108"))
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "retreat", losses={"a1": 1}, to={"a1": 96}, keep={}))
    both = [*BATTERY_FIRES, {"type": "unit_move", "unit": "i1"}]
    assert refusal_rule(g, act("french", "occupy", orders=both)) == "nt-fixed-battery"
    play(g, act("french", "occupy", orders=[{"type": "unit_move", "unit": "i1"}]))
    assert at(g, "i1") == "R108" and at(g, "fb") == "95>108"


def test_the_other_reading_ends_the_attack_at_the_retreat() -> None:
    readings.FIXED_BATTERY_HOLDS_AFTER_RETREAT = False
    try:
        g = battery_game()
        play(g, act("french", "threat", from_=95, into=108),
             act("allied", "retreat", losses={"a1": 1}, to={"a1": 96}, keep={}))
        assert g.state.attack is None and at(g, "fb") == "95>108"
        assert g.state.turn.independent_commands == 0
    finally:
        readings.FIXED_BATTERY_HOLDS_AFTER_RETREAT = True


def test_the_battery_never_advances_after_a_feint() -> None:
    # a battery standing in a reserve (built by hand: no position may hold one) may defend,
    # but the advance after a feint is made by the others, and without others nobody advances
    from tests.engine.triumph.helpers import game

    g = game([unit("fb", "french", "A1", "R95"), unit("f1", "french", "I2", "R95", "Lannes"),
              unit("a1", "allied", "I2", "R108")], {"Lannes": "R95"}, to_move="allied")
    g.state.fixed_battery = "fb"
    play(g, act("allied", "threat", from_=108, into=95),
         act("french", "defend", units=["fb", "f1"]),
         act("allied", "feint", orders=[{"type": "unit_move", "unit": "a1"}], end="approach"))
    assert g.awaiting() == ("french", "advance")
    assert refusal_rule(g, act("french", "advance", units=["fb"])) == "nt-attack"
    assert all("fb" not in a.to_dict()["units"] for a in g.legal_actions())
    play(g, act("french", "advance", units=["f1"], commanders=["Lannes"]))
    assert at(g, "fb") == "R95" and at(g, "f1") == "95>108"
    alone = game([unit("fb", "french", "A1", "R95"), unit("a1", "allied", "I2", "R108")],
                 to_move="allied")
    alone.state.fixed_battery = "fb"
    play(alone, act("allied", "threat", from_=108, into=95),
         act("french", "defend", units=["fb"]),
         act("allied", "feint", orders=[{"type": "unit_move", "unit": "a1"}], end="approach"))
    assert alone.state.attack is None and at(alone, "fb") == "R95"
