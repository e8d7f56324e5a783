"""Set-up of the 2 December scenario (RB 6, our reading 1.4): validated privately per side."""

from __future__ import annotations

from typing import Any

import pytest

from engine.triumph.game import TriumphGame
from engine.triumph.setup import SetupError
from tests.engine.triumph.setups import (
    ALLIED_CORPS,
    FRENCH_CORPS,
    FRENCH_DETACHED,
    allied_setup,
    french_setup,
    side_setup,
)


def refusal(french: dict[str, Any], allied: dict[str, Any] | None = None) -> str:
    """The message of the set-up refusal (the test fails if the set-ups are accepted)."""
    with pytest.raises(SetupError) as caught:
        TriumphGame.from_setups(french, allied or allied_setup())
    assert caught.value.code == "nt-setup"
    return caught.value.message


def french_with(corps: dict[str, Any] | None = None, detached: list[Any] | None = None,
                battery: str | None = "fb") -> dict[str, Any]:
    return side_setup("french", {**FRENCH_CORPS, **(corps or {})},
                      FRENCH_DETACHED if detached is None else detached, battery)


def test_valid_setups_open_the_game_at_7_with_the_allied_turn() -> None:
    game = TriumphGame.from_setups(french_setup(), allied_setup())
    assert (game.state.round, game.awaiting()) == (7, ("allied", "command"))
    assert game.state.morale == {"french": 23, "allied": 27}
    assert game.state.fixed_battery == "fb"
    assert game.state.units["f-bern-0"].off_map and game.state.commanders["Davout"].off_map


def test_the_army_must_be_the_order_of_battle() -> None:
    setup = french_setup()
    setup["units"][0]["strength"] = 2  # a Guard 3 becomes a Guard 2
    assert "order of battle" in refusal(setup)


def test_corps_sizes_between_least_and_eight() -> None:
    # Legrand needs 3 units: giving him two (one moved to St. Hilaire) is refused
    message = refusal(french_with({"Legrand": ("R133", "I2 I2"),
                                   "St. Hilaire": ("R93", "I3 I2 I2 I2 I2")}))
    assert "Legrand's corps has 2 units (3-8 allowed)" in message


def test_a_reinforcement_corps_needs_a_unit_other_than_infantry_2() -> None:
    message = refusal(french_with({"Davout": (None, "I2 I2 I2 I2"),
                                   "Lannes": ("R64", "I3 I3 I3 C2 A1")}))
    assert "Davout needs a unit that is not a 2-strength infantry" in message


def test_reinforcements_start_off_the_map_and_corps_in_their_locales() -> None:
    assert "Davout is a reinforcement" in refusal(french_with({"Davout": ("R64", "I3 I2 I2 C2")}))
    assert "Murat must stand in his set-up locale 63" in refusal(
        french_with({"Murat": ("R64", "C3 C2 C2 C2")}))


def test_at_most_six_french_detachments() -> None:
    setup = french_setup()
    vandamme = [u for u in setup["units"] if u.get("commander") == "Vandamme"]
    murat = [u for u in setup["units"] if u.get("commander") == "Murat"]
    for unit in [*vandamme[1:], murat[0]]:  # 5 more detachments: 7 in all
        unit["from"] = unit.pop("commander")
        unit["at"] = "R73" if unit["from"] == "Vandamme" else "R62"
    assert "7 detachments (at most 6)" in refusal(setup)
    murat[0]["commander"], murat[0]["at"] = murat[0].pop("from"), "R63"
    TriumphGame.from_setups(setup, allied_setup())  # six are allowed


def test_a_detachment_stays_within_two_steps_of_its_corps() -> None:
    far = [("fb", "A1", "Lannes", "64>63"), ("fd1", "I3", "Lannes", "R93"),
           ("fd2", "I2", "Vandamme", "R71")]
    assert "fd1 stands more than 2 steps from 64" in refusal(french_with(detached=far))


def test_a_detachment_keeps_off_and_away_from_french_objective_stars() -> None:
    # 74 is next to 84 (red star) and within two steps of Vandamme's 72
    near_star = [("fb", "A1", "Lannes", "64>63"), ("fd1", "I3", "Lannes", "R65"),
                 ("fd2", "I2", "Vandamme", "R74")]
    assert "fd2 may not stand in or next to a green, red or black star" in refusal(
        french_with(detached=near_star))


def test_the_allies_place_no_detachments() -> None:
    allied = side_setup("allied", {**ALLIED_CORPS, "Kienmayer": ("R143", "C1 C1 C1")},
                        [("ad", "I2", "Kienmayer", "R135")], None)
    assert "the Allies place no detachments" in refusal(french_setup(), allied)


def test_the_fixed_battery_is_a_french_artillery_unit_blocking_an_approach() -> None:
    assert "must name one French artillery unit" in refusal(french_with(battery="fd1"))
    in_reserve = [("fb", "A1", "Lannes", "R64"), *FRENCH_DETACHED[1:]]
    assert "blocks an approach" in refusal(french_with(detached=in_reserve))


def test_the_fixed_battery_is_public_and_never_moves() -> None:
    game = TriumphGame.from_setups(french_setup(), allied_setup())
    for viewer in ("allied", None):
        seen = [u for u in game.view(viewer).data["units"] if "face" in u and u["side"] == "french"]
        assert [(u["at"], u["face"]["type"]) for u in seen] == [("64>63", "artillery")]
    from tests.engine.triumph.helpers import act

    game.push(act("allied", "end_turn"))
    assert game.check(act("french", "unit_move", unit="fb", to="R63")).rule == "nt-fixed-battery"
    assert all("fb" not in str(a.to_dict()) or a.type != "unit_move"
               for a in game.legal_actions())


def test_opponent_and_public_learn_positions_and_counts_never_faces() -> None:
    game = TriumphGame.from_setups(french_setup(), allied_setup())
    french_view, public = game.view("allied").data, game.view(None).data
    for data in (french_view, public):
        allied_faces = [u for u in data["units"] if u["side"] == "allied" and "face" in u]
        assert allied_faces == [] or data is french_view
        french_faces = [u for u in data["units"] if u["side"] == "french" and "face" in u]
        assert len(french_faces) == 1  # the fixed battery alone
        assert sum(1 for u in data["units"] if u["side"] == "french") == 28
        counts = {c["name"]: c["units"] for c in data["commanders"]}
        assert counts["Lannes"] == 5 and counts["Davout"] == 0
    assert all("f-" not in u["id"] for u in french_view["units"] if u["side"] == "french")


def test_a_locale_holds_no_more_than_its_capacity() -> None:
    setup = french_setup()
    for unit in [u for u in setup["units"] if u.get("commander") == "Vandamme"][1:]:
        unit["from"], unit["at"] = unit.pop("commander"), "R71"  # 71 holds 4; fd2 is there
    assert "locale 71 holds more than its 4 units" in refusal(setup)


def test_a_record_may_start_from_both_setups() -> None:
    from engine.core.errors import RecordError
    from engine.triumph.records import check_triumph_record

    record = {"game": "napoleons-triumph", "scenario": "2dec",
              "setup": {"french": french_setup(), "allied": allied_setup()},
              "actions": [{"side": "allied", "type": "end_turn"},
                          {"side": "french", "type": "unit_move", "unit": "fb", "to": "R63"}]}
    verdict = check_triumph_record(record)
    assert verdict["applied"] == 1 and verdict["illegal"]["rule"] == "nt-fixed-battery"
    assert verdict["units"]["f-davo-0"] == {"strength": 3, "at": None}
    record["setup"]["french"]["fixed_battery"] = None  # type: ignore[index]
    with pytest.raises(RecordError, match="fixed battery"):
        check_triumph_record(record)


def test_malformed_setups_are_refused_not_crashing() -> None:
    for broken in ("nonsense", {"commanders": {}}, {**french_setup(), "units": "all"}):
        assert refusal(broken)  # type: ignore[arg-type]
    setup = french_setup()
    setup["units"][0]["guard"] = "yes"
    assert "guard is true or false" in refusal(setup)
    setup = french_setup()
    setup["units"][2]["commander"] = ["Bessières"]
    assert "belongs to no french commander" in refusal(setup)
    setup = french_setup()
    setup["units"][1]["id"] = setup["units"][0]["id"]
    assert "distinct" in refusal(setup)
