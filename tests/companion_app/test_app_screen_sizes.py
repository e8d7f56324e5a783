"""Every Stratego-family screen fits every tablet a family owns, and the demo's own windows.

The real app against the in-process referee, at 1024x600, 1280x800, 800x1280, 2048x1536 and the
demo's windows: no text overflows its box or spills out of its layout into another, no two texts
overlap, no button is under 40 px or off the screen, and the heading over the game's messages
stays where it is whatever the messages say (a battle, the notebook, an offer).
"""

from __future__ import annotations

import pytest

from tests.companion_app.conftest import scenario_runner


@pytest.fixture(scope="module", params=["en", "de"])
def sizes_report(request, xvfb, tmp_path_factory):
    report, _ = scenario_runner(xvfb, tmp_path_factory.mktemp(f"sizes-{request.param}"))(
        "screen_sizes", request.param, timeout=400)
    return report


def test_every_screen_at_every_size_shows_each_text_whole_and_each_button_on_screen(sizes_report):
    screens = {entry.split(" ", 1)[1] for entry in sizes_report["looked"]}
    assert screens >= {"connect/start", "setup/empty", "setup/ready", "game/start", "game/battle",
                       "game/notebook", "game/offer", "display/battle", "over/resigned",
                       "display/over", "replay/open"}
    assert len(sizes_report["looked"]) == len(screens) * 6  # each at the six sizes
    assert sizes_report["problems"] == []


def test_the_heading_stays_put_whatever_the_messages_under_it_say(sizes_report):
    for size, states in sizes_report["headings"].items():
        assert len(states) >= 5, size
        assert len({tuple(place) for place in states.values()}) == 1, (size, states)
