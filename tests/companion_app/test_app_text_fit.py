"""Every button and label shows its whole text, in English, German and Bulgarian, on both tablet sizes."""

from __future__ import annotations

import pytest

from tests.companion_app.conftest import scenario_runner


@pytest.fixture(scope="module")
def text_fits(xvfb, tmp_path_factory):
    """One run of the scenario serves both tests (it takes some 12 s)."""
    report, _ = scenario_runner(xvfb, tmp_path_factory.mktemp("fit"))("text_fits")
    return report


def test_every_text_fits_its_widget_in_each_language_and_orientation(text_fits):
    report = text_fits
    assert report["screens"] == ["game", "setup", "display"] * 6 + ["over", "connect"] * 6
    assert report["checked"] > 18 * 8  # shown labels and buttons over the 18 screens
    assert report["overflows"] == []
    # Upright, the referee display still leaves the board room (empty texts take none).
    assert min(report["display_portrait_cells"]) >= 18  # under 5 when empty texts held room
    assert report["red_buttons_bg"] == ["Предложете реми", "Връщане на хода?"]  # not shortened: shrunk to fit


def test_tablet_shows_its_key_and_the_display_each_seats_key_to_compare(text_fits):
    report = text_fits
    assert report["setup_key"] == ("Your key: 0412-7730-9158-2046. The referee display must show the same "
                                   "number for your seat.")
    lines = report["display_keys_bg"].split("\n")
    assert lines[0].startswith("Сравнете „ключа“ на всеки таблет")
    assert lines[1:] == ["Червени: 0412-7730-9158-2046", "Сини: 5530-1187-0042-9911"]
