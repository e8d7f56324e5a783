"""Napoleon's Triumph on the referee display: the public view of a real game, an attack in it.

Run by kivy_runner under Xvfb; the checks live in test_app_triumph_display.py.
"""

from __future__ import annotations

from typing import Any

from companion_app.model.table import TableState
from companion_app.ui.app_root import TabletRoot
from engine.triumph.game import TriumphGame
from tests.engine.triumph.setups import allied_setup, french_setup


def _choose(game: TriumphGame, wanted) -> None:
    """Push the first legal action whose record form `wanted` accepts."""
    for action in game.legal_actions():
        if wanted(action.to_dict()):
            game.push(action)
            return
    raise AssertionError(f"no such action while waiting for {game.awaiting()}")


def opening_with_an_attack() -> tuple[TriumphGame, list[dict[str, Any]]]:
    """7:00 AM from both standard set-ups: the Allies march Langeron to 94 and Bagration to 66,
    the French move Murat to 62 and St. Hilaire attacks 94 from 93 across the wide border.
    Returns the game at the counter-attack step and the public views on the way."""
    game = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="display")
    views = [game.view(None).to_dict()]
    steps = [
        lambda a: a["type"] == "corps_move" and a["commander"] == "Langeron" and a["to"] == "R94",
        lambda a: a["type"] == "corps_move" and a["commander"] == "Bagration" and a["to"] == "R66",
        lambda a: a["type"] == "end_turn",
        lambda a: a["type"] == "corps_move" and a["commander"] == "Murat" and a["to"] == "R62",
        lambda a: a["type"] == "threat" and a["from"] == 93 and a["into"] == 94,
        lambda a: a["type"] == "defend" and len(a["units"]) == 5,
        lambda a: a["type"] == "press",
        lambda a: a["type"] == "defence_leaders" and a["units"] == ["a-lang-0"],
        lambda a: a["type"] == "attack" and a["wide"] and a["leaders"] == ["f-st. -0", "f-st. -1"],
    ]
    for wanted in steps:
        _choose(game, wanted)
        views.append(game.view(None).to_dict())
    return game, views


def demoralised_allies() -> TriumphGame:
    """A small position (the rulebook's attack from 95 into 108) where the Allies, at morale 2,
    lose the attack and with it the game."""
    from tests.engine.triumph.helpers import act, game, play, unit

    g = game([unit("l1", "french", "I3", "R95", "Lannes"), unit("l2", "french", "I2", "R95", "Lannes"),
              unit("l3", "french", "C2", "R95", "Lannes"),
              unit("p1", "allied", "I2", "R108", "Prebyshevsky"),
              unit("p2", "allied", "I2", "R108", "Prebyshevsky"),
              unit("p3", "allied", "C2", "R108", "Prebyshevsky")],
             {"Lannes": "R95", "Prebyshevsky": "R108"}, morale={"french": 23, "allied": 2})
    lannes = [{"type": "corps_move", "commander": "Lannes", "units": ["l1", "l2", "l3"]}]
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2"]), act("french", "press"),
         act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=lannes, leaders=["l1"]),
         act("allied", "counter_attack", units=[]),
         act("allied", "retreat", losses={}, to={"p2": 96, "p3": 106},
             keep={"Prebyshevsky": "p2"}))
    return g


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
    d.report["public_faces"] = {u["at"]: [] for u in views[-1]["units"] if "face" in u}
    for unit in views[-1]["units"]:
        if "face" in unit:
            d.report["public_faces"][unit["at"]].append(unit["face"])
    d.report["track"] = [panel.track.hour, panel.track.side]
    d.report["map_inside"] = _inside(panel.map, display)
    d.shot("triumph-display")
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
