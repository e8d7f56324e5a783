"""Every button and label shows its whole text, in English, German and Bulgarian, on both tablet sizes."""

from __future__ import annotations


def test_every_text_fits_its_widget_in_each_language_and_orientation(run_scenario):
    report, _ = run_scenario("text_fits")
    assert report["screens"] == ["game", "setup", "display"] * 6
    assert report["checked"] > 18 * 8  # shown labels and buttons over the 18 screens
    assert report["overflows"] == []
    assert report["red_buttons_bg"] == ["Предложи реми", "Върни хода?"]  # not shortened: shrunk to fit
