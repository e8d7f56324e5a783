"""Two real tablets and the board window against the real referee, over MQTT, under Xvfb."""

from __future__ import annotations

import re


def test_pair_setup_and_play_by_moving_tokens_on_the_simulated_board(run_scenario):
    report, _ = run_scenario("network_game", timeout=180)
    # Pairing: the referee named an empty square; a token put there granted the seat.
    assert report["red_pairing_square"] and report["blue_pairing_square"]
    assert report["random_filled"] == [40, 40]
    assert report["placing_before"] == "0 / 40"
    # Each tablet shows its key; the referee's public state names the same key for its seat.
    red_key, blue_key = report["keys"]["red"][0], report["keys"]["blue"][0]
    assert re.fullmatch(r"\d{4}-\d{4}-\d{4}-\d{4}", red_key) and red_key != blue_key
    for seat, own in (("red", red_key), ("blue", blue_key)):
        assert report["keys"][seat][1] == {"red": red_key, "blue": blue_key}
        assert report["keys"][seat][2].startswith(f"Your key: {own}.")
    # The placement guide turns each square green as the board senses its piece.
    assert report["placing_after_three"] == "3 / 40"
    assert report["green_squares"] == report["first_three"]
    assert report["placing_next"].startswith("Next: ")
    assert report["connection"]["referee"] == "online"
    assert report["connection"]["red"] == "online" and report["connection"]["blue"] == "online"
    # Every move dragged on the board window was ruled and reached both tablets.
    assert report["plies"] == 14
    assert report["red_ply"] == report["blue_ply"] == 14
    assert report["battles"] >= 1
    for red_text, blue_text in report["battle_texts"]:
        assert ("Your " in red_text) != ("Your " in blue_text)
        assert "Take off the board at " in red_text and "Take off the board at " in blue_text
    # Neither tablet ever drew a rank its player may not know, nor a piece that is not there.
    assert report["violations"] == []
    assert report["blue_back_without_pairing"] is True
    # A move taken back over MQTT: asked and accepted with the buttons, the token guided back.
    origin, target = report["takeback_move"].split("-")
    assert report["takeback_offer_text"].endswith("asks to take back the last move.")
    assert report["takeback_guidance"] == {"clear": [target], "fill": [origin]}
    assert f"The move {report['takeback_move']} was taken back." in report["takeback_mover_text"]
    assert f"back from {target} to {origin}." in report["takeback_mover_text"]
    assert report["takeback_ply"] == report["plies"]
    assert report["referee_light_after_stop"] == "offline"
    assert report["result"] == "Draw\nReason: both players agreed to a draw"
