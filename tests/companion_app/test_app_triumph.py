"""Napoleon's Triumph on the real tablets under Xvfb (scenarios in scenarios_triumph.py): the
set-up, the command menu, an attack on both tablets, instructions, German and Bulgarian.

The screenshots are copied to docs/screenshots/triumph-*.png for docs/app.md by `make
screenshots` (docs_screenshots.py)."""

from __future__ import annotations

from pathlib import Path

from engine.triumph.standard import standard_setup
from tests.companion_app.docs_screenshots import keep_for_docs


def _keep(folder: Path) -> None:
    keep_for_docs(folder, "triumph-*.png")


def test_the_french_setup_starts_standard_is_checked_refused_then_accepted(run_scenario):
    report, folder = run_scenario("triumph_setup")
    _keep(folder)
    assert report["screen"] == "triumph_setup"
    standard = standard_setup("french")
    assert sum(report["corps_units"].values()) == len(standard["units"]) == 36
    assert report["corps_units"]["Legrand"] == 3 and report["problem_start"] is None
    # Legrand left with two units: the engine's own check says so and the button is off.
    assert "Legrand's corps has 2 units" in report["problem_small"]
    assert report["submit_disabled"] is True
    # Sent all the same, the referee refuses it for the reason the tablet already words (its
    # own English message is not shown again: a German tablet would show it in English).
    assert report["setup_errors"] == [report["problem_small"]]
    assert any("The referee refused your set-up for this reason." in t for t in report["refused_texts"])
    assert not any("The referee refused your set-up:" in t for t in report["refused_texts"])
    # A French unit detached to a position stands there, out of its corps, and is valid.
    assert report["detached"]["at"] == "R73" and report["detached"]["from"] == "Vandamme"
    assert "commander" not in report["detached"] and report["problem_detached"] is None
    # The standard set-up sent: accepted, the tablet waits for the other side.
    assert report["sent"] is True
    assert report["after_submit"] == "triumph_setup"
    assert "Waiting for the other side to send its set-up." in report["accepted_texts"]


def test_the_allied_menu_composes_a_corps_move_with_a_unit_left_behind(run_scenario):
    report, folder = run_scenario("triumph_command")
    _keep(folder)
    assert report["screens"] == ["triumph", "triumph"]
    assert report["headline"] == "Your turn: choose a command"
    assert "End turn" in report["menu"] and "Move the corps of Bagration" in report["menu"]
    composed = report["composed"]
    assert composed["type"] == "corps_move" and composed["commander"] == "Bagration"
    assert composed["to"] == "R66" and len(composed["units"]) == 5
    assert report["highlighted"] == ["R66"]  # the map rings the chosen destination
    assert report["unit_buttons"][-1] == "Infantry 2 (stays)"
    assert "• reserve 66" in report["destination_buttons"]
    assert report["send_disabled"] is False
    # Sent as the contract's nt command; the engine moved five units and left one at 67.
    assert report["received"] == ["red", "nt", {"action": composed}]
    assert report["moved_to"] == ["R66", "R67"]
    assert report["commands_after"][0].startswith("Corps commands left: 4 of 5")
    assert "commanded this turn" in report["army_after"][0]
    # A refusal is shown by its rule's title with the referee's text.
    assert report["refusal"]["rule"] == "nt-movement"
    assert report["refusal_texts"][0].startswith("[color=ff8a80]Refused (Movement): ")
    # At the end the panel is the battle's end: who won and why, the morale; no choice left.
    assert report["over"][:2] == ["over", "triumph"] and report["over"][3] == 0
    kinds = dict(report["end_lines"])
    assert kinds["head"] == "[color=ffd54f]You won the battle![/color]"
    assert "The French army is demoralised." in kinds["why"]
    assert "Morale at the end: French" in kinds["morale"]
    assert kinds["time"].endswith("The battle ended at 7:00.[/color]")


def test_an_attack_asks_the_defender_and_the_attacker_waits_then_instructions(run_scenario):
    report, folder = run_scenario("triumph_attack")
    _keep(folder)
    assert report["blue_headline"] == "Threat on 93: defend or retreat"
    assert report["red_headline"] == "Waiting for the French: defend or retreat"
    assert report["red_buttons"] == 0
    assert "Defend with Infantry 3, Infantry 2 ×3" in report["blue_options"]
    assert any(o.startswith("Retreat: ") for o in report["blue_options"])
    assert report["blue_headline_de"] == "Bedrohung auf 93: verteidigen oder zurückziehen"
    assert report["red_headline_de"] == "Warten auf die Franzosen: verteidigen oder zurückziehen"
    assert "Verteidigen mit Infanterie 3, Infanterie 2 ×3" in report["blue_options_de"]
    # The tapped answer went out as an nt command and the attacker decides next.
    seat, kind, args = report["defend_sent"]
    assert (seat, kind, args["action"]["type"]) == ("blue", "nt", "defend")
    assert len(args["action"]["units"]) == 4
    assert report["after_defend"] == ["allied", "feint_or_press"]
    assert "combat" in report["events"]
    # Each tablet has instructions about its own blocks only, newest first, tapped done.
    assert report["blue_steps"] and report["red_steps_after"]
    assert all("Liechtenstein" not in t and "Kienmayer" not in t for t in report["blue_steps"])
    assert report["done"] == [report["done_key"]]
    before, after = report["steps_before"], report["steps_after"]
    # the step tapped is marked done, or its block, all done, makes room for the others
    assert after[0] == "Done: " + before[0] or after == before[1:]
    assert all(any("\u0400" <= c <= "\u04ff" for c in t) for t in report["blue_steps_bg"])


def test_a_plain_move_is_taken_back_on_both_tablets_and_a_resignation_needs_two_taps(run_scenario):
    report, folder = run_scenario("triumph_takeback")
    _keep(folder)
    assert report["red_waiting"]
    assert report["blue_asked"] == ["[color=ffd54f]The Allies ask to take back their last command.[/color]"]
    assert report["actions_after"] == 0  # the referee took the Corps Move back
    assert any(text.startswith("Move Bagration's flag") and "from 66 to the reserve of 67" in text
               for text in report["red_steps"]), report["red_steps"]
    assert report["armed"] == "Really resign?"
    assert report["result"]["winner"] == "allied" and report["result"]["reason"] == "resignation"
    assert report["red_result"] and "You won the battle!" in report["red_result"][0]
    kinds = [kind for kind, _ in report["red_end"]]
    assert kinds == ["head", "why", "morale", "time"]  # the in-process table keeps no record file
