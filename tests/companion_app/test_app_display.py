"""The referee display never shows a hidden rank, and tells the hall what happened."""

from __future__ import annotations

import pytest

from tests.companion_app.conftest import scenario_runner


def test_referee_display_shows_the_public_game_only(run_scenario):
    report, _ = run_scenario("referee_display")
    assert report["screen"] == "display"
    assert report["violations"] == []
    assert "?" in report["drawn_labels"]
    assert "attacked" in report["battle"]
    assert "Red tablet: connected" in report["links"]
    assert "Blue tablet: connected" in report["links"]
    # Red's clock runs: the display counts it down between the referee's updates.
    assert report["clocks"] in ("Red 05:00   Blue 04:47", "Red 04:59   Blue 04:47")
    red_later = report["clocks_later"].split()[1]
    assert red_later in ("04:58", "04:57")
    assert report["clocks_later"].endswith("Blue 04:47")
    assert "The board does not match the game:" in report["guidance"]
    assert "Take the pieces off: e5" in report["guidance"]
    assert "Put pieces back on: e4" in report["guidance"]
    assert report["guidance_marks"] == {"e5": "clear", "e4": "fill"}


def test_the_arbiters_overview_lists_every_board_and_opens_one(run_scenario):
    report, _ = run_scenario("hall_overview")
    assert report["screen"] == "overview"
    assert report["cards"] == ["table1", "table2"]
    assert report["title"] == "Boards in this hall: 2"
    assert report["status"].startswith("Setup")
    assert report["back_visible"] == 1
    assert report["pairing_back_to"] == "overview"  # from the pairing screen of a board's display
    assert report["back_to"] == "overview"


@pytest.fixture(scope="module")
def display_pairing(xvfb, tmp_path_factory):
    """One display (and Red's tablet) asking before the referee listens, then paired by its code."""
    return scenario_runner(xvfb, tmp_path_factory.mktemp("display-pairing"))("display_before_pairing")


def test_an_unpaired_display_says_it_waits_to_be_paired_not_that_the_referee_is_away(display_pairing):
    report, shots = display_pairing
    # Its broker link is up and nobody answered yet: the display's own screen waits to be paired.
    assert report["asking"] == {"screen": "display", "pairing": None, "turn": "Waiting for the game to start"}
    assert report["links"]["before en"] == "[color=ffd54f]•[/color] Referee: waiting to be paired"
    assert report["links"]["before de"] == "[color=ffd54f]•[/color] Schiedsrichter: wartet auf Kopplung"
    assert report["links"]["before bg"] == "[color=ffd54f]•[/color] Съдия: очаква сдвояване"
    # The referee is there (it answered), but nothing it published was read before pairing.
    assert report["before"] == {"display": "unpaired", "red": "unpaired", "info_used": False,
                                "referee_online": False}
    assert (shots / "display-unpaired-1024x600-bg.png").exists()
    assert report["problems"] == []  # every text fits, at 1024x600 and upright, in each language


def test_the_display_is_paired_on_its_own_screen_by_the_code_typed_into_it(display_pairing):
    report, shots = display_pairing
    # The referee's challenge shows the pairing screen, worded for a display: no seat, no squares,
    # no key of its own, one line asking for the console's code.
    assert report["challenge"] == {
        "title": "Pair this display", "instruction": "Type the code the referee's console shows for this display:",
        "square": "", "code_label": "", "message": "", "key": "", "button": "Send code", "back": "Back",
        "screen": "pairing", "referee": "unpaired", "paired": False, "top": "Arbiter · Referee display"}
    # A wrong code, typed and sent with the button: said in each language, and nothing else changed.
    assert len(report["typed_wrong"]) == 6 and report["sent"][0] == ["pair", {"code": report["typed_wrong"]}]
    assert report["wrong"] == {**report["challenge"], "message": "Wrong code: 2 tries left."}
    assert report["wrong de"] == "Falscher Code: noch 2 Versuche."
    assert report["wrong bg"] == "Грешен код: остават 2 опита."
    # The right code over it: paired, the display's own screen again, connected.
    assert [command for command, _ in report["sent"]] == ["pair", "pair"]
    assert report["sent"][1][1]["code"] != report["typed_wrong"]
    assert report["after"] == "online" and report["after_screen"] == "display"
    assert report["links"]["after en"].startswith("[color=81c784]•[/color] Referee: connected")
    assert report["links"]["after de"].startswith("[color=81c784]•[/color] Schiedsrichter: verbunden")
    looked = {entry.split(" ", 1)[1] for entry in report["looked"]}
    assert looked >= {"pairing/display-code", "pairing/display-wrong", "display/unpaired", "display/paired"}
    assert report["problems"] == []  # every text fits, at 1024x600 and upright, in each language
    assert (shots / "pairing-display-wrong-800x1280-bg.png").exists()
