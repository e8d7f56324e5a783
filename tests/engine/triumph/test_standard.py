"""The standard set-up the tablets offer: valid for each side as it stands, fresh on every call."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.triumph.errors import TriumphError
from engine.triumph.game import TriumphGame
from engine.triumph.rules import commanders, raw_order_of_battle
from engine.triumph.standard import standard_setup


def test_both_standard_setups_are_accepted_together_and_start_at_seven_with_the_allies() -> None:
    g = TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"))
    assert g.awaiting() == ("allied", "command")
    assert g.state.fixed_battery == "fb"


@pytest.mark.parametrize("side", ["french", "allied"])
def test_each_standard_setup_fields_exactly_its_order_of_battle(side: str) -> None:
    setup = standard_setup(side)
    wanted: Counter[tuple[str, int, bool]] = Counter()
    for item in raw_order_of_battle()["armies"][side]:
        wanted[(item["type"], item["strength"], item["guard"])] += item["count"]
    given = Counter((u["type"], u["strength"], u["guard"]) for u in setup["units"])
    assert given == wanted
    assert set(setup["commanders"]) == {n for n, c in commanders().items() if c.side == side}


def test_reinforcement_corps_start_off_the_map() -> None:
    placed = standard_setup("french")["commanders"]
    assert placed["Bernadotte"] is None and placed["Davout"] is None


def test_every_call_gives_a_fresh_object_a_tablet_may_change() -> None:
    first = standard_setup("french")
    first["units"][0]["at"] = "R1"
    assert standard_setup("french")["units"][0]["at"] == "R53"


def test_an_unknown_side_is_refused() -> None:
    with pytest.raises(TriumphError):
        standard_setup("prussian")
