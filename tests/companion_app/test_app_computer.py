"""The person's tablet and the referee display show the computer's move, in words and rings."""

from __future__ import annotations


def test_the_tablet_and_the_display_ask_for_the_computers_move(run_scenario):
    report, shots = run_scenario("computer_move_shown")
    assert "error" not in report, report.get("error")
    move = report["move"]
    sentence = f"Move the blue piece from {move['square']} to {move['to']} for the computer."
    assert any(sentence in text for text in report["tablet_texts"]), report["tablet_texts"]
    assert any(sentence in text for text in report["display_texts"]), report["display_texts"]
    for marks in (report["tablet_marks"], report["display_marks"]):
        assert marks[move["square"]] == "computer-from" and marks[move["to"]] == "computer-to"
    assert (shots / "computer-move-tablet.png").exists() and (shots / "computer-move-display.png").exists()


def test_the_notebook_panel_opens_from_the_game_screen(run_scenario):
    report, shots = run_scenario("notebook_panel")
    assert "error" not in report, report.get("error")
    assert "Notebook" not in report["closed"], "closed by default"
    assert report["open_flag"] and report["open"].startswith("[b]Notebook: what each enemy piece can be[/b]")
    assert "Their army left: " in report["open"]
    assert report["forbidden_disabled"]
    assert (shots / "notebook.png").exists()
