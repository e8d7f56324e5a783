"""Every Stratego-family screen fits every tablet a family owns, and the demo's own windows; every
word on it is in the tablet's language.

The real app against the in-process referee, at 1024x600, 1280x800, 800x1280, 2048x1536 and the
demo's windows (on a laptop, and the narrowest, 341x520, on a Raspberry Pi's 1024x600 screen): no
text overflows its box or spills out of its layout into another, no two texts overlap, no button
is under 40 px or off the screen, and the heading over the game's messages stays where it is
whatever the messages say (a battle, the notebook, an offer). In German and Bulgarian no English
sentence shows (a refusal, a button, the top bar).
"""

from __future__ import annotations

import pytest

from tests.companion_app.conftest import scenario_runner
from tests.companion_app.layout_checks import english
from tests.companion_app.scenarios_sizes import SIZES

RUNS = {"en": [], "de": [], "bg": ["1024x600", "800x1280"]}  # Bulgarian: the sizes docs/app.md shows


@pytest.fixture(scope="module", params=list(RUNS))
def sizes_report(request, xvfb, tmp_path_factory):
    report, _ = scenario_runner(xvfb, tmp_path_factory.mktemp(f"sizes-{request.param}"))(
        "screen_sizes", request.param, *RUNS[request.param], timeout=400)
    report["language"] = request.param
    return report


def test_every_screen_at_every_size_shows_each_text_whole_and_each_button_on_screen(sizes_report):
    screens = {entry.split(" ", 1)[1] for entry in sizes_report["looked"]}
    assert screens >= {"connect/start", "pairing/squares", "pairing/code", "pairing/approval",
                       "pairing/display-code", "pairing/display-wrong", "pairing/display-refused",
                       "pairing/squares-new-referee", "pairing/squares-bad-code", "pairing/display-new-referee",
                       "setup/empty", "setup/ready", "game/start", "game/battle", "game/notebook", "game/offer", "display/battle", "over/resigned",
                       "display/over", "replay/open"}
    sizes = len(RUNS[sizes_report["language"]]) or len(SIZES)
    assert len(sizes_report["looked"]) == len(screens) * sizes
    assert sizes_report["problems"] == []


def test_the_heading_stays_put_whatever_the_messages_under_it_say(sizes_report):
    for size, states in sizes_report["headings"].items():
        assert len(states) >= 5, size
        assert len({tuple(place) for place in states.values()}) == 1, (size, states)


def test_no_english_shows_on_a_german_or_bulgarian_screen(sizes_report):
    if sizes_report["language"] == "en":
        assert any("The referee refused" in text for text in sizes_report["texts"]["game/offer"])
        texts = sizes_report["texts"]
        assert any("has a new key" in text for text in texts["pairing/squares-new-referee"])
        assert any("has a new key" in text for text in texts["pairing/display-new-referee"])
        assert any("six digits" in text for text in texts["pairing/squares-bad-code"])
        assert any("e4" in text for text in texts["pairing/squares-bad-code"])  # the squares stand
        # Typing the code is offered beside the squares, and asked for once when it is the challenge.
        assert any("No board attached?" in text for text in texts["pairing/squares"])
        assert not any("No board attached?" in text for text in texts["pairing/code"])
        return
    assert english(sizes_report["texts"]) == []


@pytest.mark.parametrize("language", ["en", "de", "bg"])
def test_the_demos_board_window_fits_and_its_board_never_jumps(xvfb, tmp_path, language):
    report, _ = scenario_runner(xvfb, tmp_path)("board_window_sizes", language, timeout=200)
    assert report["problems"] == []
    assert report["cut_statuses"] == []  # the whole status shows, the display's code on its last line
    for screen, places in report["boards"].items():
        assert len({tuple(place) for place in places}) == 1, (screen, places)
        statuses = report["statuses"][screen]
        assert f"[b]{report['code']}[/b]" in statuses[1]  # the display's code, in any language
        # A tablet's own name is its words, not markup, and on its one line.
        assert "(x &bl;b&br;000000&bl;/b&br; typ…)" in statuses[1]
        assert "[b]000000" not in statuses[1]
        assert not any(line.startswith("type the code") for line in statuses[1].splitlines())
        if language == "en":
            assert f"type the code [b]{report['code']}[/b]" in statuses[1]
            assert "Drag off the board the tokens on [b]a1, " in statuses[2]
    if language != "en":  # the window speaks the demo's language (make run LANG_UI=de)
        shown = [report["title"], report["button"], *sum(report["statuses"].values(), [])]
        assert english({"board window": shown}) == []
        assert {"de": "Brett", "bg": "дъска"}[language] in report["title"]
