"""Scenarios that check every text fits its widget, in each language, landscape and portrait."""

from __future__ import annotations

import random

from kivy.uix.label import Label

from companion_app.demo.local_table import LocalTable
from tests.companion_app.layout_checks import overflows, steady
from tests.companion_app.layout_checks import shown as _shown
from tests.companion_app.scenarios import _play_until_battle, _start_game, _tablets, _until

KEYS = {"red": "0412-7730-9158-2046", "blue": "5530-1187-0042-9911"}
SIZES = {"landscape": None, "portrait": (500, 800)}  # 800x1280 upright, scaled to fit the window


def _laid_out(root, screen_name: str, size) -> bool:
    """True once the tablet has the size asked for and its screen the orientation that goes with it
    (a loaded machine takes a few frames to get there)."""
    screen = root.screen_by_name[screen_name]
    if root.screens.current != screen_name or (size is not None and tuple(root.size) != size):
        return False
    layout = getattr(screen, "layout", None)
    return layout is None or layout.orientation == ("vertical" if screen.height > screen.width else "horizontal")


def text_fits(d):
    """The game, setup and referee screens in English, German and Bulgarian, both orientations."""
    table = LocalTable("classic")
    red, blue, display = _tablets(table, "red", "blue", None)
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    table.key_fingerprints = KEYS
    yield from _start_game(d, table, red, blue)
    display.connect("local", None)
    _play_until_battle(table, random.Random(5), "red")
    blue.command("draw_offer")  # Red's tablet shows the offer with Accept / Decline
    table.clocks = {"red": 300.0, "blue": 287.5, "game": 1800.0, "running": "red"}
    table.publish()
    fresh = LocalTable("classic")
    (arranging,) = _tablets(fresh, "red")
    fresh.key_fingerprints = {"red": KEYS["red"]}
    arranging.connect("local", "red")
    yield 0.3
    game = red.screen_by_name["game"]
    d.report["overflows"], d.report["checked"] = [], 0
    for orientation, size in SIZES.items():
        for language in ("en", "de", "bg"):
            for root, screen_name in ((red, "game"), (arranging, "setup"), (display, "display")):
                d.show(root, size=size)
                root.set_language(language)
                yield from _until(lambda r=root, n=screen_name, s=size: _laid_out(r, n, s),
                                  what=f"{screen_name} laid out {orientation}")
                yield from steady(root)  # the layout's next passes fit the texts
                where = f"{orientation} {language} {screen_name}:"
                screen = root.screen_by_name[screen_name]
                d.report.setdefault("screens", []).append(root.screens.current)
                d.report["overflows"] += overflows(root, where)  # the top bar and the screen shown
                d.report["checked"] += sum(1 for w in root.walk() if isinstance(w, Label) and _shown(w))
                if screen_name == "game":
                    game._confirm_resign()  # armed: "Really resign?"
                    yield 0.1
                    d.report["overflows"] += overflows(root, where)
                    d.shot(f"game-{orientation}-{language}", root)
                    game._resign_armed = False
                    game.refresh(red.state)
                else:
                    d.shot(f"{screen_name}-{orientation}-{language}", root)
                if screen_name == "display" and orientation == "portrait":
                    d.report.setdefault("display_portrait_cells", []).append(screen.board.cell)
    d.report["red_buttons_bg"] = [game.draw_button.text, game.takeback_button.text]
    # The end of the game, and the first screen of a tablet that is not connected yet.
    red.command("resign")
    newcomer = _tablets(LocalTable("classic"), "red")[0]
    yield 0.2
    for orientation, size in SIZES.items():
        for language in ("en", "de", "bg"):
            for root, screen_name in ((red, "over"), (newcomer, "connect")):
                d.show(root, size=size)
                root.set_language(language)
                yield from _until(lambda r=root, n=screen_name, s=size: _laid_out(r, n, s),
                                  what=f"{screen_name} laid out {orientation}")
                yield from steady(root)  # the layout's next passes fit the texts
                d.report["screens"].append(root.screens.current)
                d.report["overflows"] += overflows(root, f"{orientation} {language} {screen_name}:")
                if language != "en":
                    d.shot(f"{screen_name}-{orientation}-{language}", root)
    d.report["display_keys_bg"] = display.screen_by_name["display"].keys.text
    arranging.set_language("en")
    d.report["setup_key"] = arranging.screen_by_name["setup"].key_label.text
