"""Napoleon's Triumph on the real tablets under Xvfb, fed by a real TriumphGame through the
contract adapter (tests/companion_app/triumph_referee.py); the tests are in test_app_triumph.py.
"""

from __future__ import annotations

from companion_app.demo.local_table import LocalLink
from companion_app.ui.app_root import TabletRoot
from engine.triumph.standard import standard_setup
from tests.companion_app.triumph_referee import (
    RefereeTable,
    finish_attack,
    to_allied_threat,
)


def _tablet(table: RefereeTable, seat: str, language: str = "en") -> TabletRoot:
    root = TabletRoot(lambda address, s: LocalLink(table, s))
    root.set_language(language)
    root.connect("local", seat)
    return root


def drawn(frames: int = 4):
    """Wait (yield from) until the window has drawn a few more frames: under software GL a
    panel rebuilt with many buttons takes several hundred milliseconds to appear. Each wait asks
    for a frame: Kivy draws only when something changed, and a screen already drawn (a fast run)
    would otherwise never flip again, and the wait never end."""
    from kivy.core.window import Window

    count = [0]

    def flip(*_):
        count[0] += 1

    Window.bind(on_flip=flip)
    while count[0] < frames:
        Window.canvas.ask_update()
        yield 0.05
    Window.unbind(on_flip=flip)


def _texts(screen) -> list[str]:
    return [w.text for w in screen.side.walk() if hasattr(w, "text") and w.text]


def triumph_setup(d):
    """The French set-up: the standard army, a unit detached, a refusal, then acceptance."""
    table = RefereeTable()
    blue = _tablet(table, "blue")
    d.show(blue)
    yield 0.3
    screen = blue.screen_by_name["triumph_setup"]
    d.report["screen"] = blue.screens.current
    d.report["corps_units"] = {name: len(units) for name, units in screen.draft.corps()}
    d.report["problem_start"] = screen.draft.problem()
    yield from drawn()
    d.shot("triumph-setup")
    # Move an Infantry 2 of Legrand (3 units, the least) to St. Hilaire: the corps is too small.
    legrand = [u["id"] for u in screen.draft.units if u.get("commander") == "Legrand"]
    screen._select(legrand[0])
    yield 0.1
    screen._to_corps("St. Hilaire")
    yield 0.1
    d.report["problem_small"] = screen.draft.problem()
    d.report["submit_disabled"] = screen.submit_button.disabled
    d.report["texts_small"] = _texts(screen)
    # Sent anyway (the referee is the judge): refused with the engine's message.
    screen.submit()
    yield 0.2
    d.report["refused_texts"] = _texts(screen)
    d.report["setup_errors"] = list(blue.state.setup_errors)
    yield from drawn()
    d.shot("triumph-setup-refused")
    screen.standard()
    # Detach an Infantry 2 of Vandamme to 62 (a French detachment).
    vandamme = [u["id"] for u in screen.draft.units if u.get("commander") == "Vandamme"]
    screen._select(vandamme[-2])
    yield 0.1
    yield from drawn()
    d.shot("triumph-setup-selected")
    screen.position_input.text = "R73"
    screen._detach()
    yield 0.1
    d.report["detached"] = screen.draft.unit(vandamme[-2])
    d.report["problem_detached"] = screen.draft.problem()
    screen.standard()
    screen.submit()
    yield 0.2
    d.report["after_submit"] = blue.screens.current
    d.report["accepted_texts"] = _texts(screen)
    d.report["sent"] = table.received[-1][2]["setup"] == standard_setup("french")
    yield from drawn()
    d.shot("triumph-setup-waiting")


def _both(d, language: str = "en"):
    table = RefereeTable()
    table.start(standard_setup("french"), standard_setup("allied"))
    red, blue = _tablet(table, "red", language), _tablet(table, "blue", language)
    return table, red, blue


def triumph_command(d):
    """The Allied command menu: Bagration's corps, one unit left behind, a destination chosen."""
    table, red, blue = _both(d)
    d.show(red)
    yield 0.3
    screen = red.screen_by_name["triumph"]
    d.report["screens"] = [red.screens.current, blue.screens.current]
    d.report["menu"] = [b.text for b in screen.decision_buttons]
    d.report["headline"] = screen.headline
    yield from drawn()
    d.shot("triumph-menu")
    menu = red.state.triumph.menu()
    index = next(i for i, e in enumerate(menu) if e["type"] == "corps_move"
                 and e["commander"] == "Bagration")
    screen.pick(index)
    yield 0.1
    entry = menu[index]
    screen.toggle(entry["units"][-1])  # leave the last one behind
    yield 0.1
    x, y = screen.map.to_screen(*screen.map.board.point("R66"))
    d.tap(screen.map, x, y)  # a finger on locale 66 of the map chooses its reserve
    yield 0.1
    d.report["composed"] = red.state.triumph.command.action()
    d.report["highlighted"] = list(screen.map.highlighted)
    d.report["unit_buttons"] = [b.text for b in screen.unit_buttons.values()]
    d.report["destination_buttons"] = [b.text for b in screen.destination_buttons]
    d.report["send_disabled"] = screen.send_button.disabled
    yield from drawn()
    d.shot("triumph-command")
    screen.send_command()
    yield 0.2
    d.report["received"] = table.received[-1]
    d.report["moved_to"] = sorted({str(table.game.state.units[u].at) for u in entry["units"]})
    d.report["commands_after"] = [w for w in _texts(screen) if "Corps commands" in w]
    d.report["army_after"] = [w for w in _texts(screen) if w.startswith("[b]Bagration")]
    # A refused command shows the rule and the referee's text. The menu only offers legal
    # commands, so the test slips a destination that is not in it into the composer.
    menu = red.state.triumph.menu()
    screen.pick(next(i for i, e in enumerate(menu) if e.get("commander") == "Constantine"))
    red.state.triumph.command.entry["to"] = ["R150"]
    red.state.triumph.command.destination = 0
    screen.send_command()
    yield 0.2
    d.report["refusal"] = red.state.triumph.refusal
    d.report["refusal_texts"] = [w for w in _texts(screen) if "Refused" in w]
    yield from drawn()
    d.shot("triumph-refused")
    # The end: a view with the result (as the referee's last snapshot carries it).
    over = dict(red.state.triumph.view, awaiting=None, options=None,
                result={"winner": "allied", "reason": "demoralised",
                        "why": "the french army is demoralised (morale 0)"})
    red.deliver("view", over)
    yield from drawn()
    d.report["over"] = [red.state.phase, red.screens.current,
                        [t for t in _texts(screen) if "won" in t],
                        len(screen.decision_buttons)]
    d.report["end_lines"] = [(label.end_kind, label.text) for label in screen.end_lines]
    d.shot("triumph-end")


def triumph_attack(d):
    """An Allied attack: the French tablet answers the threat, the Allied one waits; the combat's
    instructions on both tablets; German and Bulgarian."""
    table, red, blue = _both(d)
    d.show(red, blue)
    yield 0.3
    to_allied_threat(table)
    yield 0.4
    red_screen, blue_screen = red.screen_by_name["triumph"], blue.screen_by_name["triumph"]
    d.report["blue_headline"] = blue_screen.headline
    d.report["blue_options"] = [b.text for b in blue_screen.decision_buttons]
    d.report["red_headline"] = red_screen.headline
    d.report["red_buttons"] = len(red_screen.decision_buttons)
    d.report["attack"] = dict(table.game.view(None).to_dict()["attack"])
    d.report["red_steps"] = [b.text for b in red_screen.step_buttons]
    yield from drawn()
    d.shot("triumph-attack")
    for root in (red, blue):
        root.set_language("de")
    yield 0.3
    d.report["blue_headline_de"] = blue_screen.headline
    d.report["red_headline_de"] = red_screen.headline
    d.report["blue_options_de"] = [b.text for b in blue_screen.decision_buttons]
    yield from drawn()
    d.shot("triumph-attack-de")
    for root in (red, blue):
        root.set_language("en")
    yield 0.1
    # The French defend with every unit of the reserve: the option with the longest list.
    defend = max((pair for pair in blue_screen.option_buttons if pair[0]["type"] == "defend"),
                  key=lambda pair: len(pair[0]["units"]))
    defend[1].dispatch("on_release")  # the button's own handler, as a finger's release calls it
    yield 0.1
    d.report["defend_sent"] = table.received[-1]
    d.report["after_defend"] = table.game.awaiting()
    finish_attack(table)
    yield 0.3
    d.report["events"] = [e.type for e in table.game.events]
    d.report["blue_steps"] = [b.text for b in blue_screen.step_buttons]
    d.report["red_steps_after"] = [b.text for b in red_screen.step_buttons]
    d.report["blue_blocks"] = table.instructions["blue"]
    d.report["red_blocks"] = table.instructions["red"]
    yield from drawn()
    d.shot("triumph-instructions")
    seq, index, _step, _ = blue.state.triumph.steps(blocks=4)[0]
    d.report["steps_before"] = [b.text for b in blue_screen.step_buttons]
    blue_screen.step_buttons[0].dispatch("on_release")
    yield 0.2
    d.report["done"] = sorted(blue.state.triumph.done)
    d.report["steps_after"] = [b.text for b in blue_screen.step_buttons]
    d.report["done_key"] = [seq, index]
    for root in (red, blue):
        root.set_language("bg")
    yield 0.3
    d.report["blue_steps_bg"] = [b.text for b in blue_screen.step_buttons]
    yield from drawn()
    d.shot("triumph-instructions-bg")


def triumph_takeback(d):
    """The Allies take a plain move back: asked on the red tablet, accepted on the blue one; the
    red tablet is told to put the blocks back. Then the French resign with two taps."""
    table, red, blue = _both(d)
    d.show(red, blue)
    yield 0.3
    menu = red.state.triumph.menu()
    entry = next(e for e in menu if e["type"] == "corps_move" and e["commander"] == "Bagration")
    red_screen, blue_screen = red.screen_by_name["triumph"], blue.screen_by_name["triumph"]
    red_screen.send({"type": "corps_move", "commander": "Bagration", "units": entry["units"], "to": "R66"})
    yield 0.2
    red_screen.control_buttons[0].dispatch("on_release")  # Ask takeback
    yield 0.3
    d.report["red_waiting"] = [t for t in _texts(red_screen) if "Waiting for the answer" in t]
    d.report["blue_asked"] = [t for t in _texts(blue_screen) if "take back" in t]
    yield from drawn()
    d.shot("triumph-takeback")
    accept = next(w for w in blue_screen.panel.walk() if getattr(w, "text", "") == "Accept")
    accept.dispatch("on_release")
    yield 0.3
    d.report["actions_after"] = len(table.game.actions)
    d.report["red_steps"] = [b.text for b in red_screen.step_buttons]
    blue_screen.control_buttons[1].dispatch("on_release")
    yield 0.1
    d.report["armed"] = blue_screen.control_buttons[1].text
    blue_screen.control_buttons[1].dispatch("on_release")
    yield 0.3
    d.report["result"] = table.session.result
    d.report["red_result"] = [t for t in _texts(red_screen) if "won" in t]
    d.report["red_end"] = [(label.end_kind, label.text) for label in red_screen.end_lines]
