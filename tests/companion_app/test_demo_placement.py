"""The demo's windows fit a laptop: on 1366x768 and 1920x1080 every window is on the screen, none covers another."""

from __future__ import annotations

from itertools import combinations

import pytest

from companion_app.demo.placement import Place, screen_size, stratego_places, triumph_places

SCREENS = [(1366, 768), (1920, 1080)]


def assert_laid_side_by_side(places: dict[str, Place], screen: tuple[int, int]) -> None:
    for name, place in places.items():
        assert place.inside(screen), (name, place)
        assert place.width >= 300 and place.height >= 190, (name, place)
    for (first, a), (second, b) in combinations(places.items(), 2):
        assert not a.overlaps(b), (first, a, second, b)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("seats", [["red", "blue"], ["red"], ["blue"]])  # two people; the computer plays one
def test_the_board_the_tablets_and_the_display_lie_side_by_side(screen, seats):
    places = stratego_places(screen, seats)
    assert set(places) == {"board", "display", *seats}
    assert_laid_side_by_side(places, screen)


@pytest.mark.parametrize("screen", SCREENS)
def test_napoleons_triumph_codes_display_and_tablets_lie_side_by_side(screen):
    places = triumph_places(screen)
    assert set(places) == {"codes", "display", "red", "blue"}
    assert_laid_side_by_side(places, screen)


def test_overlapping_windows_are_seen():
    assert Place(0, 32, 500, 300).overlaps(Place(400, 100, 300, 300))
    assert not Place(0, 32, 500, 300).overlaps(Place(500, 32, 300, 300))
    assert Place(0, 32, 500, 300).overlaps(Place(0, 340, 500, 300))  # the title bar of the lower one


def test_the_screen_size_can_be_given(monkeypatch):
    monkeypatch.setenv("ARBITER_SCREEN", "1366x768")
    assert screen_size() == (1366, 768)
