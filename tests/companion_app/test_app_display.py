"""The referee display never shows a hidden rank, and tells the hall what happened."""

from __future__ import annotations


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
    assert report["back_to"] == "overview"


def test_an_unpaired_display_says_it_waits_to_be_paired_not_that_the_referee_is_away(run_scenario):
    report, shots = run_scenario("display_before_pairing")
    # The referee is there, but nothing it published was read: the display waits to be paired.
    assert report["before"] == {"display": "unpaired", "red": "unpaired", "info_used": False,
                                "referee_online": False, "turn": "Waiting for the game to start"}
    assert report["links"]["before en"] == "[color=ffd54f]•[/color] Referee: waiting to be paired"
    assert report["links"]["before de"] == "[color=ffd54f]•[/color] Schiedsrichter: wartet auf Kopplung"
    assert report["links"]["before bg"] == "[color=ffd54f]•[/color] Съдия: очаква сдвояване"
    # Paired by the console's code: connected, as before.
    assert report["after"] == "online"
    assert report["links"]["after en"].startswith("[color=81c784]•[/color] Referee: connected")
    assert report["links"]["after de"].startswith("[color=81c784]•[/color] Schiedsrichter: verbunden")
    assert report["problems"] == []  # every text fits, at 1024x600 and upright, in each language
    assert (shots / "display-unpaired-1024x600-bg.png").exists()
