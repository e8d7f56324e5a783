"""What the referee sends, and only once: a lift changes the public board check and no seat's
snapshot, a hello or a new tablet gets every snapshot again, each snapshot carries the view of
its own ruling, and the clock ticker keeps a slow disk and idle games off the referee's lock."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from engine import Color
from firmware_bridge.protocol import crypto
from firmware_bridge.referee.clock_ticker import ClockTicker
from firmware_bridge.referee.downtime import Heartbeat
from firmware_bridge.referee.journal import JournalError
from firmware_bridge.referee.publishing import Publisher
from firmware_bridge.referee.seats import Seat
from firmware_bridge.referee.service import Referee, RefereeSettings
from firmware_bridge.referee.storage import StorageWatch
from tests.firmware_bridge.helpers import setup_dict

VARIANT = "barrage"


class CountingLink:
    """Stands in for the MQTT link: counts what goes to each topic, sends nothing."""

    def __init__(self) -> None:
        self.sent: Counter[str] = Counter()

    def publish(self, topic: str, payload: bytes, retain: bool = False, qos: int = 1) -> None:
        levels = topic.split("/")[3:]  # after arbiter/v1/<board>: "state", "seat/red/state", ...
        self.sent["/".join(levels[1:] if levels[0] == "seat" else levels)] += 1


def playing_referee(tmp_path) -> tuple[Referee, CountingLink]:
    """A referee of a board game with both seats paired and set up, publishing into a counter."""
    referee = Referee(RefereeSettings("b1", tmp_path / "journal.db", "mqtt://127.0.0.1:1", variant=VARIANT))
    link = CountingLink()
    referee.link.publish = link.publish  # type: ignore[method-assign]
    session = referee.stratego
    session.use_board()
    for counter, seat in enumerate(("red", "blue"), start=1):
        session.pair(seat, crypto.key_to_text(crypto.PrivateKey.generate().public_key), f"tab-{seat}")
        reply, _ = session.execute(seat, {"v": 1, "id": seat, "seat": seat, "counter": counter, "type": "setup",
                                          "args": {"setup": setup_dict(VARIANT, seat, counter)}})
        assert reply["ok"]
    referee.on_board(s.name for s in session.game.occupied())
    link.sent.clear()
    return referee, link


def plain_move(referee: Referee):
    game = referee.stratego.game
    recognizer = referee.watcher.recognizer
    return next(m for m in game.legal_moves()
                if game.piece_at(m.target) is None and not recognizer.is_scout_move(m))


def test_a_lift_sends_the_public_board_check_and_no_seat_snapshot(tmp_path):
    referee, link = playing_referee(tmp_path)
    occupied = {s.name for s in referee.stratego.game.occupied()}
    move, seq = plain_move(referee), referee.stratego.seq
    referee.on_board(occupied - {move.origin.name})
    assert link.sent == {"state": 1}  # the board check changed; no seat's view did
    assert referee.last_board_check["fill"] == [move.origin.name]  # the piece is in the hand
    link.sent.clear()
    referee.on_board(occupied - {move.origin.name} | {move.target.name})
    assert referee.stratego.seq == seq + 1
    assert link.sent == {"events": 1, "state": 1, "red/events": 1, "blue/events": 1,
                         "red/state": 1, "blue/state": 1}


def test_a_hello_sends_every_snapshot_again(tmp_path):
    referee, link = playing_referee(tmp_path)
    referee.republish()
    referee.republish()
    assert link.sent["red/state"] == link.sent["blue/state"] == 2  # a tablet that lost its own asks


class Outbox:
    """Records which seat snapshots went to which key."""

    def __init__(self, seats: dict) -> None:
        self.seats, self.sealed = seats, []

    def public(self, kind, body, retain=False):
        pass

    def to_seat(self, seat, kind, body, retain=False):
        self.sealed.append((seat, self.seats[seat].key))


class SameState:
    """A game table whose snapshots never change; only who holds a seat does."""

    def __init__(self) -> None:
        self.seats = {seat: Seat(key=f"{seat}-first", client=f"tab-{seat}") for seat in ("red", "blue")}

    def public_state(self, board, online):
        return {"v": 1}

    def seat_state(self, seat):
        return {"v": 1, "seat": seat, "seq": 7}

    def clocks(self):
        return None


def test_a_tablet_new_to_a_seat_gets_its_snapshot_though_nothing_else_changed():
    table = SameState()
    outbox = Outbox(table.seats)
    publisher = Publisher(table, outbox, "b1", online=set)
    publisher.snapshots()
    publisher.snapshots(only_changed=True)
    assert outbox.sealed == [("red", "red-first"), ("blue", "blue-first")]  # nothing new the second time
    table.seats["red"] = Seat(key="red-second", client="tab-red-2")  # a handover
    publisher.snapshots(only_changed=True)
    assert outbox.sealed[2:] == [("red", "red-second")]


def test_each_snapshot_shows_the_view_of_its_own_ruling_and_owns_it(tmp_path):
    referee, _ = playing_referee(tmp_path)
    session = referee.stratego
    for _ in range(6):
        first = session.seat_state("red")
        assert first["view"] == session.game.view(Color.RED).to_dict()
        assert session.public_state("b1", set())["view"] == session.game.view(None).to_dict()
        first["view"]["pieces"].clear()  # a consumer that changes its copy changes no other
        assert session.seat_state("red")["view"] == session.game.view(Color.RED).to_dict()
        referee.play(next(iter(session.game.legal_moves())))


def test_a_ruling_the_journal_refuses_leaves_no_view_of_it_behind(tmp_path):
    referee, _ = playing_referee(tmp_path)
    session = referee.stratego
    move = next(iter(session.game.legal_moves()))

    def refuse(*args, **kwargs):
        session.seat_state("blue")  # a view of the ruling being written, built before it failed
        raise JournalError("storage-full", "the disk is full")

    journal_append = session.journal.append_all
    session.journal.append_all = refuse  # type: ignore[method-assign]
    seq = session.seq
    with pytest.raises(JournalError):
        session.board_move(move)
    session.journal.append_all = journal_append  # type: ignore[method-assign]
    assert session.seq == seq
    other = next(m for m in session.game.legal_moves() if m != move)
    session.board_move(other)  # the same seq again, another move: its own view, not a stale one
    assert session.seat_state("blue")["view"] == session.game.view(Color.BLUE).to_dict()
    assert session.seat_state("blue")["view"]["last_move"] == str(other)


class Table:
    """The little of a game table the clock ticker asks."""

    game_id, seq = "g", 3

    def __init__(self, clocks: dict | None) -> None:
        self._clocks = clocks

    def tick(self):
        return None

    def clocks(self):
        return self._clocks

    def clock_checkpoint(self):
        return {}


def test_the_heartbeat_is_written_with_the_referee_s_lock_let_go(tmp_path):
    lock = threading.RLock()
    free_while_writing = []

    class Watched(Heartbeat):
        def beat(self, game, seq, clock):
            # Another thread (the sensors, a command) may take the lock while the disk is slow.
            other = threading.Thread(target=lambda: free_while_writing.append(lock.acquire(blocking=False)))
            other.start()
            other.join()
            super().beat(game, seq, clock)

    ticker = ClockTicker(Table(None), lock, Watched(tmp_path / "j.db"), lambda rulings: None,
                         StorageWatch(lambda: None))
    ticker.tick()
    assert free_while_writing == [True]
    assert ticker.heartbeat.read()["seq"] == 3


def test_a_game_without_time_control_is_ticked_only_when_its_heartbeat_is_due(tmp_path):
    heartbeat = Heartbeat(tmp_path / "j.db", every_s=1.0)
    idle = ClockTicker(Table(None), threading.RLock(), heartbeat, lambda rulings: None,
                       StorageWatch(lambda: None), period=0.1)
    idle.tick()
    assert idle.wait_s == 1.0  # no flag can fall: the heartbeat is all there is to do
    timed = ClockTicker(Table({"red": 60.0, "blue": 60.0, "game": None, "running": "red"}), threading.RLock(),
                        heartbeat, lambda rulings: None, StorageWatch(lambda: None), period=0.1)
    timed.tick()
    assert timed.wait_s == 0.1  # a running clock is watched ten times a second
