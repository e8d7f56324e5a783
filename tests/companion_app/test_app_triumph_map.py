"""The printed NT map on the real tablets under Xvfb (scenarios in scenarios_triumph_map.py):
no chip over another at 1280x800 and 1024x600, and a retreat planned block by block on the
map and ruled by the referee's own TriumphSession. Screenshots go to docs/screenshots
(`make screenshots`)."""

from __future__ import annotations

from tests.companion_app.test_app_triumph import _keep


def test_the_printed_map_shows_every_army_with_no_chip_over_another(run_scenario):
    report, folder = run_scenario("triumph_map_look")
    _keep(folder)
    assert "error" not in report, report.get("error")
    for side in ("allied", "french"):
        for width in (1280, 1024):
            assert report[f"{side}-{width}-overlaps"] == []
            assert report[f"{side}-{width}-chips"] > 60  # numbers and chips of both armies
    # the first screen names the armies, not the seats' colours
    assert report["french-title"].endswith("· French") and report["allied-title"].endswith("· Allies")
    assert "Red" not in report["allied-lights"] and "Allies" in report["allied-lights"]
    # the commands come first; ending the turn is the last choice
    menu = report["allied-menu"]
    assert menu[0].startswith("Move the corps of") and menu[-1] == "End turn"
    assert report["french-menu"] == []  # the French wait while the Allies command


def test_a_retreat_is_planned_block_by_block_on_the_map_and_ruled_by_the_referee(run_scenario):
    report, folder = run_scenario("triumph_retreat_built")
    _keep(folder)
    assert "error" not in report, report.get("error")
    assert report["build_button"] == "Plan the retreat block by block, on the map"
    assert report["shortcuts"] >= 4  # the whole plans stay as a shortcut
    assert report["highlighted"] == ["R103", "R104", "R82", "R92"]  # where the blocks may go
    # the engine's own rule speaks at every step, in words
    assert "lose 2 steps between them, not 0" in report["first_problem"]
    assert "Every surviving unit must retreat while there is room" in report["after_losses"]
    assert "This retreat follows the rules." in report["ready"]
    assert report["send_disabled"] is False
    assert report["unit_buttons"][0].startswith("Infantry 3 · loses 2 · to 104 · keeps St. Hilaire")
    assert report["problems"] == []
    seat, command, args = report["received"]
    assert (seat, command, args["action"]["type"]) == ("blue", "nt", "retreat")
    assert report["at_104"] == report["survivors"]  # the referee moved them as planned


def test_a_finger_zooms_and_drags_the_map_and_a_drag_is_no_tap(run_scenario):
    report, folder = run_scenario("triumph_map_gestures")
    _keep(folder)
    assert "error" not in report, report.get("error")
    assert report["zoom"] == 2.5
    assert report["moved"] == [120, -60]  # the map follows the finger, pixel for pixel
    assert report["tapped_after_drag"] == []
    assert report["tapped"] == ["R63"]
    assert report["faces_shown"] == "french:4 · C3 C2 C2 C2"  # zoomed in, the chip lists faces
