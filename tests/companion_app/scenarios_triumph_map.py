"""The printed NT map on the real tablet and display under Xvfb: chips that never cover each
other, pinch and drag, taps on positions; the tests are in test_app_triumph_map.py."""

from __future__ import annotations

from kivy.core.window import Window

from companion_app.model.triumph_chips import overlapping
from engine.triumph.standard import standard_setup
from tests.companion_app.scenarios_triumph import _tablet
from tests.companion_app.triumph_referee import RefereeTable


def settled(screen):
    """Wait (yield from) until the screen's layout has run at the window's size (the panel's
    width follows the window); the screenshot renders the canvas itself, no frame is needed."""
    while screen.width != Window.width:
        yield 0.05
    yield 0.05


def _size(width: int, height: int):
    Window.size = (width, height)
    yield 0.1


def triumph_map_look(d):
    """Both tablets of a fresh battle at 1280x800 and 1024x600: screenshots and overlaps."""
    table = RefereeTable()
    table.start(standard_setup("french"), standard_setup("allied"))
    red, blue = _tablet(table, "red"), _tablet(table, "blue")
    for width, height in ((1280, 800), (1024, 600)):
        yield from _size(width, height)
        for name, root in (("allied", red), ("french", blue)):
            d.show(root)
            yield 0.2
            screen = root.screen_by_name["triumph"]
            yield from settled(screen)
            d.report[f"{name}-{width}-overlaps"] = overlapping(screen.map.chips)
            d.report[f"{name}-{width}-chips"] = len(screen.map.chips)
            d.shot(f"triumph-map-{name}-{width}x{height}")
