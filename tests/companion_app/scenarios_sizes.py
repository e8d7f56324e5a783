"""Every Stratego-family screen at the sizes of the tablets families own, checked by layout_checks.

The real app against the in-process referee (LocalTable): the set-up, pairing (a seat's and the
referee display's) and connect screens, the game (a battle, the notebook, an offer with a
refusal, the computer's move), the end, the replay panel, the referee display and the demo's
board window.
"""

from __future__ import annotations

import random
from dataclasses import astuple

from companion_app.demo.local_table import LocalTable
from companion_app.demo.placement import stratego_places
from engine import Square
from tests.companion_app.layout_checks import box, layout_problems, shown_texts, steady
from tests.companion_app.scenarios import _play_until_battle, _start_game, _tablets, _until

# 7-inch, 10-inch, 10-inch upright, a large iPad, and the demo's own windows.
LAPTOP = (1366, 768)  # the demo's windows side by side on the smallest screen that holds them
PI_SCREEN = (1024, 600)  # ... and squeezed on a Raspberry Pi's touch screen (demo/placement.py)
SIZES = {"1024x600": (1024, 600), "1280x800": (1280, 800), "800x1280": (800, 1280),
         "2048x1536": (2048, 1536),
         "demo": astuple(stratego_places(LAPTOP, ["red", "blue"])["red"])[2:],  # two tablets stacked
         "demo-upright": astuple(stratego_places(LAPTOP, ["red"])["red"])[2:],  # one, and the display
         "demo-small": astuple(stratego_places(PI_SCREEN, ["red"])["red"])[2:]}  # the narrowest
SHOTS = ("1024x600", "800x1280")  # the sizes docs/app.md shows


def _settled(root, screen_name: str, size) -> bool:
    """True once the screen has the size asked for and its layout the orientation that goes with it
    (each takes a frame or more to follow the one before on a loaded machine)."""
    screen = root.screen_by_name[screen_name]
    if root.screens.current != screen_name or tuple(root.size) != tuple(size):
        return False
    if abs(screen.width - size[0]) > 1 or abs(screen.height - (size[1] - root.top_bar.height)) > 1:
        return False
    layout = getattr(screen, "layout", None)
    upright = screen.height > screen.width
    return layout is None or (layout.orientation == ("vertical" if upright else "horizontal")
                              and tuple(layout.size) == tuple(screen.size))


def _look(d, root, screen_name: str, state: str, sizes, language: str = "en", shots=SHOTS):
    """Show `root` at each size; collect what layout_checks finds and the heading's place."""
    for size_name in sizes:
        size = SIZES[size_name]
        d.show(root, size=size)
        if root.tr.language != language:
            root.set_language(language)
        root.refresh()
        yield from _until(lambda s=size: _settled(root, screen_name, s), what=f"{screen_name} at {size_name}")
        yield from steady(root)  # the layout's next passes fit the texts
        where = f"{size_name} {language} {screen_name}/{state}:"
        d.report["problems"] += layout_problems(root, where)
        d.report["looked"].append(f"{size_name} {screen_name}/{state}")
        d.report["texts"].setdefault(f"{screen_name}/{state}", sorted(set(shown_texts(root))))
        heading = getattr(root.screen_by_name[screen_name], "turn_label", None)
        if heading is not None:
            d.report["headings"].setdefault(f"{size_name} {language}", {})[state] = box(heading)
        if size_name in shots:
            d.shot(f"{screen_name}-{state}-{size_name}-{language}", root)


def screen_sizes(d):
    """Every screen in one language (the first argument), at each size or those named after it."""
    d.report.update(problems=[], looked=[], headings={}, texts={})
    languages = d.args[:1] or ["en"]
    sizes = d.args[1:] or list(SIZES)
    # The first screen: no board chosen yet.
    newcomer = _tablets(LocalTable("classic"), "red")[0]
    for language in languages:
        yield from _look(d, newcomer, "connect", "start", sizes, language)
    # Pairing: the two squares the tablet chose, the code the console shows, the holder's approval.
    pairing_table = LocalTable("classic")
    (pairing,) = _tablets(pairing_table, "red")
    pairing.connect("local", "red")
    yield 0.2
    pairing.state.my_fingerprint = "0412-7730-9158-2046"
    for state, challenge in (("squares", {"status": "challenge", "method": "squares", "squares": ["e4", "h3"]}),
                             ("code", {"status": "challenge", "method": "code"}),
                             ("approval", {"status": "challenge", "method": "approval",
                                           "fingerprint": "0412-7730-9158-2046"})):
        pairing.state.phase, pairing.state.pairing = "pairing", challenge
        for language in languages:
            yield from _look(d, pairing, "pairing", state, sizes, language)
    # Asked again by a new referee (its key changed), and a code that is not six digits.
    pairing.state.referee_new = True
    pairing.state.pairing = {"squares": ["e4", "h3"], "method": "squares", "fingerprint": None}
    for language in languages:
        yield from _look(d, pairing, "pairing", "squares-new-referee", sizes, language)
    pairing.state.referee_new = False
    pairing.state.pairing = {**pairing.state.pairing, "status": "refused", "bad_code": True}
    for language in languages:
        yield from _look(d, pairing, "pairing", "squares-bad-code", sizes, language)
    # The referee display's pairing: the console's code; a wrong code; the longest refusal.
    (asking,) = _tablets(pairing_table, None)
    asking.connect("local", None)
    yield 0.2
    refused = {"message": "...", "seat": "display", "method": "code", "bad_code": False}
    for state, challenge in (("display-code", {"squares": None, "method": "code", "fingerprint": None}),
                             ("display-wrong", {**refused, "reason": "wrong-code", "data": {"tries_left": 2}}),
                             ("display-refused", {**refused, "reason": "busy", "data": {}})):
        asking.state.phase, asking.state.pairing = "pairing", challenge
        for language in languages:
            yield from _look(d, asking, "pairing", state, sizes, language)
    asking.state.referee_new = True
    asking.state.pairing = {"squares": None, "method": "code", "fingerprint": None}
    for language in languages:
        yield from _look(d, asking, "pairing", "display-new-referee", sizes, language)
    # Set-up, with the tray full and with an army ready.
    table = LocalTable("classic")
    (arranging,) = _tablets(table, "red")
    table.key_fingerprints = {"red": "0412-7730-9158-2046"}
    arranging.connect("local", "red")
    yield 0.2
    for language in languages:
        yield from _look(d, arranging, "setup", "empty", sizes, language)
    arranging.screen_by_name["setup"].randomize()
    for language in languages:
        yield from _look(d, arranging, "setup", "ready", sizes, language)
    # The game: plain, after a battle, with the notebook, with an offer and a refusal.
    table = LocalTable("classic")
    red, blue, display = _tablets(table, "red", "blue", None)
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    yield from _start_game(d, table, red, blue)
    display.connect("local", None)
    table.clocks = {"red": 300.0, "blue": 287.5, "game": 1800.0, "running": "red"}
    table.publish()
    yield 0.2
    for language in languages:
        yield from _look(d, red, "game", "start", sizes, language)
    _play_until_battle(table, random.Random(5), "red")
    table.publish()
    yield 0.2
    d.report["battle_text"] = red.screen_by_name["game"].message.text
    for language in languages:
        yield from _look(d, red, "game", "battle", sizes, language)
        yield from _look(d, blue, "game", "battle-blue", sizes, language)
        yield from _look(d, display, "display", "battle", sizes, language)
    red.state.notebook_allowed = True
    red.state.notebook_open = True
    for language in languages:
        yield from _look(d, red, "game", "notebook", sizes, language)
    red.state.notebook_open = False
    blue.command("draw_offer")
    red.command("move", {"move": "a1-a9"})  # refused: shown in red under the offer
    table.play(next(f"{sq.name}-{sq.name[0]}{int(sq.name[1:]) + 1}" for sq, piece in table.game.pieces()
                    if piece.color.value == "red" and piece.kind == "bomb"))  # refused on the board
    yield 0.2
    for language in languages:
        yield from _look(d, red, "game", "offer", sizes, language)
    red.screen_by_name["game"]._confirm_resign()
    red.command("resign")
    yield 0.2
    for language in languages:
        yield from _look(d, red, "over", "resigned", sizes, language)
        yield from _look(d, display, "display", "over", sizes, language)
    red.toggle_replay()
    for language in languages:
        yield from _look(d, red, "replay", "open", sizes, language)


def _text_height(label) -> float:
    """The height `label`'s whole text takes at its width and font size, however tall its box."""
    from kivy.core.text.markup import MarkupLabel

    measure = MarkupLabel(text=label.text, font_size=label.font_size, font_name=label.font_name,
                          text_size=(label.width, None), halign=label.halign, padding=label.padding)
    measure.refresh()
    return measure.content_size[1]


def board_window_sizes(d):
    """The demo's board window on a laptop (1366x768) and a large screen (1920x1080): its texts
    fit, and the board stays put while the status under it changes length."""
    from companion_app.demo.board_window import BoardWindow
    from companion_app.demo.placement import stratego_places
    from companion_app.demo.system import DemoSystem
    from companion_app.i18n.catalog import Translator
    from firmware_bridge.protocol.client import SeatClient
    from firmware_bridge.protocol.public_client import DisplayClient

    language = d.args[0] if d.args else "en"
    system = DemoSystem()
    system.start()
    d.on_finish = system.stop
    window = BoardWindow(system, Translator(language))
    d.report.update(problems=[], boards={}, statuses={}, cut_statuses=[],
                    title=window.title.text, button=window.place_button.text)
    for screen in ((1366, 768), (1920, 1080)):
        place = stratego_places(screen, ["red", "blue"])["board"]
        name = f"{screen[0]}x{screen[1]}"
        for state in ("empty", "pairing", "fix"):
            if state == "pairing" and "code" not in d.report:
                # Both tablets and the display ask at once, as when a newcomer starts the demo:
                # two requests by squares, and the display's code on the last line.
                tablets = [SeatClient(system.broker.url, system.board_name) for _ in ("red", "blue")]
                asking = DisplayClient(system.broker.url, system.board_name)
                for client in (*tablets, asking):
                    assert client.start()
                d.on_finish = lambda clients=(*tablets, asking): ([c.stop() for c in clients], system.stop())
                # A stranger names its tablet to pass for the console's own words: shown as written.
                tablets[1].name = "x [b]000000[/b]\ntype the code"
                for tablet, seat in zip(tablets, ("red", "blue"), strict=True):
                    tablet.pair(seat)
                yield from _until(lambda: len(system.referee.desk.pending) == 2, what="the tablets' requests")
                asking.pair()
                yield from _until(lambda: any(r.code for r in system.referee.desk.pending.values()),
                                  what="the display's pairing request")
                d.report["code"] = next(r.code for r in system.referee.desk.pending.values() if r.code)
            if state == "fix":  # tokens where the game has none: the window says to take them off
                for square in ("a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"):
                    if Square.parse(square) not in system.board.occupied():
                        system.board.place(Square.parse(square))
                yield from _until(lambda: bool((system.referee.board_check() or {}).get("clear")),
                                  what="the referee to see the tokens")
            window.refresh()
            d.show(window, size=(place.width, place.height))
            yield from _until(lambda p=place: tuple(window.size) == (p.width, p.height), what="board window")
            yield from steady(window)
            d.report["problems"] += layout_problems(window, f"{name} board/{state}:")
            d.report["boards"].setdefault(name, []).append(list(box(window.board)))
            d.report["statuses"].setdefault(name, []).append(window.status.text)
            if _text_height(window.status) > window.status.height:  # its box clips what overflows
                d.report["cut_statuses"].append(f"{name} {state}")
            if name == "1366x768":
                d.shot(f"board-window-{state}-{name}-{language}", window)
    window.stop()
