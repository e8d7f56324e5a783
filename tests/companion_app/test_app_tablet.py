"""The player tablet under Xvfb: setup by finger, a game between two tablets, the end screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.stratego.records import check_record


def test_setup_by_taps_and_drags_then_saved_setups_and_languages(run_scenario):
    report, _ = run_scenario("setup_screen")
    assert report["screen"] == "setup"
    # Tap a kind in the tray, tap a square: the piece lands there.
    assert report["selected"] == "marshal"
    # A Scout dragged from the tray to a1; the Marshal dragged on from d4 to e4.
    assert report["after_drags"] == {"a1": "scout", "e4": "marshal"}
    # Dragged off the board, the Scout goes back to the tray.
    assert report["after_drag_off"] == {"e4": "marshal"}
    # The message says what is still missing, and the player cannot submit yet.
    assert "Place 1 more: General" in report["problems_partial"]
    assert "Place 1 more: Marshal" not in report["problems_partial"]
    assert report["submit_disabled_partial"] is True
    # A named setup survives clearing the board.
    assert report["cleared"] == 0
    assert report["loaded_equal"] is True
    assert "complete" in report["problems_complete"]
    assert report["submit_disabled_complete"] is False
    assert report["title_de"] == "Deine Aufstellung"
    assert report["status_de"] == "Aufstellung Fortress geladen."
    assert report["random_de"] == "Zufällig"
    assert report["title_bg"] == "Вашата подредба"
    # After submitting, the placement guide names the first piece to put on the board.
    assert report["after_submit"] == "placing"
    assert report["placing_progress"] == "0 / 40"
    assert report["placing_next"].startswith("Next: ")


def test_two_tablets_play_with_private_battles_refusals_and_a_draw(run_scenario, tmp_path):
    report, _ = run_scenario("game_two_tablets")
    assert report["screens_at_start"] == ["game", "game"]
    # No tablet ever drew a rank its player may not know.
    assert report["violations"] == []
    assert report["blue_hidden_count"] > 20
    assert report["blue_hidden_red_labels"] == ["?"]
    battle = next(e for e in report["battle_events"] if e["type"] == "battle")
    assert report["red_view_ply"] == report["ply"]
    assert report["red_message"].startswith("Your ")
    assert "attacked your" in report["blue_message"]
    if battle["outcome"] == "attacker":
        assert "You won the battle." in report["red_message"]
        assert "You lost the battle." in report["blue_message"]
    assert f"Take off the board at {battle['square']}: " in report["red_message"]
    # The referee refuses a bomb's move and the player is told why and what to do.
    move = report["refused_move"]
    assert f"The referee refused {move}." in report["refusal_text"]
    assert f"Put the piece back on {move.split('-')[0]}." in report["refusal_text"]
    # Red offers a draw with the button; Blue sees it and accepts.
    assert report["blue_offer_text"] == "Red offers a draw."
    assert report["blue_accept_visible"] == 1
    assert report["screens_at_end"] == ["over", "over"]
    assert report["result_text"] == "Draw\nReason: both players agreed to a draw"
    # The end screen reveals everything: ranks, bombs and flags.
    assert {"10", "B", "F"} <= set(report["revealed_labels"])
    assert "?" not in report["revealed_labels"]
    assert report["replay_positions"] == len(report["moves_played"]) + 1
    assert report["replay_label_start"] == f"Move 0 of {len(report['moves_played'])}"
    # The exported record replays to the same game with the engine.
    record = json.loads(Path(report["export_path"]).read_text())
    assert record["moves"] == report["moves_played"]
    assert record["setup"]["red"] == report["setups"]["red"]
    assert report["after_new_game"] == ["setup", "setup"]
    assert report["red_draft_kept"] is True
    assert report["history_after_new_game"] == 0
    verdict = check_record(record)
    assert verdict["illegal"] is None
    assert verdict["applied"] == len(report["moves_played"])


def test_two_squares_warning_comes_before_the_refusal_and_resign_needs_two_taps(run_scenario):
    report, _ = run_scenario("warning_and_resign")
    messages = report["red_messages"]
    # Red's scout went b2-b3, b3-b2, b2-b3: one more return would break the rule.
    assert "Two-squares rule" not in messages[0]
    assert any("Two-squares rule: the piece on b3 may not go back to b2 now." in m for m in messages[4:])
    assert report["refused"]["code"] == "illegal"
    assert "Two-squares rule: this piece may not move between the same two squares more than 3 times" in report["refusal_text"]
    assert report["after_one_tap"] == ["game", "Really resign?"]
    assert report["after_two_taps"] == "over"
    assert report["red_result"] == "You won!\nReason: a player resigned"
    assert report["red_result_bg"] == "Победихте!\nПричина: играч се предаде"


def test_portrait_tablet_keeps_board_and_panel_apart_with_big_buttons(run_scenario):
    report, _ = run_scenario("portrait_tablet")
    assert report["orientation"] == "vertical"
    assert report["board_bottom"] >= report["side_top"] - 1
    assert report["setup_board_bottom"] >= report["setup_side_top"] - 1
    assert report["cell"] >= 30
    assert min(report["button_heights"]) >= 48


def _multicast_works() -> bool:
    from firmware_bridge.protocol.discovery import Announcer, discover

    announcer = Announcer("probe", 1883, "k" * 44, "Probe", addresses=["127.0.0.1"])
    announcer.start()
    try:
        return any(board.board == "probe" for board in discover(timeout=3))
    finally:
        announcer.stop()


def test_a_board_announced_on_the_network_is_listed_and_a_tap_fills_its_address(run_scenario):
    try:
        report, _ = run_scenario("connect_finds_board")
    except pytest.fail.Exception as failure:
        if "announced board" in str(failure) and not _multicast_works():
            pytest.skip("zeroconf multicast does not work on this machine's network")
        raise
    assert report["found"] == {"Kitchen table": "mqtt://127.0.0.1:1883/kitchen"}
    assert report["label"] == "Boards on this network:"
    assert report["address"] == "mqtt://127.0.0.1:1883/kitchen"
    assert report["title_de"] == "Finde dein Brett"


def test_espionage_turn_of_two_moves_is_counted_on_the_tablet(run_scenario):
    report, _ = run_scenario("espionage_turn")
    assert report["turn_start"] == "Your turn · move 1 of 2"
    assert report["turn_after_one"] == "Your turn · move 2 of 2"
    # Headquarters and mines are marked with letters, ranks 1-5 with numbers, the enemy unknown.
    assert {"H", "M", "?"} <= set(report["labels"])


def test_without_sensors_players_move_on_the_tablet_by_drag_or_two_taps(run_scenario):
    report, _ = run_scenario("tablet_moves")
    assert report["after_red_drag"] == ["b2-b5"]
    assert report["blue_selected"] == "h9"
    assert report["after_blue_taps"] == ["b2-b5", "h9-h7"]
    assert report["after_out_of_turn"] == 2
    assert "The referee refused your move.\nThe Flag on a1 cannot move." in report["refusal"]
    assert report["after_refusal"] == 2
    assert "Moves are made on the board itself." in report["board_input_notice"]
