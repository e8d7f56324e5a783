"""The referee's session: rulings journaled before they are announced, replay, clocks, commands."""

from __future__ import annotations

import random

import pytest
from nacl.public import PrivateKey

from engine import Color, get_variant, random_setup
from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.vocabulary import Command, EventType
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import CommandError, Session


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def command(seat: str, counter: int, kind: str, **args) -> dict:
    return {"v": 1, "id": f"{seat}-{counter}", "seat": seat, "counter": counter, "type": kind, "args": args}


def setup_args(variant: str, seat: str, seed: int) -> dict:
    setup = random_setup(get_variant(variant), Color(seat), random.Random(seed))
    return {"setup": {s.name: k for s, k in setup.items()}}


def started(tmp_path, variant="barrage", control=None, clock=None) -> Session:
    session = Session(Journal(tmp_path / "j.db"), variant, control, now=clock or Clock())
    session.pair("red", "r" * 44, "tab-r")
    session.pair("blue", "b" * 44, "tab-b")
    assert session.execute("red", command("red", 1, Command.SETUP, **setup_args(variant, "red", 1)))[0]["ok"]
    reply, rulings = session.execute("blue", command("blue", 1, Command.SETUP, **setup_args(variant, "blue", 2)))
    assert reply["ok"] and [r.kind for r in rulings] == [EventType.SETUP_READY, EventType.GAME_START]
    return session


def test_a_reopened_journal_gives_the_same_game_seats_and_counters(tmp_path):
    session = started(tmp_path)
    rng = random.Random(3)
    for counter in range(2, 30):
        seat = session.game.to_move.value
        session.execute(seat, command(seat, counter, Command.MOVE, move=str(rng.choice(session.game.legal_moves()))))
        if session.phase != "playing":
            break
    again = Session(Journal(tmp_path / "j.db"), "barrage")
    assert (again.game_id, again.seq, again.game.hash, again.game.ply) == \
           (session.game_id, session.seq, session.game.hash, session.game.ply)
    assert again.seats["red"].last_counter == session.seats["red"].last_counter
    assert again.seat_state("blue") == session.seat_state("blue")


def test_a_resent_command_after_a_restart_is_answered_from_the_journal_not_applied_again(tmp_path):
    session = started(tmp_path)
    move = str(session.game.legal_moves()[0])
    first, _ = session.execute("red", command("red", 5, Command.MOVE, move=move))
    again = Session(Journal(tmp_path / "j.db"), "barrage")
    reply, rulings = again.execute("red", command("red", 5, Command.MOVE, move=move))
    assert reply["duplicate"] and reply["seq"] == first["seq"] and rulings == []
    assert again.game.ply == 1


def test_nothing_is_announced_that_the_journal_did_not_take(tmp_path):
    session = started(tmp_path)
    before = (session.seq, session.game.ply)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    session.journal.append_all = broken
    with pytest.raises(OSError):
        session.execute("red", command("red", 9, Command.MOVE, move=str(session.game.legal_moves()[0])))
    assert (session.seq, session.game.ply) == before


def test_a_fallen_flag_loses_and_the_game_time_draws(tmp_path):
    clock = Clock()
    session = started(tmp_path / "a", control=TimeControl(player_seconds=30, increment=2), clock=clock)
    clock.now += 29
    assert session.tick() is None
    clock.now += 2
    ruling = session.tick()
    assert ruling.kind == EventType.GAME_END and session.game.result.winner is Color.BLUE
    clock = Clock()
    session = started(tmp_path / "b", control=TimeControl(game_seconds=60), clock=clock)
    clock.now += 61
    session.tick()
    assert session.game.result.winner is None


def test_the_clock_restarts_where_the_journal_left_it(tmp_path):
    clock = Clock()
    session = started(tmp_path, control=TimeControl(player_seconds=300, increment=5), clock=clock)
    clock.now += 40
    session.execute("red", command("red", 9, Command.MOVE, move=str(session.game.legal_moves()[0])))
    clock.now += 1000  # the referee was off: downtime is nobody's time
    again = Session(Journal(tmp_path / "j.db"), "barrage", now=clock)
    clocks = again.clock.to_dict(clock.now)
    assert clocks["red"] == pytest.approx(265) and clocks["blue"] == pytest.approx(300)
    assert clocks["running"] == "blue"


def test_a_board_move_by_the_wrong_side_is_a_refusal_naming_that_side(tmp_path):
    session = started(tmp_path)
    blue_piece = next(s for s, p in session.game.pieces() if p.color is Color.BLUE
                      and session.game.variant.kinds[p.kind].mobile)
    from engine import Move, Square

    ruling = session.board_move(Move(blue_piece, Square(blue_piece.file, blue_piece.rank - 1)))
    assert ruling.kind == EventType.REFUSAL and ruling.public_events[0]["color"] == "blue"
    assert session.game.ply == 0


def test_commands_for_an_unpaired_seat_are_refused(tmp_path):
    session = Session(Journal(tmp_path / "j.db"), "barrage")
    with pytest.raises(CommandError) as error:
        session.execute("red", command("red", 1, Command.RESIGN))
    assert error.value.code == "not-paired"


def test_the_biggest_private_snapshot_fits_the_fixed_envelope(tmp_path):
    session = started(tmp_path, variant="classic")
    channel = crypto.Channel(PrivateKey.generate(), PrivateKey.generate().public_key)
    topic = "arbiter/v1/" + "x" * 32 + "/seat/red/state"
    envelope = channel.seal({"topic": topic, "game": session.game_id, "seq": 10**9}, session.seat_state("red"))
    assert len(envelope) == crypto.ENVELOPE_SIZE


def test_a_move_is_taken_back_only_when_the_opponent_agrees(tmp_path):
    clock = Clock()
    session = started(tmp_path, control=TimeControl(player_seconds=300), clock=clock)
    start_hash = session.game.hash
    move = str(session.game.legal_moves()[0])
    session.execute("red", command("red", 5, Command.MOVE, move=move))
    clock.now += 10
    with pytest.raises(CommandError):
        session._plan("blue", command("blue", 5, Command.ACCEPT_TAKEBACK))
    assert session.execute("red", command("red", 6, Command.OFFER_TAKEBACK))[0]["ok"]
    assert session.takeback_offer == "red"
    reply, rulings = session.execute("blue", command("blue", 6, Command.ACCEPT_TAKEBACK))
    assert reply["ok"] and rulings[0].public_events == [{"type": "takeback", "move": move, "ply": 0}]
    assert session.game.ply == 0 and session.game.hash == start_hash
    assert session.clock.running == "red" and session.takeback_offer is None
    again = Session(Journal(tmp_path / "j.db"), "barrage", now=clock)
    assert again.game.ply == 0 and again.game.hash == start_hash


def test_a_declined_takeback_changes_nothing_but_the_offer(tmp_path):
    session = started(tmp_path)
    session.execute("red", command("red", 5, Command.MOVE, move=str(session.game.legal_moves()[0])))
    session.execute("blue", command("blue", 5, Command.OFFER_TAKEBACK))
    reply, _ = session.execute("red", command("red", 6, Command.DECLINE_TAKEBACK))
    assert reply["ok"] and session.game.ply == 1 and session.takeback_offer is None
    assert session.execute("red", command("red", 7, Command.ACCEPT_TAKEBACK))[0]["code"] == "no-offer"


def test_a_refused_board_move_names_the_piece_only_to_its_owner(tmp_path):
    from engine import Move, Square

    session = Session(Journal(tmp_path / "j.db"), "barrage")
    session.pair("red", "r" * 44, "tab-r")
    session.pair("blue", "b" * 44, "tab-b")
    red = {"a1": "flag", "b1": "bomb", "c1": "marshal", "d1": "general", "e1": "miner",
           "f1": "scout", "g1": "scout", "h1": "spy"}
    session.execute("red", command("red", 1, Command.SETUP, setup=red))
    session.execute("blue", command("blue", 1, Command.SETUP, **setup_args("barrage", "blue", 2)))
    bomb_move = Move(Square.parse("b1"), Square.parse("b2"))
    ruling = session.board_move(bomb_move)
    assert ruling.kind == EventType.REFUSAL
    assert "bomb" in ruling.seat_events["red"][0]["message"]
    for event in (ruling.public_events[0], ruling.seat_events["blue"][0]):
        assert "bomb" not in event["message"] and event["move"] == "b1-b2"
    marshal_jump = session.board_move(Move(Square.parse("c1"), Square.parse("c3")))
    assert "marshal" in marshal_jump.seat_events["red"][0]["message"]
    assert "marshal" not in str(marshal_jump.public_events) + str(marshal_jump.seat_events["blue"])
