"""The referee with a (simulated) board: pairing by a piece on a square, moves read from sensors."""

from __future__ import annotations

import random

import pytest

from engine import Move, Square
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard
from hardware.sim.hands import Hands
from tests.firmware_bridge.helpers import setup_dict, wait_until

VARIANT = "barrage"


@pytest.fixture
def board_table(mosquitto, tmp_path):
    board = SimulatedBoard(10, 10)
    referee = Referee(RefereeSettings("b2", tmp_path / "journal.db", mosquitto.url, variant=VARIANT))
    referee.attach_board(SimulatedSource(board))
    assert referee.start()
    clients = {seat: SeatClient(mosquitto.url, "b2", name=seat) for seat in ("red", "blue")}
    display = DisplayClient(mosquitto.url, "b2", sign_key=referee.signer.verify_key)
    for client in (*clients.values(), display):
        assert client.start()
    yield referee, board, clients, display
    for client in (*clients.values(), display):
        client.stop()
    referee.stop()


def pair_by_square(board: SimulatedBoard, client: SeatClient, seat: str, referee: Referee) -> list[str]:
    """Pair by presence: the tablet names two empty squares, a hand covers them on the board."""
    # The referee offers squares only once it has read the board (before that it asks for a code).
    assert wait_until(lambda: referee.occupancy is not None, 10)
    assert client.link.connected.wait(10)
    client.pair(seat)
    assert client.wait(lambda c: c.last_pairing is not None and c.last_pairing.get("squares"), 10), \
        client.last_pairing
    reply = client.last_pairing
    assert reply["status"] == "challenge" and reply["method"] == "squares"
    squares = [Square.parse(name) for name in reply["squares"]]
    assert len(set(squares)) == 2 and not set(squares) & set(board.occupied())
    for square in squares:
        board.place(square)
    assert client.wait(lambda c: c.paired, 10), f"covering the squares did not grant the seat: {client.last_pairing}"
    for square in squares:
        board.remove(square)
    return reply["squares"]


def test_a_seat_is_granted_by_pieces_on_the_two_squares_the_tablet_named(board_table):
    referee, board, clients, display = board_table
    squares = pair_by_square(board, clients["red"], "red", referee)
    assert all(Square.parse(s) not in referee.stratego.variant.lakes for s in squares)
    assert referee.session.seats["red"].name == "red"
    assert "blue" not in referee.session.seats


def test_moves_made_on_the_board_are_ruled_and_reach_both_tablets(board_table):
    referee, board, clients, display = board_table
    for seat in ("red", "blue"):
        pair_by_square(board, clients[seat], seat, referee)
    setups = {seat: setup_dict(VARIANT, seat, 4) for seat in ("red", "blue")}
    for seat, client in clients.items():
        command_id = client.setup(setups[seat])
        assert client.wait(lambda c, i=command_id: i in c.replies and c.replies[i]["ok"], 10)
    # Before the pieces stand on the board, the display says what is missing.
    assert display.wait(lambda c: c.state["phase"] == "playing" and c.state["board_check"]
                        and not c.state["board_check"]["matches"], 10)
    board.set_position([Square.parse(s) for setup in setups.values() for s in setup])
    assert display.wait(lambda c: c.state["board_check"]["reading"], 10)

    hands = Hands(board, random.Random(9))
    game = referee.session.game
    for _ in range(6):
        moves = [m for m in game.legal_moves() if game.piece_at(m.target) is None
                 and not referee.watcher.recognizer.scout_could_go_on(m)]
        move = random.Random(game.ply).choice(moves)
        seq = referee.session.seq
        hands.play(game, move)
        for client in clients.values():
            assert client.wait(lambda c, s=seq: c.seq == s + 1, 10), f"{move} was not ruled"
            assert client.view["last_move"] == str(move)
        assert wait_until(lambda: not board.pending())


def test_an_illegal_move_on_the_board_is_refused_and_announced(board_table):
    referee, board, clients, display = board_table
    for seat in ("red", "blue"):
        pair_by_square(board, clients[seat], seat, referee)
    setups = {seat: setup_dict(VARIANT, seat, 5) for seat in ("red", "blue")}
    for seat, client in clients.items():
        client.setup(setups[seat])
    assert display.wait(lambda c: c.state and c.state["phase"] == "playing", 10)
    board.set_position([Square.parse(s) for setup in setups.values() for s in setup])
    assert display.wait(lambda c: c.state["board_check"]["reading"], 10)
    events: list[dict] = []
    display.on_events = lambda e: events.extend(e["events"])
    game = referee.session.game
    # A blue piece moved while it is red's turn.
    blue_move = next(m for m in _any_moves(game, "blue"))
    ply = game.ply
    board.move(blue_move.origin, blue_move.target)
    assert wait_until(lambda: any(e["type"] == "refusal" for e in events))
    refusal = next(e for e in events if e["type"] == "refusal")
    assert refusal["color"] == "blue" and refusal["move"] == str(blue_move) and refusal["rule"] == "turn"
    assert game.ply == ply
    assert display.wait(lambda c: not c.state["board_check"]["matches"], 10)


def _any_moves(game, color: str):
    for square, piece in game.pieces():
        if piece.color.value != color or not game.variant.kinds[piece.kind].mobile:
            continue
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            target = Square(square.file + df, square.rank + dr)
            if game.variant.on_board(target) and game.piece_at(target) is None and target not in game.blocked:
                yield Move(square, target)
