"""Every Napoleon's Triumph screen fits every tablet: no text overflows its box or spills out
of its layout, no two texts overlap, no button is under 40 px or off the screen (layout_checks),
at 1024x600, 1280x800, 800x1280, 2048x1536 and the demo's windows (on a laptop, and the narrowest
on a Raspberry Pi's 1024x600 screen), in English, German and Bulgarian. Screenshots at 1024x600 and 800x1280 go to docs/screenshots for docs/app.md (`make screenshots`)."""

from __future__ import annotations

import re

import pytest

from tests.companion_app.docs_screenshots import keep_for_docs
from tests.companion_app.layout_checks import english
from tests.companion_app.scenarios_sizes import SIZES

TWELVE_HOUR = re.compile(r"\d\s*(AM|PM|a\.m\.|p\.m\.)|\bnoon\b|vormittags|nachmittags|"
                         r"сутринта|следобед", re.IGNORECASE)
STATES = ("triumph_setup/standard", "triumph/menu", "triumph/waiting", "triumph/composer",
          "triumph/refused", "triumph/response", "triumph/attacker-waits",
          "triumph/instructions", "triumph/takeback", "triumph/end", "display/attack")


@pytest.mark.timeout(1200)  # 77 screens a language; a loaded 2-core machine needs minutes
@pytest.mark.parametrize("language", ["en", "de", "bg"])
def test_every_nt_screen_fits_every_size(run_scenario, language):
    report, folder = run_scenario("triumph_screen_sizes", language, timeout=1100)
    assert "error" not in report, report.get("error")
    looked = {entry.split(" ", 1)[1] for entry in report["looked"]}
    assert looked == set(STATES)
    assert len(report["looked"]) == len(STATES) * len(SIZES)
    assert report["problems"] == []
    if language != "en":  # every sentence in the tablet's language, refusals included
        assert english(report["texts"]) == []
    shown = [text for texts in report["texts"].values() for text in texts]
    assert any("7:00" in text for text in shown)  # the hour as the time track prints it
    assert [text for text in shown if TWELVE_HOUR.search(text)] == []
    if language == "en":
        keep_for_docs(folder, "*.png", prefix="nt-")
