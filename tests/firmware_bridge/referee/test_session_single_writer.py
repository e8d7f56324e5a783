"""The session is the one writer of a game: one check and one push per move, the clock handed
over from the events the push returns, the journal written before anything is announced, and
nothing kept in memory that the journal did not take."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable

import pytest

from engine import (
    Color,
    GameEndEvent,
    Move,
    MoveEvent,
    Square,
    TurnEvent,
)
from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.vocabulary import OLD_RULING_NAMES, Command, EventType
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.rulings import clock_handover
from firmware_bridge.referee.service import Referee, RefereeSettings
from firmware_bridge.referee.session import CommandError, Session
from tests.firmware_bridge.referee.test_session import Clock, command, setup_args


def start(session: Session, variant: str = "barrage") -> Session:
    for seat in ("red", "blue"):
        session.pair(seat, crypto.key_to_text(crypto.PrivateKey.generate().public_key), f"tab-{seat}")
    for counter, seat in enumerate(("red", "blue"), start=1):
        reply, _ = session.execute(seat, command(seat, counter, Command.SETUP, **setup_args(variant, seat, counter)))
        assert reply["ok"]
    return session


def started(tmp_path, variant="barrage", control=None, clock=None, name="j.db") -> Session:
    return start(Session(Journal(tmp_path / name), variant, control, now=clock or Clock()), variant)


def count_engine_calls(game) -> Counter:
    """Wrap the game's check, push and pop (push's own check is counted too) and count the calls."""
    calls: Counter = Counter()

    def counting(name: str, inner: Callable) -> Callable:
        def counted(*args, **kwargs):
            calls[name] += 1
            return inner(*args, **kwargs)
        return counted

    for name in ("check", "push", "pop"):
        setattr(game, name, counting(name, getattr(game, name)))
    return calls


def quiet_move(game) -> Move:
    """A legal move onto an empty square by a piece that is no scout (ruled as soon as the board settles)."""
    return next(m for m in game.legal_moves() if game.piece_at(m.target) is None
                and not game.variant.kinds[game.piece_at(m.origin).kind].scout)


def quiet_moves(game, color: Color) -> list[Move]:
    """Steps of one square onto an empty square that ``color``'s movable pieces could make."""
    moves = []
    for square, piece in game.pieces():
        kind = game.variant.kinds[piece.kind]
        if piece.color is not color or not kind.mobile:
            continue
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            target = Square(square.file + df, square.rank + dr)
            if game.variant.on_board(target) and target not in game.blocked and game.piece_at(target) is None:
                moves.append(Move(square, target))
    return moves


def state_of(session: Session) -> tuple:
    game = session.game
    return (session.seq, session.draw_offer, session.takeback_offer, session.clock.running,
            game.ply, game.hash, game.result, game.to_move, list(game.move_stack))


# --- one check, one push -------------------------------------------------------------------------

def test_a_board_move_is_checked_once_and_pushed_once(tmp_path):
    session = started(tmp_path)
    calls = count_engine_calls(session.game)
    ruling = session.board_move(quiet_move(session.game))
    assert ruling.kind == EventType.MOVE
    assert calls == Counter(check=1, push=1), "no probe: no second check, no push-then-pop"


def test_a_tablet_move_is_checked_once_and_pushed_once(tmp_path):
    session = started(tmp_path)
    calls = count_engine_calls(session.game)
    reply, rulings = session.execute("red", command("red", 5, Command.MOVE, move=str(quiet_move(session.game))))
    assert reply["ok"] and [r.kind for r in rulings] == [EventType.MOVE]
    assert calls == Counter(check=1, push=1)


def test_a_refused_board_move_is_checked_once_and_changes_nothing(tmp_path):
    session = started(tmp_path)
    before = state_of(session)
    calls = count_engine_calls(session.game)
    bomb = next(s for s, p in session.game.pieces() if p.color is Color.RED and p.kind == "bomb")
    ruling = session.board_move(Move(bomb, Square(bomb.file, bomb.rank + 1)))
    assert ruling.kind == EventType.REFUSAL and "cannot move" in ruling.seat_events["red"][0]["message"]
    assert calls["check"] == 1 and calls["pop"] == 0
    assert state_of(session)[1:] == before[1:] and session.seq == before[0] + 1  # only the refusal's number


def test_a_refused_tablet_move_is_checked_once_and_changes_nothing(tmp_path):
    session = started(tmp_path)
    before = state_of(session)
    calls = count_engine_calls(session.game)
    reply, rulings = session.execute("red", command("red", 5, Command.MOVE, move="a1-a9"))
    assert not reply["ok"] and reply["code"] == "illegal" and rulings == []
    assert calls["check"] == 1 and calls["pop"] == 0
    assert state_of(session) == before


def test_through_the_whole_referee_a_move_seen_on_the_board_is_checked_once_and_pushed_once(tmp_path):
    referee = Referee(RefereeSettings(board="count", journal_path=tmp_path / "j.db",
                                      broker_url="mqtt://127.0.0.1:9"))  # never started: no broker
    try:
        session = start(referee.session, "classic")
        referee.session.board_input = True
        game = session.game
        occupied = {s.name for s in game.occupied()}
        referee.on_board(occupied)
        assert referee.watcher.check()["matches"]
        move = quiet_move(game)
        calls = count_engine_calls(game)
        referee.on_board(occupied - {move.origin.name})
        referee.on_board(occupied - {move.origin.name} | {move.target.name})
        assert game.ply == 1 and game.last_move == move
        # Before: the recogniser's check, the session's check, a push-then-pop probe, the push.
        assert calls == Counter(check=1, push=1)
        assert referee.last_board_check["matches"], "the recogniser was handed the new position at once"
        # Red moves again, out of turn: reported once the board holds still, refused by the session.
        again = next(m for m in quiet_moves(game, Color.RED) if m.origin != move.target)
        occupied = {s.name for s in game.occupied()}
        calls.clear()
        seq = referee.session.seq
        referee.on_board(occupied - {again.origin.name})
        referee.on_board(occupied - {again.origin.name} | {again.target.name})
        referee.poll_board(time.monotonic() + 5.0)
        assert calls == Counter(check=1, push=1) and game.ply == 1
        assert referee.session.seq == seq + 1 and referee.last_board_ruling[0].move == again
        assert referee.watcher.last_illegal == again  # the LEDs show the move to take back
    finally:
        referee.journal.close()


# --- the clock is handed over from the push's events ------------------------------------------

def test_the_clock_passes_as_the_events_of_the_push_say():
    move = MoveEvent("red", 3, "spy", "c3-c4", 1)
    assert clock_handover([move]) == ("red", False), "Espionage: the second move of the turn is due"
    assert clock_handover([move, TurnEvent("blue", 2, 1)]) == ("blue", True)
    passed = [move, TurnEvent("blue", 2, 1), TurnEvent("red", 3, 1)]  # Blue was blocked and passed
    assert clock_handover(passed) == ("red", True)
    assert clock_handover([move, GameEndEvent("red", "flag-captured", 1)]) == (None, False)


def test_in_espionage_the_clock_stays_with_the_mover_until_the_turn_ends(tmp_path):
    clock = Clock()
    session = started(tmp_path, "espionage", TimeControl(player_seconds=300, increment=5), clock)
    clock.now += 10
    session.board_move(quiet_move(session.game))
    assert session.clock.running == "red" and session.clock.remaining("red", clock.now) == 290
    clock.now += 10
    session.board_move(quiet_move(session.game))
    assert session.clock.running == "blue"
    assert session.clock.remaining("red", clock.now) == 285  # 20 s spent, the increment at the turn's end


# --- journal first; nothing unjournalled is kept ------------------------------------------------

def break_journal(session: Session) -> None:
    def broken(*args, **kwargs):
        raise OSError("disk full")

    session.journal.append_all = broken


def test_a_move_the_journal_refuses_is_taken_back_in_memory_and_not_announced(tmp_path):
    session = started(tmp_path)
    before, position = state_of(session), session.position
    break_journal(session)
    with pytest.raises(OSError):
        session.board_move(quiet_move(session.game))
    assert state_of(session) == before
    assert session.position == position, "the board reader is not told of a move that does not exist"


@pytest.mark.parametrize("what", ["takeback", "resign", "draw offer", "setups"])
def test_every_ruling_the_journal_refuses_leaves_the_session_as_it_was(tmp_path, what):
    clock = Clock()
    if what == "setups":
        session = Session(Journal(tmp_path / "j.db"), "barrage", now=clock)
        session.pair("red", "r" * 44, "tab-r")
        session.pair("blue", "b" * 44, "tab-b")
        session.execute("red", command("red", 1, Command.SETUP, **setup_args("barrage", "red", 1)))
        before = (session.seq, dict(session.setups), session.game)
        break_journal(session)
        with pytest.raises(OSError):
            session.execute("blue", command("blue", 1, Command.SETUP, **setup_args("barrage", "blue", 2)))
        assert (session.seq, session.setups, session.game) == before
        return
    session = started(tmp_path, control=TimeControl(player_seconds=300), clock=clock)
    session.execute("red", command("red", 5, Command.MOVE, move=str(quiet_move(session.game))))
    if what == "takeback":
        session.execute("red", command("red", 6, Command.OFFER_TAKEBACK))
        attempt = command("blue", 6, Command.ACCEPT_TAKEBACK)
    elif what == "resign":
        attempt = command("blue", 6, Command.RESIGN)
    else:
        attempt = command("blue", 6, Command.OFFER_DRAW)
    before, view = state_of(session), session.game.view(Color.RED).to_dict()
    clock.now += 7
    break_journal(session)
    with pytest.raises(OSError):
        session.execute("blue", attempt)
    assert state_of(session) == before
    assert session.game.view(Color.RED).to_dict() == view
    del session.journal.append_all  # the disk has room again: the same command now goes through
    reply, _ = session.execute("blue", attempt)
    assert reply["ok"]
    again = Session(Journal(tmp_path / "j.db"), "barrage", now=clock)
    assert state_of(again)[:3] + state_of(again)[4:] == state_of(session)[:3] + state_of(session)[4:]


def test_replaying_the_journal_gives_exactly_the_state_the_rulings_left(tmp_path):
    clock = Clock()
    session = started(tmp_path, control=TimeControl(player_seconds=600, increment=2), clock=clock)
    rng = random.Random(5)
    counter = 10
    for ply in range(40):
        game = session.game
        if session.phase != "playing":
            break
        clock.now += 3
        seat = game.to_move.value
        if ply % 7 == 3:  # a move the rules refuse, seen on the board
            bomb = next((s for s, p in game.pieces() if p.color is game.to_move and p.kind == "bomb"), None)
            if bomb is not None:
                session.board_move(Move(bomb, Square(bomb.file, bomb.rank + (1 if bomb.rank < 9 else -1))))
        if ply % 11 == 5:
            counter += 1
            session.execute(seat, command(seat, counter, Command.OFFER_DRAW))
        if ply % 13 == 6:
            counter += 1
            session.execute(seat, command(seat, counter, Command.OFFER_TAKEBACK))
            other = Color(seat).other.value
            counter += 1
            session.execute(other, command(other, counter, Command.ACCEPT_TAKEBACK))
        session.board_move(rng.choice(session.game.legal_moves()))
    again = Session(Journal(tmp_path / "j.db"), "barrage", now=clock)
    assert state_of(again) == state_of(session)
    assert again.position == session.position
    for seat in ("red", "blue"):
        assert again.seat_state(seat) == session.seat_state(seat)
    assert again.clock.to_dict(clock.now) == session.clock.to_dict(clock.now)


def test_a_journal_written_with_the_old_ruling_names_still_replays(tmp_path):
    session = started(tmp_path, control=TimeControl(player_seconds=300), clock=Clock())
    for counter in range(2, 6):
        seat = session.game.to_move.value
        session.execute(seat, command(seat, counter, Command.MOVE, move=str(quiet_move(session.game))))
    session.execute("red", command("red", 9, Command.OFFER_DRAW))
    session.execute("blue", command("blue", 9, Command.DECLINE_DRAW))
    session.execute("red", command("red", 10, Command.RESIGN))
    # The same entries as an older referee wrote them: setup, start, offer, decline, end.
    old_names = {new: old for old, new in OLD_RULING_NAMES.items()}
    old = Journal(tmp_path / "old.db")
    for entry in session.journal.entries():
        old.append(entry.game, old_names.get(entry.kind, entry.kind), entry.payload)
    assert {e.kind for e in old.entries()} >= {"setup", "start", "offer", "decline", "end"}
    again = Session(old, "barrage", now=Clock())
    assert state_of(again)[:3] + state_of(again)[4:] == state_of(session)[:3] + state_of(session)[4:]
    assert again.phase == "over" and again.game.result.winner is Color.BLUE


def test_a_board_move_after_the_end_is_no_ruling(tmp_path):
    session = started(tmp_path)
    session.execute("red", command("red", 5, Command.RESIGN))
    with pytest.raises(CommandError):
        session.board_move(Move.parse("a4-a5"))


def test_a_takeback_agreed_on_the_tablets_reaches_the_board_reader_at_its_next_poll(tmp_path):
    referee = Referee(RefereeSettings(board="takeback", journal_path=tmp_path / "j.db",
                                      broker_url="mqtt://127.0.0.1:9"))  # never started: no broker
    try:
        session = start(referee.session, "classic")
        session.board_input = True
        game = session.game
        occupied = {s.name for s in game.occupied()}
        referee.on_board(occupied)
        move = quiet_move(game)
        after = occupied - {move.origin.name} | {move.target.name}
        referee.on_board(occupied - {move.origin.name})
        referee.on_board(after)
        assert game.ply == 1 and referee.last_board_check["matches"]
        session.execute("red", command("red", 10, Command.OFFER_TAKEBACK))
        session.execute("blue", command("blue", 10, Command.ACCEPT_TAKEBACK))
        assert game.ply == 0
        referee.poll_board(time.monotonic())  # the sensor feed's next poll: the snapshot is republished
        check = referee.last_board_check
        assert not check["matches"] and (check["clear"], check["fill"]) == ([move.target.name], [move.origin.name])
    finally:
        referee.journal.close()
