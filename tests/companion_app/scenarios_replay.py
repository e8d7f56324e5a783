"""App scenario: a recorded game replayed on the simulated board, from a tablet (run by kivy_runner)."""

from __future__ import annotations

import shutil
from pathlib import Path

from companion_app.ui.app_root import TabletRoot
from tests.companion_app.scenarios import _until

RAID = Path(__file__).parents[1] / "engine" / "stratego" / "data" / "gravon_barrage_marshal_raid.xml"


def _replay(root: TabletRoot) -> dict:
    return root.state.replay or {}


def replay_on_board(d):
    """Red's tablet loads a Gravon game; the board window is set up and the moves made by finger;
    back, a language switch, and play on; the referee display beside them."""
    from companion_app.demo.board_window import BoardWindow
    from companion_app.demo.system import DemoSystem
    from companion_app.model.setup_model import app_home
    from companion_app.net.network import network_link_factory

    system = DemoSystem()
    system.start()
    d.on_finish = system.stop
    factory = network_link_factory()
    red, display = TabletRoot(factory), TabletRoot(factory)
    window = BoardWindow(system)
    d.show(red, window, display)
    yield 0.2
    board = window.board
    red.connect(system.url, "red")
    yield from _until(lambda: bool((red.state.pairing or {}).get("squares")), what="pairing")
    squares = red.state.pairing["squares"]  # the two squares the tablet chose: tokens there pair it
    for square in squares:
        d.tap(board, *board.square_center(square))
    yield from _until(lambda: red.screens.current == "setup", what="the red seat")
    for square in squares:
        d.drag(board, board.square_center(square), (board.right + 30, board.center_y))
    display.connect(system.url, None)
    # The display pairs by the code the console (here the board window) shows.
    yield from _until(lambda: any(r.seat == "display" and r.code for r in system.referee.desk.pending.values()),
                      what="the display's pairing request")
    code = next(r.code for r in system.referee.desk.pending.values() if r.seat == "display" and r.code)
    display.command("pair", {"code": code})
    yield from _until(lambda: not system.referee.desk.pending, what="the display paired")
    yield 0.3

    # The top bar's Replay button opens the panel; the file is typed in its path field.
    records = app_home() / "records"
    records.mkdir(parents=True, exist_ok=True)
    shutil.copy(RAID, records / "raid.xml")
    button = red.top_bar.replay
    d.report["replay_button"] = [button.text, button.disabled]
    d.tap(button, *button.center)
    yield from _until(lambda: red.screens.current == "replay", what="the replay panel")
    yield 0.3  # laid out
    panel = red.screen_by_name["replay"]
    d.report["empty_panel"] = [panel.title.text, panel.path_input.text]
    panel.path_input.text = str(records / "nothing.xml")
    d.tap(panel.load_button, *panel.load_button.center)
    yield 0.2
    d.report["missing_file"] = panel.notice.text
    panel.path_input.text = str(records / "raid.xml")
    d.tap(panel.load_button, *panel.load_button.center)
    yield from _until(lambda: _replay(red).get("phase") == "placing"
                      and display.screens.current == "replay", what="the replay loaded")
    yield 0.2
    d.report["placing"] = {"title": panel.title.text, "move": panel.move_label.text,
                           "lines": panel.steps_label.text.split("\n"),
                           "fill_rings": sum(1 for mark in panel.board.highlights.values()
                                             if mark == "fill"),
                           "display": display.screens.current}
    d.shot("replay-placing")

    # Both setups put on the board by finger, square by square, as the steps say.
    for name in _replay(red)["position"]:
        d.tap(board, *board.square_center(name))
        yield 0.03
    yield from _until(lambda: _replay(red).get("phase") == "replaying", what="the setups on the board")
    # The game's first four moves made by finger: a scout's run, the scouts' battle, two steps.
    for ply in range(4):
        step = _replay(red)["next"]
        origin, target = step["square"], step["to"]
        d.drag(board, board.square_center(origin), board.square_center(target))
        yield from _until(lambda p=ply: _replay(red).get("ply") == p + 1, timeout=10,
                          what=f"move {ply + 1} ({origin}-{target}) recognised")
        yield 0.5
        for removal in [s["square"] for s in _replay(red)["steps"] if s["action"] == "remove"]:
            d.drag(board, board.square_center(removal), (board.right + 30, board.center_y))
            yield 0.3
        yield from _until(lambda: (_replay(red).get("steps") or [{}])[0].get("action") == "move",
                          timeout=10, what=lambda p=ply: f"the board after move {p + 1}: {_replay(red)}")
    yield from _until(lambda: _replay(display).get("ply") == 4, what="the display at move 4")
    yield 0.3
    d.report["replaying"] = {"move": panel.move_label.text, "lines": panel.steps_label.text.split("\n"),
                             "rings": sorted(sq for sq, mark in panel.board.highlights.items()
                                             if mark == "last"),
                             "display_lines": display.screen_by_name["replay"].steps_label.text,
                             "leds": sorted(sq.name for sq, colour in system.board.leds.items()
                                            if colour == "green")}
    d.shot("replay-table")
    d.show(red)  # a tablet on its own, landscape, for the docs
    yield 0.4
    d.shot("replay", red)
    d.show(red, window, display)
    yield 0.3

    # Back: the move is taken back and the steps say what to put back where.
    back = panel.step_buttons[1]
    d.tap(back, *back.center)
    yield from _until(lambda: _replay(red).get("ply") == 3
                      and _replay(red)["steps"][0]["action"] == "put_back", what="back")
    yield 0.2
    d.report["back_lines"] = panel.steps_label.text.split("\n")
    red.set_language("de")
    yield 0.1
    d.report["back_lines_de"] = panel.steps_label.text.split("\n")
    d.shot("replay-back-de", red)
    red.set_language("en")
    step = _replay(red)["steps"][0]
    d.drag(board, board.square_center(step["square"]), board.square_center(step["to"]))
    yield from _until(lambda: _replay(red)["steps"][0]["action"] == "move", what="put back")

    # Play on: the rest is a normal game.
    d.tap(panel.play_on_button, *panel.play_on_button.center)
    yield from _until(lambda: red.screens.current == "game" and red.state.replay is None,
                      what="the game after play on")
    yield 0.3
    d.report["after_play_on"] = [red.screens.current, display.screens.current,
                                 (red.state.view or {}).get("ply"),
                                 (red.state.view or {}).get("to_move")]
