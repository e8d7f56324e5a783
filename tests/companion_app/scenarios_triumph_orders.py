"""Attack orders built block by block on the real tablets under Xvfb, against the referee's own
TriumphSession (the in-process table): the French attack with its leaders and width, the Allies'
counter-attack named block by block, then a feint ended by a tap on the map and the Allies'
advance. The checks are in test_app_triumph_orders.py."""

from __future__ import annotations

from engine.triumph.actions import action_from_dict
from tests.companion_app.layout_checks import in_sight, layout_problems
from tests.companion_app.scenarios_triumph import _tablet, drawn
from tests.companion_app.scenarios_triumph_map import _size, settled
from tests.companion_app.triumph_referee import RefereeTable
from tests.engine.triumph.setups import allied_setup, french_setup

LEADERS = ["F.f-st. -0", "F.f-st. -1"]  # St. Hilaire's two strongest infantry blocks


def _threat_on_94(table: RefereeTable) -> None:
    """Langeron marches to 94; St. Hilaire threatens it from 93; the Allies stand with five."""
    game = table.game
    table.play(next(a for a in game.legal_actions() if a.type == "corps_move"
                    and getattr(a, "commander", "") == "Langeron" and str(a.to) == "R94"))
    table.play(action_from_dict({"side": "allied", "type": "end_turn"}))
    table.play(action_from_dict({"side": "french", "type": "threat", "from": 93, "into": 94}))
    table.play(next(a for a in game.legal_actions() if a.type == "defend"
                    and len(getattr(a, "units", ())) == 5))


def _inside_locale(themap, locale: int) -> tuple[float, float]:
    """A window point a finger may tap to name the locale (between its anchor and a corner)."""
    region = themap.board.regions[locale]
    ax, ay = region.anchor
    for x, y in region.outline:
        point = themap.to_screen(ax + (x - ax) * 0.6, ay + (y - ay) * 0.6)
        if themap.position_at(*point) == f"R{locale}":
            return point
    raise AssertionError(f"no free point in {locale}")


def _tap(screen, key: str):
    screen.draft_buttons[key].dispatch("on_release")
    yield from drawn(1)


def _send(d, screen, table: RefereeTable, key: str):
    """Send the answer built; the report keeps what the referee received."""
    screen.draft_send.dispatch("on_release")
    yield from drawn(1)
    d.report[key] = table.received[-1]


def _start(d, root):
    d.show(root)
    screen = root.screen_by_name["triumph"]
    yield from settled(screen)
    d.report.setdefault("build_buttons", []).append(
        screen.build_button.text if screen.build_button else None)
    screen.build_button.dispatch("on_release")
    yield from drawn(1)
    return screen


def triumph_orders_built(d):
    """The French attack and the Allies' answers, each built block by block and ruled."""
    yield from _size(1024, 600)
    table = RefereeTable()
    table.start(french_setup(), allied_setup())
    red, blue = _tablet(table, "red"), _tablet(table, "blue")
    _threat_on_94(table)
    table.play(action_from_dict({"side": "french", "type": "press"}))
    table.play(next(a for a in table.game.legal_actions() if len(getattr(a, "units", ())) == 1))
    # the French attack: every block of St. Hilaire goes, two lead, across the wide border
    screen = yield from _start(d, blue)
    draft = blue.state.triumph.draft
    d.report["attack_blocks"] = sorted(draft.blocks())
    d.report["attack_first"] = screen.draft_problem.text
    for unit in draft.blocks():
        yield from _tap(screen, unit)
    for unit in LEADERS:
        yield from _tap(screen, f"lead:{unit}")
    d.report["attack_two_leaders_narrow"] = screen.draft_problem.text
    d.report["attack_send_disabled_narrow"] = screen.draft_send.disabled
    yield from _tap(screen, "wide")
    d.report["attack_ready"] = screen.draft_problem.text
    d.report["attack_send_disabled"] = screen.draft_send.disabled
    # four blocks, two leaders, the widths, the commands: the verdict and Send stay in sight
    d.report["attack_verdict_in_sight"] = in_sight(screen.draft_problem, blue)
    d.report["attack_send_in_sight"] = in_sight(screen.draft_send, blue)
    d.report["attack_problems"] = layout_problems(blue, "1024x600 attack builder:")
    d.shot("triumph-attack-built")
    yield from _send(d, screen, table, "attack_received")
    d.report["after_attack"] = list(table.game.awaiting() or ())
    # the Allies answer the counter-attack step block by block: tapping none is an answer too
    if table.game.awaiting() == ("allied", "counter_attack"):
        screen = yield from _start(d, red)
        d.report["counter_candidates"] = len(red.state.triumph.draft.candidates)
        d.report["counter_none"] = screen.draft_problem.text
        d.report["counter_problems"] = layout_problems(red, "1024x600 counter-attack builder:")
        d.shot("triumph-counter-attack-built")
        yield from _send(d, screen, table, "counter_received")
    # a feint on a fresh battle: the blocks tapped, the end tapped on the map
    table = RefereeTable()
    table.start(french_setup(), allied_setup())
    red, blue = _tablet(table, "red"), _tablet(table, "blue")
    _threat_on_94(table)
    screen = yield from _start(d, blue)
    draft = blue.state.triumph.draft
    d.report["feint_highlighted"] = sorted(screen.map.highlighted)
    for unit in draft.blocks():
        yield from _tap(screen, unit)
    # zoomed in on 93 (a small locale beside a ringed bar), a finger inside it: the feint
    # stops in that reserve
    screen.map.zoom_at(3.0, *screen.map.to_screen(*screen.map.board.regions[93].anchor))
    where = _inside_locale(screen.map, 93)
    d.report["feint_tapped"] = screen.map.position_at(*where)
    d.tap(screen.map, *where)
    yield from drawn(1)
    d.report["feint_end"] = draft.end
    d.report["feint_ready"] = screen.draft_problem.text
    d.report["feint_problems"] = layout_problems(blue, "1024x600 feint builder:")
    d.shot("triumph-feint-built")
    screen.map.reset_view()
    yield from _send(d, screen, table, "feint_received")
    d.report["after_feint"] = list(table.game.awaiting() or ())
    # the Allies advance one block to block the approach
    screen = yield from _start(d, red)
    draft = red.state.triumph.draft
    d.report["advance_first"] = screen.draft_problem.text
    yield from _tap(screen, draft.candidates[0])
    d.report["advance_ready"] = screen.draft_problem.text
    d.report["advance_problems"] = layout_problems(red, "1024x600 advance builder:")
    d.shot("triumph-advance-built")
    yield from _send(d, screen, table, "advance_received")
    d.report["advanced"] = str(table.game.state.units[draft.candidates[0]].at)
