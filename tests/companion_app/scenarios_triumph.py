"""Napoleon's Triumph on the real tablets under Xvfb, fed by a real TriumphGame through the
contract adapter (tests/companion_app/triumph_referee.py); the tests are in test_app_triumph.py.
"""

from __future__ import annotations

from companion_app.model.triumph_table import SIDE_OF_SEAT
from companion_app.ui.app_root import TabletRoot
from engine.triumph.actions import action_from_dict
from engine.triumph.standard import standard_setup
from tests.companion_app.triumph_referee import StandInLink, StandInTable


def _tablet(table: StandInTable, seat: str, language: str = "en") -> TabletRoot:
    root = TabletRoot(lambda address, s: StandInLink(table, s))
    root.set_language(language)
    root.connect("local", seat)
    return root


def _texts(screen) -> list[str]:
    return [w.text for w in screen.panel.walk() if hasattr(w, "text") and w.text]


def triumph_setup(d):
    """The French set-up: the standard army, a unit detached, a refusal, then acceptance."""
    table = StandInTable()
    blue = _tablet(table, "blue")
    d.show(blue)
    yield 0.3
    screen = blue.screen_by_name["triumph_setup"]
    d.report["screen"] = blue.screens.current
    d.report["corps_units"] = {name: len(units) for name, units in screen.draft.corps()}
    d.report["problem_start"] = screen.draft.problem()
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
    d.shot("triumph-setup-refused")
    screen.standard()
    # Detach an Infantry 2 of Vandamme to 62 (a French detachment).
    vandamme = [u["id"] for u in screen.draft.units if u.get("commander") == "Vandamme"]
    screen._select(vandamme[-2])
    yield 0.1
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
    d.shot("triumph-setup-waiting")


def _both(d, language: str = "en"):
    table = StandInTable()
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
    d.shot("triumph-menu")
    menu = red.state.triumph.menu()
    index = next(i for i, e in enumerate(menu) if e["type"] == "corps_move"
                 and e["commander"] == "Bagration")
    screen.pick(index)
    yield 0.1
    entry = menu[index]
    screen.toggle(entry["units"][-1])  # leave the last one behind
    yield 0.1
    screen._map_position("R66")
    yield 0.1
    d.report["composed"] = red.state.triumph.command.action()
    d.report["highlighted"] = list(getattr(screen.map, "highlighted", []))
    d.report["unit_buttons"] = [b.text for b in screen.unit_buttons.values()]
    d.report["destination_buttons"] = [b.text for b in screen.destination_buttons]
    d.report["send_disabled"] = screen.send_button.disabled
    d.shot("triumph-command")
    screen.send_command()
    yield 0.2
    d.report["received"] = table.received[-1]
    d.report["moved_to"] = sorted({str(table.game.state.units[u].at) for u in entry["units"]})
    d.report["commands_after"] = [w for w in _texts(screen) if "Corps commands" in w]
    d.report["army_after"] = [w for w in _texts(screen) if w.startswith("[b]Bagration")]
    # A refused command: an illegal road move typed into the composer shows the rule and the text.
    screen.pick(index)
    red.state.triumph.command.entry["to"] = ["R150"]
    red.state.triumph.command.destination = 0
    screen.send_command()
    yield 0.2
    d.report["refusal"] = red.state.triumph.refusal
    d.report["refusal_texts"] = [w for w in _texts(screen) if "Refused" in w]
    d.shot("triumph-refused")


def play(table: StandInTable, data: dict) -> None:
    """Push one action (records' vocabulary, with its side) and republish."""
    table.game.push(action_from_dict(data))
    table.publish()


__all__ = ["SIDE_OF_SEAT", "triumph_command", "triumph_setup"]
