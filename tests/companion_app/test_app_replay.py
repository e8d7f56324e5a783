"""The replay panel of the real app, against the real referee and the simulated board, under Xvfb."""

from __future__ import annotations


def test_a_tablet_replays_a_gravon_game_on_the_simulated_board(run_scenario):
    report, _ = run_scenario("replay_on_board", timeout=180)
    assert report["replay_button"] == ["Replay", False]
    assert report["empty_panel"][0] == "Replay a recorded game"
    assert report["empty_panel"][1].endswith("/records/")
    assert report["missing_file"].startswith("Cannot read the game file ")
    placing = report["placing"]
    assert placing["title"] == "raid.xml · Red: Player 1 · Blue: Player 2"
    assert placing["move"] == "Move 0 of 33"
    assert placing["lines"][0] == "Set up the board for the replay, square by square."
    assert placing["lines"][1] == "Put on a1: Flag, Red."
    assert placing["lines"][-1] == "… and 10 more."
    assert placing["fill_rings"] == 16 and placing["display"] == "replay"
    replaying = report["replaying"]
    assert replaying["move"] == "Move 4 of 33"
    assert replaying["lines"] == ["Move 5: Red moves Spy (1) from e5 to e6. "
                                  "It attacks Marshal (10), Blue."]
    assert replaying["rings"] == ["e5", "e6"] and replaying["leds"] == ["e5", "e6"]
    assert replaying["display_lines"] == replaying["lines"][0]
    assert report["back_lines"] == ["Put Marshal (10), Blue, back from e6 to e7."]
    assert report["back_lines_de"] == ["Stelle Feldmarschall (10), Blau, von e6 zurück auf e7."]
    assert report["after_play_on"] == ["game", "display", 3, "blue"]
