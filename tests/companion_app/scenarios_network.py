"""App scenarios against the real network side: broker, referees, zeroconf (run by kivy_runner)."""

from __future__ import annotations

import random

from companion_app.ui.app_root import TabletRoot
from engine import Color, random_setup
from tests.companion_app.scenarios import _privacy_violations, _until


def _stale_red_credentials(board: str) -> None:
    """Red's tablet once paired with another referee (another key): it must pair again."""
    import json

    from nacl.public import PrivateKey

    from companion_app.model.setup_model import app_home
    from firmware_bridge.protocol import crypto
    from firmware_bridge.protocol.signing import PublicSigner

    path = app_home() / f"seat-{board}-red.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "client_id": "seat-oldtablet", "key": crypto.key_to_text(PrivateKey.generate()),
        "seat": "red", "referee_key": crypto.key_to_text(PrivateKey.generate().public_key),
        "sign_key": PublicSigner.generate().verify_key, "counter": 5, "board": board}))


def network_game(d):
    """The real system: broker, referee reading the simulated board, two tablets over MQTT.

    Pairing, setups and moves are done with fingers on the tablets and on the board window.
    """
    from companion_app.demo.board_window import BoardWindow
    from companion_app.demo.system import DemoSystem
    from companion_app.net.network import network_link_factory

    system = DemoSystem()
    system.start()
    d.on_finish = system.stop
    _stale_red_credentials(system.board_name)
    factory = network_link_factory()
    red, blue = TabletRoot(factory), TabletRoot(factory)
    window = BoardWindow(system)
    d.show(red, window, blue)
    yield 0.2
    board = window.board
    # Pairing: each tablet names two squares; pieces put there on the board grant the seat.
    for root, seat in ((red, "red"), (blue, "blue")):
        root.connect(system.url, seat)
        yield from _until(lambda r=root: bool((r.state.pairing or {}).get("squares")),
                          what=lambda r=root: f"pairing ({r.state.pairing}, board {system.referee.occupancy})")
        squares = root.state.pairing["squares"]
        d.report[f"{seat}_pairing_square"] = squares
        yield 0.2
        if seat == "red":
            d.shot("pairing-red", red)
        for square in squares:
            d.tap(board, *board.square_center(square))
        yield from _until(lambda r=root: r.screens.current == "setup", what=f"{seat} seat")
        for square in squares:
            d.drag(board, board.square_center(square), (board.right + 30, board.center_y))
        yield 0.2
    # Setups: the Random button, then the send button, on each tablet.
    setup_rng = random.Random(12)
    for root in (red, blue):
        screen = root.screen_by_name["setup"]
        d.tap(screen.random_button, *screen.random_button.center)
        yield 0.1
        d.report.setdefault("random_filled", []).append(len(screen.draft.placed))
        # The same random setups every run, so the scripted game is the same every run.
        variant, color = screen.draft.variant, Color(screen.draft.color)  # the uniform random setups
        screen.draft.placed = {sq.name: kind for sq, kind in random_setup(variant, color, setup_rng).items()}
        screen.refresh(root.state)
        d.tap(screen.submit_button, *screen.submit_button.center)
    yield from _until(lambda: red.screens.current == "placing" and blue.screens.current == "placing",
                      what=lambda: f"the placement guide (screens {red.screens.current}, {blue.screens.current}; "
                                   f"{red.screen_by_name['setup'].status.text!r}, "
                                   f"{blue.screen_by_name['setup'].status.text!r})")
    yield 0.3
    placing = red.screen_by_name["placing"]
    d.report["placing_before"] = placing.progress.text
    # Each tablet's own key, and the keys the referee granted the seats, as its public state says.
    d.report["keys"] = {root.state.seat: [root.state.my_fingerprint, dict(root.state.fingerprints),
                                          root.screen_by_name["setup"].key_label.text]
                        for root in (red, blue)}
    # Red puts three pieces on the board by hand: the guide turns those squares green.
    first = placing._nearest_first(red.state.my_setup, "red", 10)[:3]
    for square in first:
        d.tap(board, *board.square_center(square))
        yield 0.15
    yield from _until(lambda: placing.progress.text == "3 / 40", what="three pieces sensed")
    yield 0.3
    d.report["placing_after_three"] = placing.progress.text
    d.report["green_squares"] = sorted(sq for sq, mark in placing.board.highlights.items()
                                       if mark == "sensed")
    d.report["first_three"] = sorted(first)
    d.report["placing_next"] = placing.next_label.text
    d.shot("network-placing")
    d.shot("placing-progress", red)
    d.tap(window.place_button, *window.place_button.center)
    yield from _until(lambda: red.screens.current == "game" and blue.screens.current == "game",
                      timeout=15, what="the game screens")
    d.report["connection"] = dict(red.state.connection)
    # Moves by dragging tokens on the board window; the script only chooses them.
    game = system.referee.session.game
    rng = random.Random(4)
    violations, battles, texts = [], 0, []
    for _ in range(14):
        if game.result is not None:
            break
        moves = game.legal_moves()
        attacks = [m for m in moves if game.piece_at(m.target) is not None]
        move = rng.choice(attacks if attacks and rng.random() < 0.6 else moves)
        ply, attack = game.ply, game.piece_at(move.target) is not None
        d.drag(board, board.square_center(move.origin.name), board.square_center(move.target.name))
        yield from _until(lambda p=ply: all((r.state.view or {}).get("ply", 0) > p for r in (red, blue)),
                          what=f"the ruling of {move}")
        if attack:
            battles += 1
            survivor = game.piece_at(move.target)
            yield 0.1
            if survivor is None:
                d.drag(board, board.square_center(move.target.name), (board.right + 30, board.center_y))
            elif survivor.color is not game.piece_at(move.target).color or \
                    survivor.color.value == game.to_move.value:
                # The defender won: lift the attacker off the target and put the defender back.
                d.tap(board, *board.square_center(move.target.name))
            texts.append((red.screen_by_name["game"].message.text, blue.screen_by_name["game"].message.text))
        yield from _until(lambda: (system.referee.board_check() or {}).get("matches"), timeout=10,
                          what=f"the board after {move}")
        yield 0.1  # the tablets draw the latest view on the next frame
        if not attack:
            yield from _until(lambda: red.state.guidance is None and blue.state.guidance is None,
                              timeout=3, what=f"no board guidance left after {move}")
        violations += _privacy_violations(red, game, Color.RED)
        violations += _privacy_violations(blue, game, Color.BLUE)
    d.report["battles"] = battles
    d.report["battle_texts"] = texts
    d.report["violations"] = violations
    d.report["plies"] = game.ply
    d.report["red_ply"] = red.state.view["ply"]
    d.report["blue_ply"] = blue.state.view["ply"]
    d.shot("network-game")
    d.shot("network-game-red", red)
    # Blue's app restarts mid-game: it keeps its seat (no pairing) and shows the game at once.
    blue.disconnect()
    yield 0.2
    blue.connect(system.url, "blue")
    yield from _until(lambda: blue.screens.current == "game"
                      and (blue.state.view or {}).get("ply") == game.ply,
                      what=lambda: f"blue back in the game (screen {blue.screens.current}, phase "
                      f"{blue.state.phase}, view ply {(blue.state.view or {}).get('ply')}, game ply "
                      f"{game.ply}, pairing {blue.state.pairing}, link paired {blue.link.client.paired})")
    d.report["blue_back_without_pairing"] = blue.state.pairing is None
    yield from _takeback_over_mqtt(d, system, board, red, blue)
    # A draw offered and accepted with the buttons, over MQTT.
    red_screen, blue_screen = red.screen_by_name["game"], blue.screen_by_name["game"]
    d.tap(red_screen.draw_button, *red_screen.draw_button.center)
    yield from _until(lambda: blue.state.draw_offer_from == "red", what="the draw offer")
    yield 0.1
    d.tap(blue_screen.accept_button, *blue_screen.accept_button.center)
    yield from _until(lambda: red.screens.current == "over" and blue.screens.current == "over",
                      what="the end screens")
    yield 0.2
    d.report["result"] = red.screen_by_name["over"].result.text
    d.shot("network-over")
    # The referee goes away (a power cut): the tablets say so.
    window.stop()
    system.referee.stop()
    system.referee = None
    yield from _until(lambda: red.state.connection.get("referee") == "offline", what="referee offline")
    d.report["referee_light_after_stop"] = red.state.connection.get("referee")
    red.disconnect()
    blue.disconnect()


def _takeback_over_mqtt(d, system, board, red, blue):
    """A quiet move on the board, taken back with the buttons; the token is put back by hand."""
    game = system.referee.session.game
    move = next(m for m in game.legal_moves() if game.piece_at(m.target) is None)
    mover = red if game.to_move is Color.RED else blue
    other = blue if mover is red else red
    ply = game.ply
    d.drag(board, board.square_center(move.origin.name), board.square_center(move.target.name))
    yield from _until(lambda: all((r.state.view or {}).get("ply") == ply + 1 for r in (red, blue)),
                      what=f"the ruling of {move}")
    asker, answerer = mover.screen_by_name["game"], other.screen_by_name["game"]
    d.tap(asker.takeback_button, *asker.takeback_button.center)
    yield from _until(lambda: other.state.takeback_from == mover.state.seat, what="the takeback request")
    yield 0.1
    d.report["takeback_offer_text"] = answerer.offer_label.text
    d.tap(answerer.accept_button, *answerer.accept_button.center)
    yield from _until(lambda: all((r.state.view or {}).get("ply") == ply and r.state.guidance
                                  for r in (red, blue)), what="the takeback on both tablets")
    yield 0.1
    d.report["takeback_move"] = str(move)
    d.report["takeback_guidance"] = dict(mover.state.guidance)
    d.report["takeback_mover_text"] = asker.message.text
    d.shot("network-takeback", mover)
    # The player moves the token back; the board matches the game again.
    d.drag(board, board.square_center(move.target.name), board.square_center(move.origin.name))
    yield from _until(lambda: (system.referee.board_check() or {}).get("matches"), timeout=10,
                      what="the board after the takeback")
    yield from _until(lambda: red.state.guidance is None and blue.state.guidance is None, timeout=3,
                      what="no guidance left after the takeback")
    d.report["takeback_ply"] = game.ply


def connect_finds_board(d):
    """A board announced by zeroconf appears on the connect screen; a tap fills the address."""
    from companion_app.net.network import network_link_factory
    from firmware_bridge.protocol.discovery import Announcer

    announcer = Announcer("kitchen", 1883, "k" * 44, "Kitchen table", addresses=["127.0.0.1"])
    announcer.start()
    d.on_finish = announcer.stop
    root = TabletRoot(network_link_factory(), find_boards=True)
    d.show(root)
    screen = root.screen_by_name["connect"]
    yield from _until(lambda: "Kitchen table" in screen.found, timeout=20, what="the announced board")
    yield 0.1
    d.report["found"] = dict(screen.found)
    d.report["label"] = screen.found_label.text
    button = screen.found_box.children[-1]
    d.tap(button, *button.center)
    yield 0.1
    d.report["address"] = screen.address.text
    d.shot("connect")
    root.set_language("de")
    yield 0.1
    d.report["title_de"] = screen.title.text


def _type_into(d, field, text: str) -> None:
    """A finger on the text field, what was in it deleted, `text` typed (through its input filter)."""
    d.tap(field, *field.center)
    field.select_all()
    field.delete_selection()
    field.insert_text(text)


def display_before_pairing(d):
    """The referee display (and a seat tablet) on the real referee, before and after pairing: the
    referee is there, but until the display has paired it reads nothing the referee publishes.
    The display is paired as a person does it: its pairing screen shows, the code the referee's
    console shows is typed into its field and sent with its button (a wrong code first)."""
    from companion_app.demo.system import DemoSystem
    from companion_app.net.network import network_link_factory
    from firmware_bridge.protocol import contract
    from tests.companion_app.layout_checks import steady
    from tests.companion_app.scenarios_sizes import _look

    system = DemoSystem()
    system.start(referee=False)  # the broker only: the display and the tablet ask before the referee listens
    d.on_finish = system.stop
    d.report.update(problems=[], looked=[], headings={}, texts={}, links={}, sent=[])
    factory = network_link_factory()
    display, red = TabletRoot(factory), TabletRoot(factory)
    d.show(display, size=(1024, 600))
    display.connect(system.url, None)
    red.connect(system.url, "red")
    # Their broker links are up and nobody answered yet: the display shows its (empty) game screen.
    yield from _until(lambda: display.state.connection.get("referee") == "unpaired"
                      and red.state.connection.get("referee") == "unpaired", what="the first status")
    d.report["asking"] = {"screen": display.screens.current, "pairing": display.state.pairing,
                          "turn": display.screen_by_name["display"].turn.text}
    for language in ("en", "de", "bg"):
        yield from _look(d, display, "display", "unpaired", ["1024x600", "800x1280"], language)
        d.report["links"][f"before {language}"] = display.screen_by_name["display"].links.text
    # The referee comes; it answers both (the console shows the display's code) and publishes
    # its info and presence, which reach the display held unread.
    system.start_referee()
    client = display.link.client
    topics = contract.Topics(system.board_name)
    yield from _until(lambda: "display" in system.codes and red.state.pairing is not None
                      and display.screens.current == "pairing"
                      and {topics.info, topics.presence("referee")} <= set(client._held),
                      what=lambda: f"the referee's answers: codes {sorted(system.codes)}, red {red.state.pairing}, "
                                   f"display on {display.screens.current}, held {sorted(client._held)}")
    d.report["before"] = {"display": display.state.connection.get("referee"),
                          "red": red.state.connection.get("referee"),
                          "info_used": client.info is not None, "referee_online": client.referee_online}
    screen = display.screen_by_name["pairing"]

    def shown() -> dict:
        return {"title": screen.title.text, "instruction": screen.instruction.text,
                "square": screen.square.text, "code_label": screen.code_label.text,
                "message": screen.message.text, "key": screen.key_label.text,
                "button": screen.send_code.text, "back": screen.cancel.text,
                "screen": display.screens.current, "referee": display.state.connection.get("referee"),
                "paired": client.paired, "top": display.top_bar.title.text}
    display.set_language("en")  # the last look was in Bulgarian
    d.report["challenge"] = shown()
    for language in ("en", "de", "bg"):
        yield from _look(d, display, "pairing", "display-code", ["1024x600", "800x1280"], language)
    display.set_language("en")
    yield from steady(display)  # laid out again: the field and the button where a finger finds them
    link_send = display.link.send  # what the button hands to the link (DisplayLink.send)
    display.link.send = lambda command, payload=None: (d.report["sent"].append([command, payload]),
                                                        link_send(command, payload))
    # A wrong code: said, and nothing else changes.
    code = system.codes["display"]
    _type_into(d, screen.code, f"{(int(code) + 1) % 10 ** 6:06d}")
    d.report["typed_wrong"] = screen.code.text
    d.tap(screen.send_code, *screen.send_code.center)
    yield from _until(lambda: (display.state.pairing or {}).get("reason") == "wrong-code"
                      and screen.message.text != "", what="the referee's answer to the wrong code, drawn")
    d.report["wrong"] = shown()
    for language in ("en", "de", "bg"):
        yield from _look(d, display, "pairing", "display-wrong", ["1024x600", "800x1280"], language)
        d.report[f"wrong {language}"] = screen.message.text
    display.set_language("en")
    yield from steady(display)
    # The right code, typed over the wrong one: the display is paired and shows the game.
    _type_into(d, screen.code, code)
    d.tap(screen.send_code, *screen.send_code.center)
    yield from _until(lambda: display.screens.current == "display"
                      and display.state.connection.get("referee") == "online", what="the paired display")
    d.report["after"] = display.state.connection.get("referee")
    d.report["after_screen"] = display.screens.current
    for language in ("en", "de", "bg"):
        yield from _look(d, display, "display", "paired", ["1024x600", "800x1280"], language)
        d.report["links"][f"after {language}"] = display.screen_by_name["display"].links.text
    red.disconnect()
    display.disconnect()
