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
