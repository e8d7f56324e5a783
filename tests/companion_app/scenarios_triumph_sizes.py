"""Every Napoleon's Triumph screen at the sizes of the tablets families own, checked by
layout_checks (the ux engineer's checker, shared by both games): the set-up, the command menu
and a command being composed, a refusal, a defender's answer, the waiting side, instructions
after combat, a takeback asked, the end, and the referee display. The real tablets against
the referee's own TriumphSession (the in-process table); the checks are in
test_app_triumph_sizes.py."""

from __future__ import annotations

from engine.triumph.standard import standard_setup
from tests.companion_app.layout_checks import layout_problems, shown_texts, steady
from tests.companion_app.scenarios import _until
from tests.companion_app.scenarios_sizes import SIZES, _look
from tests.companion_app.scenarios_triumph import _tablet
from tests.companion_app.scenarios_triumph_display import _display
from tests.companion_app.triumph_games import opening_with_an_attack
from tests.companion_app.triumph_referee import RefereeTable, finish_attack, to_allied_threat

NT_SHOTS = ("1024x600", "800x1280")


def _both(language: str):
    table = RefereeTable()
    table.start(standard_setup("french"), standard_setup("allied"))
    return table, _tablet(table, "red", language), _tablet(table, "blue", language)


def triumph_screen_sizes(d):
    """Each NT screen at each size (in the language the test names: English by default)."""
    d.report.update(problems=[], looked=[], headings={}, texts={})
    sizes = list(SIZES)
    language = d.args[0] if d.args else "en"

    def look(root, screen: str, state: str):
        yield from _look(d, root, screen, state, sizes, language, shots=NT_SHOTS)

    # the set-up, before any army is sent
    setup_table = RefereeTable()
    yield from look(_tablet(setup_table, "blue", language), "triumph_setup", "standard")
    table, red, blue = _both(language)
    yield from look(red, "triumph", "menu")
    yield from look(blue, "triumph", "waiting")
    # a Corps Move being composed: Bagration's corps to 66, one unit left behind
    screen = red.screen_by_name["triumph"]
    menu = red.state.triumph.menu()
    index = next(i for i, e in enumerate(menu) if e["type"] == "corps_move"
                 and e["commander"] == "Bagration")
    screen.pick(index)
    screen.toggle(menu[index]["units"][-1])
    screen._map_position("R66")
    yield from look(red, "triumph", "composer")
    # a command the referee refuses (slipped past the menu) shows its rule and reason
    red.state.triumph.command.entry["to"] = ["R150"]
    red.state.triumph.command.destination = 0
    screen.send_command()
    yield from look(red, "triumph", "refused")
    # a threat: the defender answers, the attacker waits
    table, red, blue = _both(language)
    to_allied_threat(table)
    yield from look(blue, "triumph", "response")
    yield from look(red, "triumph", "attacker-waits")
    # the combat's instructions
    finish_attack(table)
    yield from look(blue, "triumph", "instructions")
    # a takeback asked of the other tablet
    table, red, blue = _both(language)
    entry = next(e for e in red.state.triumph.menu() if e["type"] == "corps_move"
                 and e["commander"] == "Bagration")
    red.screen_by_name["triumph"].send({"type": "corps_move", "commander": "Bagration",
                                        "units": entry["units"], "to": "R66"})
    red.screen_by_name["triumph"].control_buttons[0].dispatch("on_release")
    yield from look(blue, "triumph", "takeback")
    # the end of the battle, as the referee's last snapshot tells it
    over = dict(red.state.triumph.view, awaiting=None, options=None,
                result={"winner": "french", "reason": "objectives",
                        "why": "the French (not reinforced) hold objective 61",
                        "control": {"french": [61, 62], "allied": []}})
    red.deliver("view", over)
    yield from look(red, "triumph", "end")
    # the referee display in the middle of an attack
    _, views = opening_with_an_attack()
    display = _display()
    display.deliver("connection", {"referee": "online", "red": "online", "blue": "online"})
    display.deliver("view", views[-1])
    yield from _look_display(d, display, sizes, language)


def _look_display(d, root, sizes, language: str):
    """The display at each size: the NT panel takes the Stratego board's place, so it settles
    when the panel has the screen's size."""
    for size_name in sizes:
        size = SIZES[size_name]
        d.show(root, size=size)
        if root.tr.language != language:
            root.set_language(language)
        root.refresh()
        def settled(s=size, screen=root.screen_by_name["display"]):
            panel = screen.triumph
            return (tuple(root.size) == tuple(s) and panel.parent is screen
                    and tuple(panel.size) == tuple(screen.size))
        yield from _until(settled, what=f"the NT display at {size_name}")
        yield from steady(root)
        d.report["problems"] += layout_problems(root, f"{size_name} {language} display/attack:")
        d.report["looked"].append(f"{size_name} display/attack")
        d.report["texts"].setdefault("display/attack", sorted(set(shown_texts(root))))
        if size_name in NT_SHOTS:
            d.shot(f"display-attack-{size_name}-{language}", root)
