"""The computer at a seat of the real board: its move shown as guidance, made by hand, only that one."""

from __future__ import annotations

import json

from engine import Color, Move, Square
from firmware_bridge.protocol import contract
from firmware_bridge.referee.computer_seat import REFUSAL_RULE
from tests.firmware_bridge.referee.computer_table import ComputerTable


def test_the_computer_holds_its_seat_and_sets_up_through_the_session(tmp_path):
    table = ComputerTable(tmp_path, computer="blue")
    try:
        table.referee.announce()
        session = table.session
        assert session.seats["blue"].client == "computer"
        assert "blue" in session.setups and session.seats["blue"].last_counter == 1
        assert "red" not in session.seats, "the human's seat stays free for a tablet"
    finally:
        table.close()


def test_the_computers_move_is_shown_as_board_guidance_and_made_by_hand(tmp_path):
    table = ComputerTable(tmp_path, computer="red", seed=3)  # red moves first: the computer
    try:
        table.start()
        wanted = table.referee.computer.move
        assert wanted is not None
        state = table.referee.publisher.public_state()
        contract.validate("state", state)
        assert state["computer_move"]["move"] == str(wanted) and state["computer_move"]["seat"] == "red"
        step = {"action": "move", "square": wanted.origin.name, "to": wanted.target.name, "color": "red"}
        assert table.referee.board_check()["plan"][-1] == step
        assert table.play(wanted)
        game = table.session.game
        assert game.ply == 1 and game.last_move == wanted
        assert table.referee.computer.move is None, "now it is the human's turn (or the game is over)"
        if game.result is not None:
            return  # the computer found a flag in reach (it thinks by the clock, so under load it may)
        assert game.to_move.value == "blue"
        assert table.settle() and table.referee.board_check()["plan"] == []
    finally:
        table.close()


def test_another_move_of_a_computer_piece_is_refused_with_a_reason_and_guided_back(tmp_path):
    table = ComputerTable(tmp_path, computer="red", seed=4)
    try:
        table.start()
        game, wanted = table.session.game, table.referee.computer.move
        other = next(m for m in game.legal_moves()
                     if m != wanted and game.piece_at(m.target) is None and m.origin.distance(m.target) == 1)
        seq = table.session.seq
        assert table.play(other)
        assert game.ply == 0 and table.session.seq == seq + 1
        ruling = table.referee.last_board_ruling
        assert ruling[0].move == other
        check = table.referee.board_check()
        assert not check["matches"], "the piece is to be put back"
        assert table.settle()
        assert table.referee.computer.move == wanted, "the computer keeps the move it asked for"
        assert table.play(wanted) and game.last_move == wanted
    finally:
        table.close()


def test_the_refusal_names_the_computers_move_and_is_told_to_both_seats(tmp_path):
    table = ComputerTable(tmp_path, computer="red", seed=5)
    try:
        table.start()
        game, wanted = table.session.game, table.referee.computer.move
        other = next(m for m in game.legal_moves() if m.origin != wanted.origin and game.piece_at(m.target) is None)
        assert table.play(other)
        refusal = table.rulings[-1]
        assert refusal.kind == "refusal"
        for seat in ("red", "blue"):
            event = refusal.seat_events[seat][0]
            assert event["rule"] == REFUSAL_RULE and event["move"] == str(other)
            assert f"{wanted.origin.name} to {wanted.target.name}" in event["message"]
        assert table.referee.computer.refusal(wanted) is None
        assert table.referee.computer.refusal(other) is not None
    finally:
        table.close()


def test_a_human_piece_moved_in_the_computers_turn_is_refused_by_the_rules(tmp_path):
    table = ComputerTable(tmp_path, computer="red", seed=6)
    try:
        table.start()
        game = table.session.game
        blue = next(step_of(game, Color.BLUE))
        assert table.referee.computer.refusal(blue) is None
        assert table.play(blue)
        assert table.rulings[-1].seat_events["blue"][0]["rule"] == "turn" and game.ply == 0
    finally:
        table.close()


def step_of(game, color: Color):
    """One-square moves of ``color``'s movable pieces onto empty squares (whoever's turn it is)."""
    for square, piece in game.pieces():
        if piece.color is color and game.variant.kinds[piece.kind].mobile:
            for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                target = Square(square.file + df, square.rank + dr)
                if game.variant.on_board(target) and target not in game.blocked and game.piece_at(target) is None:
                    yield Move(square, target)


def human_command(table, kind: str, **args):
    """The person's tablet sends a command; the referee announces its rulings (as _on_command does)."""
    record = table.session.seats[table.human]
    reply, rulings = table.session.execute(table.human, {"v": 1, "id": f"h-{record.last_counter + 1}",
                                                         "seat": table.human, "counter": record.last_counter + 1,
                                                         "type": kind, "args": args})
    table.referee.announce(rulings)
    table.thought()
    return reply


def test_the_computer_declines_a_draw_grants_a_takeback_and_sets_up_again_for_a_new_game(tmp_path):
    table = ComputerTable(tmp_path, computer="red", seed=9)
    try:
        table.start()
        session, seat = table.session, table.referee.computer
        assert human_command(table, "offer_draw")["ok"]
        assert session.draw_offer is None and table.rulings[-1].kind == "draw_declined"
        wanted = seat.move
        assert table.play(wanted) and table.settle() and session.game.ply == 1
        assert human_command(table, "offer_takeback")["ok"]
        assert table.rulings[-1].kind == "takeback" and session.game.ply == 0
        assert seat.move is not None, "its move taken back, the computer chooses again"
        assert table.settle(), "the person puts the board back as guided"
        assert human_command(table, "resign")["ok"] and session.phase == "over"
        assert seat.public() is None
        old_game = session.game_id
        assert human_command(table, "new_game")["ok"] and session.game_id != old_game
        table.referee.announce()  # what the service does after a new game command
        table.thought()
        assert "red" in session.setups and session.phase == "setup"
    finally:
        table.close()


def test_the_computer_remembers_what_it_saw_of_the_persons_setup_beside_the_journal(tmp_path):
    table = ComputerTable(tmp_path, computer="red", level="normal", seed=4)
    try:
        table.start()
        assert table.play(table.referee.computer.move) and table.settle()
        if table.session.game.result is None:
            assert table.play(table.human_move()) and table.settle()
        if table.session.game.result is None:
            assert human_command(table, "resign")["ok"]
        (kept,) = (tmp_path / "recall").glob("table-*.barrage.json")
        (setup,) = json.loads(kept.read_text())["setups"]
        assert "moved" in setup["squares"] or any(kind not in (None, "moved") for kind in setup["squares"])
    finally:
        table.close()
