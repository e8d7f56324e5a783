"""Attack orders built block by block on the real tablets under Xvfb against the referee's own
TriumphSession (scenarios in scenarios_triumph_orders.py): the engine's rules speak as the
answer grows, Send waits for a legal answer, and the referee rules what was built. Screenshots
go to docs/screenshots (`make screenshots`)."""

from __future__ import annotations

from tests.companion_app.test_app_triumph import _keep

ST_HILAIRE = ["F.f-st. -0", "F.f-st. -1", "F.f-st. -2", "F.f-st. -3"]  # the session's ids


def test_attack_orders_and_answers_are_built_block_by_block_and_ruled_by_the_referee(run_scenario):
    report, folder = run_scenario("triumph_orders_built")
    _keep(folder)
    assert "error" not in report, report.get("error")
    assert report["build_buttons"][0] == "Build the orders block by block, on the map"
    assert report["build_buttons"][1] == "Choose the blocks one by one"
    # the attack: St. Hilaire's blocks in 93, the engine's words at every step
    assert report["attack_blocks"] == ST_HILAIRE
    assert "Name at least one command" in report["attack_first"]
    assert "At most 1 attack leader in a narrow attack." in report["attack_two_leaders_narrow"]
    assert report["attack_send_disabled_narrow"] is True
    assert "Attack with St. Hilaire with" in report["attack_ready"]
    assert "wide, led by" in report["attack_ready"]
    assert report["attack_send_disabled"] is False
    assert report["attack_verdict_in_sight"] and report["attack_send_in_sight"], \
        "at 1024x600 the attack's verdict and Send must not need scrolling"
    seat, command, args = report["attack_received"]
    assert (seat, command) == ("blue", "nt")
    action = args["action"]
    assert action["type"] == "attack" and action["wide"] and action["leaders"] == ST_HILAIRE[:2]
    assert action["orders"] == [{"type": "corps_move", "commander": "St. Hilaire",
                                 "units": ST_HILAIRE}]
    assert report["after_attack"] == ["allied", "counter_attack"]
    assert report["counter_candidates"] == 4  # the defenders that do not lead
    assert "No counter-attack" in report["counter_none"]
    assert report["counter_received"][2]["action"] == {"type": "counter_attack", "units": []}
    # the feint: the map rings where the blocks stand and where a feint ends; a tap on 93 ends it there
    assert report["feint_highlighted"] == ["93>94", "R93"]
    assert report["feint_tapped"] == "R93" and report["feint_end"] == "reserve"
    assert "Feint with St. Hilaire with" in report["feint_ready"] and "end in the reserve" in report["feint_ready"]
    assert report["feint_received"][2]["action"]["end"] == "reserve"
    assert report["after_feint"] == ["allied", "advance"]
    assert "At least one of" in report["advance_first"]
    assert report["advance_ready"].startswith("[color=a5d6a7]Advance ")
    assert report["advance_received"][2]["action"]["type"] == "advance"
    assert report["advanced"] == "94>93"
    for key in ("attack_problems", "counter_problems", "feint_problems", "advance_problems"):
        assert report[key] == [], key
