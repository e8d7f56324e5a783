"""App scenario: the computer's move as the person's tablet and the referee display show it."""

from __future__ import annotations

from companion_app.demo.local_table import LocalTable
from tests.companion_app.scenarios import _start_game, _tablets


def _texts(root) -> list[str]:
    """Every label text on the root's current screen."""
    screen = root.screens.current_screen
    return [w.text for w in screen.walk() if isinstance(getattr(w, "text", None), str) and w.text]


def computer_move_shown(d):
    """Red is a person, Blue the computer: after Red's move, Blue's move is shown to be made."""
    table = LocalTable("classic")
    red, blue, display = _tablets(table, "red", "blue", None)
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    yield from _start_game(d, table, red, blue)
    display.connect("local", None)
    first = next(m for m in table.game.legal_moves() if table.game.piece_at(m.target) is None)
    table.command("red", "move", {"move": str(first)})
    yield 0.2
    move = next(m for m in table.game.legal_moves() if table.game.piece_at(m.target) is None)
    shown = {"seat": "blue", "move": str(move), "square": move.origin.name, "to": move.target.name,
             "level": "normal"}
    table.publisher.state_parts.append(lambda state: state.update(computer_move=shown))  # as the referee sends it
    table.publish()
    yield 0.3
    d.report["move"] = shown
    d.show(red)
    yield 0.3
    d.report["tablet_texts"] = _texts(red)
    d.report["tablet_marks"] = dict(red.screen_by_name["game"].board.highlights)
    d.shot("computer-move-tablet")
    d.show(display)
    yield 0.3
    d.report["display_texts"] = _texts(display)
    d.report["display_marks"] = dict(display.screen_by_name["display"].board.highlights)
    d.shot("computer-move-display")


def notebook_panel(d):
    """Red opens the notebook after a few battles: each blue piece's likeliest ranks, the army left."""
    import random

    from tests.companion_app.scenarios import _play_until_battle

    table = LocalTable("barrage")
    red, blue = _tablets(table, "red", "blue")
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    yield from _start_game(d, table, red, blue)
    rng = random.Random(3)
    for attacker in ("red", "blue", "red"):
        _play_until_battle(table, rng, attacker)
    yield 0.3
    d.show(red)
    yield 0.3
    screen = red.screen_by_name["game"]
    d.report["closed"] = screen.message.text
    d.tap(screen.notebook_button, *screen.notebook_button.center)  # to_window of the parent
    yield 0.3
    d.report["open"] = screen.message.text
    d.report["open_flag"] = red.state.notebook_open
    d.shot("notebook")
    red.state.notebook_allowed = False
    red.state.notebook_open = False
    screen.refresh(red.state)
    d.report["forbidden_disabled"] = screen.notebook_button.disabled
