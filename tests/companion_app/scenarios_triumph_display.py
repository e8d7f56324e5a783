"""Napoleon's Triumph on the referee display: the public view of a real game, an attack in it.

Run by kivy_runner under Xvfb; the checks live in test_app_triumph_display.py.
"""

from __future__ import annotations

from companion_app.model.table import TableState
from companion_app.ui.app_root import TabletRoot
from tests.companion_app.triumph_games import (
    demoralised_allies,
    feint_on_94,
    opening_with_an_attack,
)


def _frames(count: int = 3):
    """Yield until Kivy has drawn `count` more frames (labels render their new text then)."""
    from kivy.clock import Clock

    until = Clock.frames_displayed + count
    while Clock.frames_displayed < until:
        yield 0.02


def _display() -> TabletRoot:
    """A referee display holding the public state (no link: the scenario delivers messages)."""
    root = TabletRoot()
    root.state = TableState(seat=None, phase="game", variant="napoleons-triumph")
    return root


def triumph_display(d):
    """The public view of a real game on the display, in English then German."""
    game, views = opening_with_an_attack()
    display = _display()
    d.show(display)
    display.deliver("connection", {"referee": "online", "red": "online", "blue": "online"})
    # before the first view: the public state names the game, the French set-up is in
    screen = display.screen_by_name["display"]
    display.state.phase = "setup"
    display.deliver("setup_status", {"status": {"blue": "ready"}})
    yield from _frames()
    panel = getattr(screen, "triumph", None)
    d.report["before_view"] = {
        "nt_panel": panel is not None and panel.parent is screen,
        "board": screen.layout.parent is screen,
        "turn": panel.turn.text if panel else "", "waiting": panel.waiting.text if panel else "",
        # the locale numbers are drawn; a block chip is "side:text", a flag "flag:<name>"
        "chips": [key for key, said in (panel.map.drawn if panel else {}).items()
                  if key.startswith("flag:") or said.startswith(("french:", "allied:"))],
        "numbers": sum(1 for said in (panel.map.drawn if panel else {}).values() if said.isdigit())}
    d.shot("triumph-display-before")
    display.state.phase = "game"
    # the threat: the Allies must answer
    threat_view = views[5]
    display.deliver("view", threat_view)
    yield from _frames()
    screen = display.screen_by_name["display"]
    panel = screen.triumph
    d.report["screen"] = display.screens.current
    d.report["waiting_at_threat"] = panel.waiting.text
    # the attack, its leaders revealed: the Allies decide whether to counter-attack
    display.deliver("view", views[-1])
    display.deliver("clocks", {"red": 1500.0, "blue": 1380.0, "running": "red"})
    yield from _frames()
    d.report["awaiting"] = views[-1]["awaiting"]
    d.report["turn"] = panel.turn.text
    d.report["waiting"] = panel.waiting.text
    d.report["morale"] = panel.morale.text
    d.report["commands"] = panel.commands.text
    d.report["attack"] = panel.attack.text
    d.report["clocks"] = panel.clocks.text
    d.report["drawn"] = dict(panel.map.drawn)
    # zoomed in (as two fingers would), the chips also list the faces the public may see
    panel.map.zoom_at(3.0, *panel.map.center)
    d.report["drawn_zoomed"] = dict(panel.map.drawn)
    d.report["zoom"] = panel.map.zoom
    panel.map.reset_view()
    d.report["public_faces"] = {u["at"]: [] for u in views[-1]["units"] if "face" in u}
    for unit in views[-1]["units"]:
        if "face" in unit:
            d.report["public_faces"][unit["at"]].append(unit["face"])
    d.report["track"] = [panel.track.hour, panel.track.side]
    d.report["map_inside"] = _inside(panel.map, display)
    d.shot("triumph-display")
    import time  # a figure for docs, never asserted

    start = time.perf_counter()
    for _ in range(10):
        panel.map.redraw()
    d.report["redraw_ms"] = (time.perf_counter() - start) * 100
    # taps on the map name positions; highlighted approaches can be tapped too
    tapped: list[str] = []
    panel.map.on_position = tapped.append
    panel.map.highlight(["R95", "93>94"])
    for position in ("R94", "R63", "93>94"):
        x, y = panel.map.to_screen(*panel.map.board.point(position))
        d.tap(panel.map, x, y)
    d.report["tapped"] = tapped
    panel.map.highlight([])
    display.set_language("de")
    yield from _frames()
    d.report["de"] = {"turn": panel.turn.text, "waiting": panel.waiting.text,
                      "attack": panel.attack.text}
    d.shot("triumph-display-de")
    display.set_language("bg")
    yield from _frames()
    d.report["bg"] = {"turn": panel.turn.text, "waiting": panel.waiting.text}
    d.shot("triumph-display-bg")
    display.set_language("en")
    # a feint: the approach it came by is closed for the turn
    display.deliver("view", feint_on_94().view(None).to_dict())
    yield from _frames()
    d.report["feint"] = {"closed": panel.map.drawn.get("closed:93>94"),
                         "waiting": panel.waiting.text}
    d.shot("triumph-display-feint")
    # the end: the Allies demoralised
    display.deliver("view", demoralised_allies().view(None).to_dict())
    yield from _frames()
    d.report["over"] = {"result": panel.result.text, "turn": panel.turn.text, "waiting": panel.waiting.text,
                        "stormed": panel.map.drawn.get("stormed:108")}
    d.shot("triumph-display-over")
    # a Stratego view afterwards gives the display its board back
    display.state = TableState(seat=None, phase="game")
    display.refresh()
    yield from _frames(1)
    d.report["board_back"] = screen.layout.parent is screen and panel.parent is None


def _inside(widget, root) -> bool:
    """True when the widget lies within the window's stage."""
    x, y = widget.to_window(*widget.pos)
    return x >= 0 and y >= 0 and x + widget.width <= root.width + 1 and \
        y + widget.height <= root.height + 1
