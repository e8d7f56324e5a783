"""Scenarios that check every text fits its widget, in each language, landscape and portrait."""

from __future__ import annotations

import random
import re

from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from companion_app.demo.local_table import LocalTable
from tests.companion_app.scenarios import _play_until_battle, _start_game, _tablets, _until

KEYS = {"red": "0412-7730-9158-2046", "blue": "5530-1187-0042-9911"}
SIZES = {"landscape": None, "portrait": (500, 800)}  # 800x1280 upright, scaled to fit the window
MARKUP = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")


def _shown(widget) -> bool:
    while widget is not None:
        if widget.opacity == 0 or widget.width <= 0 or widget.height <= 0:
            return False
        widget = widget.parent if widget.parent is not widget else None
    return True


def _natural_size(label: Label) -> tuple[float, float]:
    """The rendered texture's size with no wrapping box: the text on as many lines as it has."""
    box = label.text_size
    label.text_size = (None, None)
    label.texture_update()
    size = tuple(label.texture_size)
    label.text_size = box
    label.texture_update()
    return size


def _widest_word(label: Label) -> float:
    core = CoreLabel(font_size=label.font_size, bold=label.bold, font_name=label.font_name)
    words = MARKUP.sub("", label.text).split()
    return max((core.get_extents(word)[0] for word in words), default=0)


def overflows(screen, where: str) -> list[str]:
    """Every shown label or button whose rendered text is wider or taller than the widget itself."""
    found = []
    for widget in screen.walk():
        if isinstance(widget, TextInput) and widget.hint_text and not widget.text and _shown(widget):
            core = CoreLabel(font_size=widget.font_size, font_name=widget.font_name)
            room = widget.width - widget.padding[0] - widget.padding[2]
            if core.get_extents(widget.hint_text)[0] > room + 1:
                found.append(f"{where} TextInput hint {widget.hint_text!r}: wider than {room:.0f}px")
        if not isinstance(widget, Label) or not widget.text.strip() or not _shown(widget):
            continue
        room = widget.width - widget.padding[0] - widget.padding[2]
        width, _ = _natural_size(widget)
        name = f"{where} {type(widget).__name__} {widget.text!r}"
        if width <= room + 1:
            continue
        # Too long for one line: it may wrap, but no word may be cut and no line may hang out.
        widget.texture_update()
        if widget.text_size[0] is None:
            found.append(f"{name}: {width:.0f}px of text on one line in {room:.0f}px")
        elif _widest_word(widget) > room + 1:
            found.append(f"{name}: a word is wider than the widget ({room:.0f}px)")
        elif widget.texture_size[1] > widget.height + 1:
            found.append(f"{name}: {widget.texture_size[1]:.0f}px of lines in {widget.height:.0f}px")
    return found


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
                yield 0.3  # the layout's next passes fit the texts
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
                yield 0.3  # the layout's next passes fit the texts
                d.report["screens"].append(root.screens.current)
                d.report["overflows"] += overflows(root, f"{orientation} {language} {screen_name}:")
                if language != "en":
                    d.shot(f"{screen_name}-{orientation}-{language}", root)
    d.report["display_keys_bg"] = display.screen_by_name["display"].keys.text
    arranging.set_language("en")
    d.report["setup_key"] = arranging.screen_by_name["setup"].key_label.text
