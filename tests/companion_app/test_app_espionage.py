"""Takebacks and Espionage on the real tablets under Xvfb (scenarios in scenarios_espionage.py)."""

from __future__ import annotations


def test_a_takeback_is_asked_declined_then_accepted_and_both_boards_go_back(run_scenario):
    report, _ = run_scenario("takeback_tablets")
    assert report["red_waiting"] == "You asked to take back the last move. Waiting for the answer."
    assert report["blue_offer"] == "Red asks to take back the last move."
    opacity, accept, decline, height = report["blue_buttons"]
    assert (opacity, accept, decline) == (1, "Accept", "Decline") and height >= 48
    assert report["red_buttons_opacity"] == 0  # the asker has nothing to answer
    # Declined: nothing changes and Red is told.
    assert report["after_decline_ply"] == report["ply_before"]
    assert "Blue declined to take the move back." in report["red_after_decline"]
    assert report["blue_offer_after_decline"] == 0
    # Accepted: the engine took the battle back and both tablets show the position before it.
    assert report["ply_after"] == report["ply_before"] - 1
    assert report["views_ply"] == [report["ply_after"]] * 2
    assert report["red_pieces_match"] is True
    assert report["violations"] == []
    move = report["taken_back_move"]
    origin, target = move.split("-")
    battle = report["battle"]
    for message in (report["red_message"], report["blue_message"]):
        assert f"The move {move} was taken back." in message
    # Red won the battle: its piece comes off the target and goes back to where it came from,
    # and Blue puts the piece it lost back on the target.
    assert battle["outcome"] == "attacker"
    assert (f"Move your {report['attacker_name']} back from {target} to {origin}."
            in report["red_message"])
    assert f"Blue puts a piece back on {target}." in report["red_message"]
    assert f"Red moves a piece back from {target} to {origin}." in report["blue_message"]
    assert f"Put your {report['defender_name']} back on {target}." in report["blue_message"]
    # Blue's tablet names no Red rank it may not know.
    assert report["attacker_name"] not in report["blue_message"]
    # The referee's board check rings the squares to put right.
    assert report["board_check"]["matches"] is False
    assert set(report["red_marks"]) == set(report["board_check"]["clear"]) | set(report["board_check"]["fill"])
    # The next move ends the takeback message; the replay forgets the move taken back.
    assert report["after_next_move"] == [0, report["ply_before"]]
    assert report["history_plies"][-1] == report["ply_before"]


def test_espionage_volcanoes_two_move_turns_recognised_pieces_and_passes(run_scenario):
    report, _ = run_scenario("espionage_game")
    # Real volcanoes, drawn as volcanoes and explained.
    assert report["volcanoes"] and report["board_volcanoes"] == report["volcanoes"]
    assert report["setup_volcanoes"] == report["volcanoes"]
    screen, placing_volcanoes, guide = report["placing"]
    assert screen == "placing" and placing_volcanoes == report["volcanoes"]
    assert all(f"Put a volcano marker on {square}." in guide for square in report["volcanoes"])
    assert report["legend"] == [1, "Volcano: no piece may enter", "Recognised by your spy"]
    # The turn line counts the moves of the turn; the piece moved first is marked on both boards.
    assert report["turn_start"] == "Your turn · move 1 of 2"
    assert report["blue_turn_start"] == "Red to move · move 1 of 2"
    assert report["turn_after_one"] == "Your turn · move 2 of 2"
    assert report["red_turn_mark"] == "turn-piece" and report["blue_turn_mark"] == "turn-piece"
    target = report["first_move"].split("-")[1]
    assert f"Second move: a different piece than the one on {target}." in report["red_hint"]
    # The referee display shows the same count, mark and volcanoes, with the volcano legend only.
    assert report["display_turn"] == "Red to move\nmove 2 of 2"
    assert report["display_turn_mark"] == "turn-piece"
    assert report["display_volcanoes"] == report["volcanoes"]
    assert report["display_legend"] == ["Volcano: no piece may enter", ""]
    # The same piece again is refused with the reason, not "It is not your turn".
    assert "This turn's second move must be made by a different piece." in report["again_refusal"]
    assert "It is not your turn" not in report["again_refusal"]
    assert report["ply_after_refusal"] == 1
    # Red's spy recognised a piece: its rank, the mark, a private message; Blue hears nothing.
    reveal = report["reveal_event"]
    assert report["red_label_there"] not in (None, "?")
    assert reveal["square"] in report["red_recognised_drawn"]
    assert "Your spy recognised " in report["red_reveal_message"]
    assert f" on {reveal['square']}." in report["red_reveal_message"]
    assert "spy" not in report["blue_message_at_reveal"]
    assert report["blue_reveals"] == []
    assert report["blue_recognised_drawn"] == [] and report["display_recognised_drawn"] == []
    assert report["display_label_there"] == "?"
    # Blue's tablet never drew, and no battle told it, a hidden Red rank.
    assert report["violations"] == []
    assert report["battles_blue"] >= 1
    assert report["blue_battles_naming_red_ranks"] == []
    # A blocked player passes, and both tablets say so.
    assert "You cannot move: your turn passes." in report["pass_blue"]
    assert "Blue cannot move and passes." in report["pass_red"]
    assert report["pass_turn_label"] == "Your turn · move 1 of 2"
    assert report["pass_display"] == "Blue cannot move and passes."
    # In the other languages too.
    assert "Сини не могат да играят и пропускат." in report["pass_red_bg"]  # the side is plural
    assert report["turn_bg"] == "Ваш ход · ход 1 от 2"
    assert report["turn_de"] == "Du bist am Zug · Zug 1 von 2"


def test_volcano_marker_steps_and_the_referees_board_steps_in_every_language(run_scenario):
    report, _ = run_scenario("espionage_marker_steps")
    volcanoes = report["volcanoes"]
    assert volcanoes
    # From the game's creation: on the setup screen, the referee display and the placement guide.
    for square in volcanoes:
        assert f"Put a volcano marker on {square}." in report["setup_markers"]["en"]
        assert f"Put a volcano marker on {square}." in report["display_phase"]["en"]
        assert f"Put a volcano marker on {square}." in report["placing"]
        assert f"Stelle einen Vulkanmarker auf {square}." in report["setup_markers"]["de"]
        assert f"Поставете маркер за вулкан на {square}." in report["display_phase"]["bg"]
    # The board check's steps, in the referee's order, wherever the app guides the board.
    english = ["Move the piece from e5 to e4.", "Put the missing piece back on d4.",
               "The piece on c1 is the wrong one: swap it for the right piece."]
    german = ["Setze die Figur von e5 auf e4.", "Stelle die fehlende Figur zurück auf d4.",
              "Auf c1 steht die falsche Figur: tausche sie gegen die richtige."]
    bulgarian = ["Преместете фигурата от e5 на e4.", "Върнете липсващата фигура на d4.",
                 "Фигурата на c1 е грешна: сменете я с правилната."]
    for where in ("tablet_steps", "display_steps"):
        assert "\n".join(english) in report[where]["en"]
        assert "\n".join(german) in report[where]["de"]
        assert "\n".join(bulgarian) in report[where]["bg"]
        assert "Take the pieces off" not in report[where]["en"]
