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
            d.report[f"{name}-title"] = root.top_bar.title.text
            d.report[f"{name}-lights"] = root.top_bar.status.text
            d.report[f"{name}-menu"] = [b.text for b in screen.decision_buttons]
            d.shot(f"triumph-map-{name}-{width}x{height}")


def triumph_retreat_built(d):
    """The French plan a retreat block by block on the real tablet: losses on the strongest
    block, the flag kept with it, each survivor sent by a tap on the map; the referee rules it."""
    from companion_app.model.triumph_answers import RetreatDraft
    from tests.companion_app.layout_checks import layout_problems
    from tests.companion_app.triumph_referee import to_allied_threat

    table = RefereeTable()
    table.start(standard_setup("french"), standard_setup("allied"))
    blue = _tablet(table, "blue")
    to_allied_threat(table)
    yield from _size(1024, 600)
    d.show(blue)
    screen = blue.screen_by_name["triumph"]
    yield from settled(screen)
    d.report["build_button"] = screen.build_button.text if screen.build_button else None
    d.report["shortcuts"] = len(screen.decision_buttons)
    screen.build_button.dispatch("on_release")
    yield 0.1
    draft = blue.state.triumph.draft
    assert isinstance(draft, RetreatDraft)
    d.report["highlighted"] = sorted(screen.map.highlighted)
    d.report["first_problem"] = screen.draft_problem.text
    strongest = max(draft.plan.units, key=draft.strength)
    screen.draft_buttons[strongest].dispatch("on_release")  # select it: its own buttons appear
    yield 0.1
    more = next(w for w in screen.panel.walk() if getattr(w, "text", "") == "One more step lost")
    more.dispatch("on_release")
    yield 0.1
    more = next(w for w in screen.panel.walk() if getattr(w, "text", "") == "One more step lost")
    more.dispatch("on_release")
    yield 0.1
    keep = next(w for w in screen.panel.walk() if getattr(w, "text", "") == "Keeps St. Hilaire")
    keep.dispatch("on_release")
    yield 0.1
    d.report["after_losses"] = screen.draft_problem.text
    for unit in draft.survivors():
        if draft.selected != unit:  # a second tap on the chosen block would let it go
            screen.draft_buttons[unit].dispatch("on_release")
            yield 0.05
        d.tap(screen.map, *screen.map.to_screen(*screen.map.board.regions[104].anchor))
        yield 0.05
    d.report["ready"] = screen.draft_problem.text
    d.report["send_disabled"] = screen.draft_send.disabled
    d.report["unit_buttons"] = [b.text for b in screen.draft_buttons.values()]
    d.report["problems"] = layout_problems(blue, "1024x600 retreat builder:")
    d.shot("triumph-retreat-built")
    screen.draft_send.dispatch("on_release")
    yield 0.2
    d.report["received"] = table.received[-1]
    d.report["at_104"] = sorted(u for u in draft.survivors() if str(table.game.state.units[u].at) == "R104")
    d.report["survivors"] = sorted(draft.survivors())


def triumph_map_gestures(d):
    """Zoom and drag the map with a finger; a drag is no tap, a tap after it names a locale."""
    table = RefereeTable()
    table.start(standard_setup("french"), standard_setup("allied"))
    blue = _tablet(table, "blue")
    yield from _size(1024, 600)
    d.show(blue)
    screen = blue.screen_by_name["triumph"]
    yield from settled(screen)
    themap = screen.map
    tapped: list[str] = []
    themap.on_position = tapped.append
    themap.zoom_at(2.5, *themap.center)
    d.report["zoom"] = themap.zoom
    before = themap.centre
    start = (themap.width / 2, themap.height / 2)
    d.drag(themap, start, (start[0] + 120, start[1] - 60))
    yield 0.05
    after = themap.centre
    d.report["moved"] = [round((before[0] - after[0]) * themap.scale), round((after[1] - before[1]) * themap.scale)]
    d.report["tapped_after_drag"] = list(tapped)
    d.tap(themap, *themap.to_screen(*themap.board.regions[63].anchor))
    d.report["tapped"] = list(tapped)
    d.report["faces_shown"] = themap.drawn.get("R63")
    d.shot("triumph-map-zoomed")
