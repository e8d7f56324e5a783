"""Napoleon's Triumph on the referee display: the public map, the time, morale, the attack.

The screenshots are copied to docs/screenshots/ for docs/app.md by `make screenshots`."""

from __future__ import annotations

from pathlib import Path

from tests.companion_app.docs_screenshots import keep_for_docs


def test_the_display_shows_the_public_game_and_the_attack(run_scenario):
    report, folder = run_scenario("triumph_display")
    keep_for_docs(folder, "triumph-display*.png")
    assert report["screen"] == "display"
    # from the first moment the public state names the game: the printed map, never Stratego's
    before = report["before_view"]
    assert before["nt_panel"] and not before["board"]
    assert before["turn"] == "Napoleon's Triumph"
    assert before["waiting"] == ("[color=ffd54f]Waiting for the set-ups:\nAllies: arranging the "
                                 "set-up\nFrench: set-up sent[/color]")
    assert before["chips"] == []  # the empty printed map (the screenshot shows it), no chip yet
    assert before["numbers"] > 90  # every locale's number printed
    assert report["waiting_at_threat"] == "[color=ffd54f]Waiting for the Allies: defend or retreat[/color]"
    assert report["awaiting"] == {"side": "allied", "decision": "counter_attack"}
    assert report["waiting"] == "[color=ffd54f]Waiting for the Allies: counter-attack or not[/color]"
    assert report["turn"] == "7:00: turn of the French"
    assert report["track"] == [7, "french"]
    assert "French 23" in report["morale"] and "Allies 27" in report["morale"]
    assert report["clocks"] == "Allies 25:00   French 23:00" or report["clocks"].endswith("French 23:00")
    assert report["commands"].startswith("Commands this turn: 2 corps")
    attack = report["attack"]
    assert "French attack from 93 into 94" in attack
    assert "Defence leaders (1): Inf-3" in attack
    assert "Attack leaders (2): Inf-3, Inf-2" in attack
    assert "Defenders (5)" in attack and "Attackers (4)" in attack
    # the map: the attack marked, every block counted, only public faces written
    drawn = report["drawn"]
    assert drawn["attack"] == "93>94"
    assert drawn["R94"].startswith("allied:5") and drawn["R93"].startswith("french:4")
    assert drawn["64>63"] == "french:1"
    assert drawn["flag:Langeron"] == "R94" and drawn["flag:St. Hilaire"] == "R93"
    # zoomed in three times, a chip lists the faces the public may see, and only those
    zoomed = report["drawn_zoomed"]
    assert report["zoom"] == 3.0
    assert zoomed["64>63"] == "french:1 · A1"  # the fixed battery's face is public (set-up)
    for position, label in zoomed.items():
        if position[0] == "R" or ">" in position[:4]:
            known = label.partition(" · ")[2].split()
            shown = [k for k in known if not k.startswith("+")]
            assert len(shown) == len(report["public_faces"].get(position, [])), position
    assert report["map_inside"]
    assert report["tapped"] == ["R94", "R63", "93>94"]
    assert report["de"]["waiting"] == "[color=ffd54f]Warten auf die Alliierten: Gegenangriff oder nicht[/color]"
    assert report["de"]["turn"].startswith("7:00:")  # 24-hour, no "Uhr vormittags"
    assert report["bg"]["turn"].startswith("7:00")
    assert report["feint"]["closed"] == "x"
    assert report["feint"]["waiting"] == "[color=ffd54f]Waiting for the Allies: advance the defenders[/color]"
    assert report["over"]["result"] == ("[color=ffd54f]French win\n"
                                        "The Allied army is demoralised.[/color]")
    assert report["over"]["waiting"] == ""
    assert report["over"]["turn"] == "Game over"
    # the Allies broke as they lost their steps (1.11), before any retreat left 108 stormed
    assert report["over"]["stormed"] is None
    assert report["board_back"]
    assert {Path(p).name for p in report["screenshots"]} >= {"triumph-display.png",
                                                             "triumph-display-de.png"}
