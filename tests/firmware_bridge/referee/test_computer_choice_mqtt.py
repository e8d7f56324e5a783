"""Choosing "the computer" from a tablet: ``new_game`` with ``computer`` over a real broker."""

from __future__ import annotations

from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.referee.computer_seat import CLIENT
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard
from tests.firmware_bridge.helpers import pair_by_code, setup_dict, wait_until
from tests.firmware_bridge.referee.test_referee_board import pair_by_square


def settings(mosquitto, tmp_path) -> RefereeSettings:
    return RefereeSettings("choice", tmp_path / "journal.db", mosquitto.url, variant="barrage")


def connected(mosquitto, referee, *names: str) -> list:
    clients = [SeatClient(mosquitto.url, "choice", name=name) for name in names]
    clients.append(DisplayClient(mosquitto.url, "choice", sign_key=referee.signer.verify_key))
    for client in clients:
        assert client.start()
    return clients


def ask(client: SeatClient, **args) -> dict:
    command_id = client.new_game(**args)
    assert client.wait(lambda c: command_id in c.replies, 10)
    return client.replies[command_id]


def close(referee: Referee, clients: list) -> None:
    for client in clients:
        client.stop()
    referee.stop()


def test_a_tablet_makes_the_other_seat_the_computer_and_it_answers_the_tablets_moves(mosquitto, tmp_path):
    referee = Referee(settings(mosquitto, tmp_path))
    assert referee.start()
    red, display = clients = connected(mosquitto, referee, "Anna")
    try:
        pair_by_code(referee, red, "red")
        assert referee.computer is None
        reply = ask(red, computer="blue", level="easy")
        assert reply["ok"], reply
        assert referee.computer is not None and (referee.computer.seat, referee.computer.level) == ("blue", "easy")
        assert display.wait(lambda c: c.state["seats"]["blue"]["setup_ready"] and c.state["seats"]["blue"]["online"], 10), \
            "the computer took the blue seat and set up"
        assert referee.session.seats["blue"].client == CLIENT
        command_id = red.setup(setup_dict("barrage", "red", 3))
        assert red.wait(lambda c: command_id in c.replies and c.replies[command_id]["ok"], 10)
        game = referee.session.game
        assert game is not None and game.to_move.value == "red"
        with referee.lock:
            move = str(game.legal_moves()[0])
        command_id = red.move(move)
        assert red.wait(lambda c: command_id in c.replies, 10) and red.replies[command_id]["ok"]
        assert wait_until(lambda: game.ply >= 2 or game.result is not None), "the computer answered"
    finally:
        close(referee, clients)


def test_with_a_board_the_chosen_computers_first_move_is_shown_to_make(mosquitto, tmp_path):
    referee, board = Referee(settings(mosquitto, tmp_path)), SimulatedBoard(10, 10)
    referee.attach_board(SimulatedSource(board))
    assert referee.start()
    blue, display = clients = connected(mosquitto, referee, "Boris")
    try:
        pair_by_square(board, blue, "blue", referee)
        assert ask(blue, computer="red", level="easy")["ok"]
        assert display.wait(lambda c: c.state["seats"]["red"]["setup_ready"], 10)
        command_id = blue.setup(setup_dict("barrage", "blue", 2))
        assert blue.wait(lambda c: command_id in c.replies and c.replies[command_id]["ok"], 10)
        assert display.wait(lambda c: c.state["phase"] == "playing" and c.state.get("computer_move"), 10)
        shown = display.state["computer_move"]
        assert shown["seat"] == "red" and shown["level"] == "easy" and shown["move"] == str(referee.computer.move)
    finally:
        close(referee, clients)


def test_your_own_seat_is_refused_and_changes_nothing(mosquitto, tmp_path):
    referee = Referee(settings(mosquitto, tmp_path))
    assert referee.start()
    red, display = clients = connected(mosquitto, referee, "Anna")
    try:
        pair_by_code(referee, red, "red")
        game_id = referee.session.game_id
        own = ask(red, computer="red")
        assert not own["ok"] and own["code"] == "invalid-option" and "your own seat" in own["message"]
        assert referee.session.game_id == game_id and referee.computer is None
        assert referee.session.computer_entry == {}
    finally:
        close(referee, clients)


def test_two_tablets_at_the_table_one_plays_the_computer_and_the_other_is_told(mosquitto, tmp_path):
    referee = Referee(settings(mosquitto, tmp_path))
    assert referee.start()
    red, blue, display = clients = connected(mosquitto, referee, "Anna", "Boris")
    try:
        pair_by_code(referee, red, "red")
        pair_by_code(referee, blue, "blue")
        assert ask(red, computer="blue", level="easy")["ok"]
        assert blue.wait(lambda c: c.seat_lost == "blue", 10), "Blue's tablet was told it plays no more"
        assert blue.last_pairing["reason"] == "computer"
        assert referee.session.seats["blue"].client == CLIENT and referee.computer.seat == "blue"
        assert display.wait(lambda c: c.state["seats"]["blue"]["setup_ready"], 10), "the computer set up"
        # Blue's tablet asking for the seat again is told why not; the computer keeps it.
        blue.pair("blue")
        assert blue.wait(lambda c: c.last_pairing is not None and c.last_pairing["status"] == "refused", 10)
        assert blue.last_pairing["reason"] == "computer-seat"
        assert referee.session.seats["blue"].client == CLIENT and referee.computer.active
    finally:
        close(referee, clients)


def test_off_gives_the_seat_back_to_people_and_the_choice_survives_a_restart(mosquitto, tmp_path):
    referee = Referee(settings(mosquitto, tmp_path))
    assert referee.start()
    red, blue, display = clients = connected(mosquitto, referee, "Anna", "Boris")
    try:
        pair_by_code(referee, red, "red")
        assert ask(red, computer="blue", level="easy")["ok"]
        assert display.wait(lambda c: c.state["seats"]["blue"]["setup_ready"], 10)
        referee.stop()
        referee = Referee(settings(mosquitto, tmp_path))  # restarted: the journal names the computer
        assert referee.start()
        assert referee.computer is not None and (referee.computer.seat, referee.computer.level) == ("blue", "easy")
        assert ask(red, computer="off")["ok"]
        assert referee.computer is None
        assert display.wait(lambda c: not c.state["seats"]["blue"]["online"], 10), "nobody plays blue now"
        pair_by_code(referee, blue, "blue")  # a person takes the seat the usual way
        for client, color in ((red, "red"), (blue, "blue")):
            command_id = client.setup(setup_dict("barrage", color, 5))
            assert client.wait(lambda c, i=command_id: i in c.replies and c.replies[i]["ok"], 10)
        assert display.wait(lambda c: c.state["phase"] == "playing", 10)
        assert referee.computer is None and display.state.get("computer_move") is None
        referee.stop()
        referee = Referee(settings(mosquitto, tmp_path))
        assert referee.start()
        assert referee.computer is None, "off survives a restart"
    finally:
        close(referee, clients)
