"""The demo's windows fit the screen: on a laptop of 1366x768 or 1920x1080 every window is on the
screen and none covers another; on a Raspberry Pi's touch screen (1024x600, 800x480) they overlap
but stay on the screen, each with part of its title bar in sight to click."""

from __future__ import annotations

from itertools import combinations

import pytest

from companion_app.demo.placement import (
    TITLE_BAR,
    Place,
    screen_size,
    stratego_places,
    triumph_places,
)

SCREENS = [(1366, 768), (1920, 1080)]
SMALL_SCREENS = [(1024, 600), (800, 480)]
SEATINGS = [["red", "blue"], ["red"], ["blue"]]  # two people; the computer plays one


def assert_laid_side_by_side(places: dict[str, Place], screen: tuple[int, int]) -> None:
    for name, place in places.items():
        assert place.inside(screen), (name, place)
        assert place.width >= 300 and place.height >= 190, (name, place)
    for (first, a), (second, b) in combinations(places.items(), 2):
        assert not a.overlaps(b), (first, a, second, b)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("seats", SEATINGS)
def test_the_board_the_tablets_and_the_display_lie_side_by_side(screen, seats):
    places = stratego_places(screen, seats)
    assert set(places) == {"board", "display", *seats}
    assert_laid_side_by_side(places, screen)


@pytest.mark.parametrize("screen", SCREENS)
def test_napoleons_triumph_codes_display_and_tablets_lie_side_by_side(screen):
    places = triumph_places(screen)
    assert set(places) == {"codes", "display", "red", "blue"}
    assert_laid_side_by_side(places, screen)


def assert_fanned_on(places: dict[str, Place], screen: tuple[int, int]) -> None:
    for name, place in places.items():
        assert place.inside(screen), (name, place)
        assert place.width >= 300 and place.height >= 160, (name, place)
        # Fanned like cards, each window may lie under those to its right: the left end of its
        # title bar must still show.
        title_bar = set(range(place.x, place.x + place.width))
        for other in places.values():
            if other.x > place.x and other.y - TITLE_BAR <= place.y - TITLE_BAR < other.y + other.height:
                title_bar -= set(range(other.x, other.x + other.width))
        assert len(title_bar) >= 100, (name, place, "title bar hidden by the windows to its right")


@pytest.mark.parametrize("screen", SMALL_SCREENS)
@pytest.mark.parametrize("seats", SEATINGS)
def test_on_a_small_screen_the_windows_fan_out_and_stay_on_it(screen, seats):
    assert_fanned_on(stratego_places(screen, seats), screen)


@pytest.mark.parametrize("screen", SMALL_SCREENS)
def test_on_a_small_screen_napoleons_triumph_windows_fan_out_and_stay_on_it(screen):
    assert_fanned_on(triumph_places(screen), screen)


def test_three_columns_still_lie_side_by_side_on_a_raspberry_pi_screen():
    """One tablet and the display beside the board (the computer plays the other seat), or
    Napoleon's Triumph's three columns: on 1024x600 each is 341 wide and none covers another."""
    for places in (stratego_places((1024, 600), ["red"]), triumph_places((1024, 600))):
        assert_laid_side_by_side(places, (1024, 600))


def test_overlapping_windows_are_seen():
    assert Place(0, 32, 500, 300).overlaps(Place(400, 100, 300, 300))
    assert not Place(0, 32, 500, 300).overlaps(Place(500, 32, 300, 300))
    assert Place(0, 32, 500, 300).overlaps(Place(0, 340, 500, 300))  # the title bar of the lower one


def test_the_screen_size_can_be_given(monkeypatch):
    monkeypatch.setenv("ARBITER_SCREEN", "1366x768")
    assert screen_size() == (1366, 768)
