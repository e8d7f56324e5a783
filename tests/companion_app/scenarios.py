"""App scenarios run by kivy_runner under Xvfb: they drive the real widgets like a user would.

Each records what the tests check in `d.report`; the tests live in test_app_*.py.
"""

from __future__ import annotations

import random

from companion_app.demo.local_table import LocalLink, LocalTable
from companion_app.ui.app_root import TabletRoot
from engine import Color, Game, Move, Square, random_setup


def _tablets(table: LocalTable, *seats):
    return [TabletRoot(lambda address, s: LocalLink(table, s)) for _ in seats]


def _center_of(widget):
    return widget.center


def _privacy_violations(root: TabletRoot, game: Game, viewer: Color | None) -> list[str]:
    """Squares where a tablet draws a rank its viewer may not know."""
    board = root.screen_by_name["display" if viewer is None else "game"].board
    bad = []
    for name, label in board.drawn.items():
        piece = game.piece_at(Square.parse(name))
        if piece is None:
            bad.append(f"{name}: drawn but empty")
        elif label != "?" and not game.knows(viewer, piece):
            bad.append(f"{name}: shows {label} for hidden {piece.color.value} {piece.kind}")
    return bad


def setup_screen(d):
    """Arrange a setup with taps and drags, save and load it, switch languages, submit."""
    table = LocalTable("classic")
    (red,) = _tablets(table, "red")
    d.show(red)
    red.connect("local", "red")
    yield 0.3
    setup = red.screen_by_name["setup"]
    board = setup.board
    d.report["screen"] = red.screens.current
    # Tap the Marshal in the tray, then tap d4.
    d.tap(setup.items["marshal"], *_center_of(setup.items["marshal"]))
    d.report["selected"] = setup.selected
    d.tap(board, *board.square_center("d4"))
    yield 0.1
    # Drag a Scout from the tray onto a1, then the Marshal from d4 to e4.
    item = setup.items["scout"]
    d.drag(item, _center_of(item), item.to_widget(*board.to_window(*board.square_center("a1"))))
    yield 0.1
    d.drag(board, board.square_center("d4"), board.square_center("e4"))
    yield 0.1
    d.report["after_drags"] = dict(setup.draft.placed)
    d.report["problems_partial"] = setup.problems.text
    d.report["submit_disabled_partial"] = setup.submit_button.disabled
    d.shot("setup-partial")
    # Drag the Scout off the board: back to the tray.
    d.drag(board, board.square_center("a1"), (board.right + 40, board.center_y))
    yield 0.1
    d.report["after_drag_off"] = dict(setup.draft.placed)
    setup.randomize()
    setup.name_input.text = "Fortress"
    setup.save()
    saved = dict(setup.draft.placed)
    setup.clear()
    d.report["cleared"] = len(setup.draft.placed)
    setup.load_spinner.text = "Fortress"
    yield 0.1
    d.report["loaded_equal"] = setup.draft.placed == saved
    d.report["problems_complete"] = setup.problems.text
    d.report["submit_disabled_complete"] = setup.submit_button.disabled
    d.shot("setup-complete")
    red.set_language("de")
    yield 0.1
    d.report["title_de"] = setup.title.text
    d.report["status_de"] = setup.status.text
    d.report["random_de"] = setup.random_button.text
    d.shot("setup-de")
    red.set_language("bg")
    yield 0.1
    d.report["title_bg"] = setup.title.text
    d.shot("setup-bg")
    red.set_language("en")
    table.board_matches = False
    setup.submit()
    yield 0.2
    d.report["after_submit"] = red.screens.current
    placing = red.screen_by_name["placing"]
    d.report["placing_progress"] = placing.progress.text
    d.report["placing_next"] = placing.next_label.text
    d.shot("placing")


def _start_game(d, table: LocalTable, *roots, seed: int = 7):
    for root in roots:
        root.connect("local", root_seat(root))
    yield 0.2
    rng = random.Random(seed)
    for root in roots:
        if root.state.seat:
            screen = root.screen_by_name["setup"]
            # Uniformly random legal setups: the scripted games of these scenarios were chosen on them
            # (the Random button's human-like armies would give other games).
            variant, color = screen.draft.variant, Color(screen.draft.color)
            screen.draft.placed = {sq.name: kind for sq, kind in random_setup(variant, color, rng).items()}
            screen.submit()
    yield 0.2


def root_seat(root: TabletRoot):
    return getattr(root, "wanted_seat", None)


def _play_until_battle(table: LocalTable, rng: random.Random, attacker: str, limit: int = 400):
    """Play random legal moves until `attacker` wins or loses a battle; return its events."""
    for _ in range(limit):
        game = table.game
        if game.result is not None:
            return None
        moves = game.legal_moves()
        attacks = [m for m in moves if game.piece_at(m.target) is not None]
        move = rng.choice(attacks) if attacks and game.to_move.value == attacker else rng.choice(moves)
        table.play(str(move))
        events = game.view(None).to_dict()["last_events"]
        if any(e["type"] == "battle" and e["attacker_color"] == attacker for e in events):
            return events
    return None


def game_two_tablets(d):
    """Two tablets play through a LocalTable: battles, privacy, refusals, draw, the end screen."""
    table = LocalTable("classic")
    red, blue = _tablets(table, "red", "blue")
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    d.show(red, blue)
    yield from _start_game(d, table, red, blue)
    d.report["screens_at_start"] = [red.screens.current, blue.screens.current]
    rng = random.Random(3)
    violations: list[str] = []
    events = None
    for _ in range(6):
        events = _play_until_battle(table, rng, "red")
        yield 0.05
        violations += _privacy_violations(blue, table.game, Color.BLUE)
        violations += _privacy_violations(red, table.game, Color.RED)
    d.report["battle_events"] = events
    d.report["violations"] = violations
    d.report["red_message"] = red.screen_by_name["game"].message.text
    d.report["blue_message"] = blue.screen_by_name["game"].message.text
    d.report["ply"] = table.game.ply
    d.report["red_view_ply"] = red.state.view["ply"]
    d.show(red)
    yield 0.3  # let the layout settle on the new size
    d.shot("game-red-battle")
    d.show(blue)
    yield 0.3  # let the layout settle on the new size
    d.shot("game-blue-battle")
    # Blue's board shows each red piece it cannot know as "?".
    view = blue.state.view
    hidden = [p["square"] for p in view["pieces"] if p["color"] == "red" and p["kind"] is None]
    d.report["blue_hidden_red_labels"] = sorted({blue.screen_by_name["game"].board.drawn[s] for s in hidden})
    d.report["blue_hidden_count"] = len(hidden)
    # An illegal move on the board: the player to move gets the reason.
    game = table.game
    mover = game.to_move.value
    bomb = next(sq for sq, p in game.pieces() if p.color.value == mover and p.kind == "bomb")
    target = next(Square(bomb.file, bomb.rank + dr) for dr in (1, -1)
                  if 0 <= bomb.rank + dr < 10 and Square(bomb.file, bomb.rank + dr) not in game.blocked)
    table.play(f"{bomb.name}-{target.name}")
    yield 0.1
    mover_root = red if mover == "red" else blue
    d.report["refusal_text"] = mover_root.screen_by_name["game"].message.text
    d.report["refused_move"] = f"{bomb.name}-{target.name}"
    d.show(mover_root)
    yield 0.3  # let the layout settle on the new size
    d.shot("game-refusal")
    # Draw offer and acceptance through the buttons.
    game_screen = red.screen_by_name["game"]
    d.show(red, blue)
    yield 0.3  # let the layout settle on the new size
    d.tap(game_screen.draw_button, *_center_of(game_screen.draw_button))
    yield 0.1
    blue_screen = blue.screen_by_name["game"]
    d.report["blue_offer_text"] = blue_screen.offer_label.text
    d.report["blue_accept_visible"] = blue_screen.offer_row.opacity
    d.show(blue)
    yield 0.3  # let the layout settle on the new size
    d.shot("game-draw-offer")
    d.tap(blue_screen.accept_button, *_center_of(blue_screen.accept_button))
    yield 0.2
    d.report["screens_at_end"] = [red.screens.current, blue.screens.current]
    over = blue.screen_by_name["over"]
    d.report["result_text"] = over.result.text
    d.report["revealed_labels"] = sorted(set(over.board.drawn.values()))
    d.report["replay_positions"] = len(over.replay.positions) if over.replay else 0
    d.show(blue)
    yield 0.3  # let the layout settle on the new size
    d.shot("over-blue")
    over.step(-1)
    d.report["replay_label_back"] = over.move_label.text
    over.step(-10**6)
    d.report["replay_label_start"] = over.move_label.text
    d.report["export_path"] = over.export()
    d.report["moves_played"] = [m.name for m in table.game.move_stack]
    d.report["setups"] = dict(table.setups)
    # Another game at the same table: both tablets go back to the setup, Red's last one kept.
    d.show(red, blue)
    yield 0.3  # let the layout settle on the new size
    new_game = red.screen_by_name["over"].new_game_button
    d.tap(new_game, *new_game.center)
    yield 0.3
    d.report["after_new_game"] = [red.screens.current, blue.screens.current]
    d.report["red_draft_kept"] = red.screen_by_name["setup"].draft.placed == table_setup(d, "red")
    d.report["history_after_new_game"] = len(red.state.history)


def table_setup(d, seat: str) -> dict:
    """The setup a seat sent in the game before (as recorded in the report)."""
    return d.report["setups"][seat]


def warning_and_resign(d):
    """A Scout shuffling between two squares: the warning comes before the rule bites."""
    table = LocalTable("classic")
    red, blue = _tablets(table, "red", "blue")
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    pieces = {Square.parse("a1"): (Color.RED, "flag"), Square.parse("b2"): (Color.RED, "scout"),
              Square.parse("j10"): (Color.BLUE, "flag"), Square.parse("h9"): (Color.BLUE, "scout"),
              Square.parse("e1"): (Color.RED, "marshal"), Square.parse("e10"): (Color.BLUE, "marshal")}
    table.set_position(pieces)
    d.show(red, blue)
    red.connect("local", "red")
    blue.connect("local", "blue")
    yield 0.2
    texts = []
    for move in ("b2-b3", "h9-h8", "b3-b2", "h8-h9", "b2-b3", "h9-h8"):
        table.play(move)
        yield 0.05
        texts.append(red.screen_by_name["game"].message.text)
    d.report["red_messages"] = texts
    d.report["two_squares_left"] = red.state.view.get("two_squares_left")
    d.show(red)
    yield 0.3  # let the layout settle on the new size
    d.shot("game-warning")
    result = table.play("b3-b2")
    yield 0.1
    d.report["refused"] = result
    d.report["refusal_text"] = red.screen_by_name["game"].message.text
    # Resigning takes two taps.
    screen = blue.screen_by_name["game"]
    d.show(blue)
    yield 0.3  # let the layout settle on the new size
    d.tap(screen.resign_button, *_center_of(screen.resign_button))
    yield 0.05
    d.report["after_one_tap"] = [blue.screens.current, screen.resign_button.text]
    d.tap(screen.resign_button, *_center_of(screen.resign_button))
    yield 0.2
    d.report["after_two_taps"] = blue.screens.current
    d.report["red_result"] = red.screen_by_name["over"].result.text
    red.set_language("bg")
    yield 0.1
    d.report["red_result_bg"] = red.screen_by_name["over"].result.text
    d.show(red)
    yield 0.3  # let the layout settle on the new size
    d.shot("over-red-bg")


def referee_display(d):
    """The public display during a game: no hidden rank, battles, connection lights."""
    table = LocalTable("classic")
    red, blue, display = _tablets(table, "red", "blue", None)
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    d.show(display)
    yield from _start_game(d, table, red, blue)
    display.connect("local", None)
    yield 0.1
    rng = random.Random(11)
    violations = []
    for _ in range(5):
        _play_until_battle(table, rng, "blue")
        yield 0.05
        violations += _privacy_violations(display, table.game, None)
    d.report["violations"] = violations
    d.report["screen"] = display.screens.current
    screen = display.screen_by_name["display"]
    d.report["battle"] = screen.battle.text
    d.report["links"] = screen.links.text
    d.report["drawn_labels"] = sorted(set(screen.board.drawn.values()))
    table.clocks = {"red": 300.0, "blue": 287.5, "game": None, "running": "red"}
    table.publish()
    yield 0.1
    d.report["clocks"] = screen.clocks.text
    yield 1.6
    d.report["clocks_later"] = screen.clocks.text
    # The physical board disagrees with the game: the display says what to fix.
    table.board_check = {"matches": False, "clear": ["e5"], "fill": ["e4"], "wrong": [],
                         "reason": "unexpected"}
    table.publish()
    yield 0.2
    d.report["guidance"] = screen.guidance.text
    d.report["guidance_marks"] = {sq: m for sq, m in screen.board.highlights.items()
                                  if m in ("clear", "fill")}
    d.shot("referee-display")


def portrait_tablet(d):
    """A tablet held upright: the board above the panel, nothing overlapping."""
    table = LocalTable("classic")
    red, blue = _tablets(table, "red", "blue")
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    d.show(red, size=(500, 800))
    yield from _start_game(d, table, red, blue)
    _play_until_battle(table, random.Random(5), "red")
    screen = red.screen_by_name["game"]
    yield from _until(lambda: red.screens.current == "game" and screen.layout.orientation == "vertical",
                      what="the game screen upright")
    yield 0.3  # the layout's next pass places board and panel
    d.report["orientation"] = screen.layout.orientation
    cell = screen.board.cell
    board_bottom = screen.board.center_y - cell * 5
    d.report["board_bottom"] = board_bottom
    d.report["side_top"] = screen.side.top
    d.report["cell"] = cell
    buttons = [screen.draw_button, screen.takeback_button, screen.resign_button]
    d.report["button_heights"] = [b.height for b in buttons]
    d.shot("game-portrait", red)
    # The setup screen upright too.
    table2 = LocalTable("classic")
    (solo,) = _tablets(table2, "red")
    solo.wanted_seat = "red"
    d.show(solo, size=(500, 800))
    solo.connect("local", "red")
    setup = solo.screen_by_name["setup"]
    # On a loaded machine the screen and its upright layout take their time: wait for them.
    yield from _until(lambda: solo.screens.current == "setup" and setup.height > setup.width
                      and setup.layout.orientation == "vertical", what="the setup screen upright")
    yield 0.3  # the layout's next pass places board and panel
    d.report["setup_board_bottom"] = setup.board.center_y - setup.board.cell * 5
    d.report["setup_side_top"] = setup.side.top
    d.shot("setup-portrait", solo)


def move_for(game: Game, text: str) -> Move:
    return Move.parse(text)


def _until(condition, timeout: float = 10.0, what: str = ""):
    """Yield frames until condition() holds; fail with `what` after `timeout` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")
        yield 0.05


def espionage_turn(d):
    """Espionage: the tablet counts the two moves of a turn, and draws the variant's pieces."""
    table = LocalTable("espionage")
    red, blue = _tablets(table, "red", "blue")
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    d.show(red)
    yield from _start_game(d, table, red, blue)
    screen = red.screen_by_name["game"]
    d.report["turn_start"] = screen.turn_label.text
    game = table.game
    first = random.Random(1).choice(game.legal_moves())
    table.play(str(first))
    yield 0.2
    d.report["turn_after_one"] = screen.turn_label.text
    d.report["labels"] = sorted(set(screen.board.drawn.values()))
    d.shot("espionage")


def hall_overview(d):
    """Two boards' referees on one hall broker: the overview shows both, opens a display (paired
    by the code that board's console shows; Back on its pairing screen leads to the overview too)."""
    import tempfile
    from pathlib import Path

    from companion_app.net.network import network_link_factory
    from firmware_bridge.referee.broker import EmbeddedBroker, free_port
    from firmware_bridge.referee.service import Referee, RefereeSettings
    from tests.companion_app.layout_checks import steady

    broker = EmbeddedBroker("127.0.0.1", free_port())
    broker.start()
    folder = Path(tempfile.mkdtemp(prefix="arbiter-hall-"))
    referees = []
    codes: dict[str, str] = {}  # board -> the code its console shows for a display
    for board in ("table1", "table2"):
        referee = Referee(RefereeSettings(board=board, journal_path=folder / f"{board}.db",
                                          broker_url=broker.url, name=board))
        referee.on_pairing_code = lambda seat, code, b=board: codes.__setitem__(b, code)
        referee.start()
        referees.append(referee)

    def stop():
        for referee in referees:
            referee.stop()
        broker.stop()

    d.on_finish = stop
    root = TabletRoot(network_link_factory())
    d.show(root)
    yield 0.3
    connect = root.screen_by_name["connect"]
    connect.address.text = broker.url
    d.tap(connect.overview_button, *connect.overview_button.center)
    screen = root.screen_by_name["overview"]
    yield from _until(lambda: len(root.state.boards) == 2, what="both boards")
    yield 0.3
    d.report["screen"] = root.screens.current
    d.report["cards"] = sorted(screen.cards)
    d.report["title"] = screen.title.text
    d.report["status"] = screen.cards["table1"].status.text
    d.shot("overview")
    # A board's display shows nothing until it is paired: its pairing screen asks for the code
    # that board's console shows; its Back leads back to the overview.
    card = screen.cards["table2"]
    d.tap(card.open_button, *card.open_button.center)
    yield from _until(lambda: root.screens.current == "pairing", what="the pairing screen of table2's display")
    pairing = root.screen_by_name["pairing"]
    yield from steady(root)  # laid out: the button where a finger finds it
    d.tap(pairing.cancel, *pairing.cancel.center)
    yield from _until(lambda: root.screens.current == "overview" and len(root.state.boards) == 2,
                      what="back to the overview from the pairing screen")
    d.report["pairing_back_to"] = root.screens.current
    codes.clear()
    card = screen.cards["table2"]
    d.tap(card.open_button, *card.open_button.center)
    yield from _until(lambda: root.screens.current == "pairing" and "table2" in codes,
                      what="table2's display asking again")
    yield from steady(root)
    pairing.code.text = codes["table2"]
    d.tap(pairing.send_code, *pairing.send_code.center)
    yield from _until(lambda: root.screens.current == "display", what="the display of table2")
    yield 0.3
    d.report["display_board"] = root.state.board_name
    back = root.screen_by_name["display"].back
    d.report["back_visible"] = back.opacity
    d.tap(back, *back.center)
    yield from _until(lambda: root.screens.current == "overview" and len(root.state.boards) == 2,
                      what="back to the overview")
    d.report["back_to"] = root.screens.current
    root.disconnect()


def tablet_moves(d):
    """Without sensors the players move on their tablets: drag, or tap the piece and its target."""
    table = LocalTable("classic")
    red, blue = _tablets(table, "red", "blue")
    pieces = {Square.parse("a1"): (Color.RED, "flag"), Square.parse("b2"): (Color.RED, "scout"),
              Square.parse("j10"): (Color.BLUE, "flag"), Square.parse("h9"): (Color.BLUE, "scout"),
              Square.parse("e1"): (Color.RED, "marshal"), Square.parse("e10"): (Color.BLUE, "marshal")}
    table.set_position(pieces)
    d.show(red, blue)
    red.connect("local", "red")
    blue.connect("local", "blue")
    yield 0.3
    board = red.screen_by_name["game"].board
    d.drag(board, board.square_center("b2"), board.square_center("b5"))
    yield 0.2
    d.report["after_red_drag"] = [m.name for m in table.game.move_stack]
    blue_board = blue.screen_by_name["game"].board
    d.tap(blue_board, *blue_board.square_center("h9"))
    yield 0.1
    d.report["blue_selected"] = blue.screen_by_name["game"].selected
    d.tap(blue_board, *blue_board.square_center("h7"))
    yield 0.2
    d.report["after_blue_taps"] = [m.name for m in table.game.move_stack]
    # Blue tries to move while it is Red's turn: nothing is sent.
    d.drag(blue_board, blue_board.square_center("e10"), blue_board.square_center("e9"))
    yield 0.1
    d.report["after_out_of_turn"] = len(table.game.move_stack)
    # Red drags its flag: the referee refuses and says why.
    d.drag(board, board.square_center("a1"), board.square_center("a2"))
    yield 0.2
    d.report["refusal"] = red.screen_by_name["game"].message.text
    d.report["after_refusal"] = len(table.game.move_stack)
    # A referee that reads the board refuses moves from tablets with a clear word.
    table.board_input = True
    d.drag(board, board.square_center("e1"), board.square_center("e2"))
    yield 0.2
    d.report["board_input_notice"] = red.screen_by_name["game"].message.text
