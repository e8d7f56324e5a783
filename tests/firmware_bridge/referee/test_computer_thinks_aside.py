"""The computer thinks off the referee's lock: a long think delays no ruling and no clock, and
an answer a ruling overtook is dropped (that ruling asked again)."""

from __future__ import annotations

import threading

from engine import Color, random_setup
from firmware_bridge.bot import ComputerPlayer
from firmware_bridge.protocol import crypto
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.service import Referee, RefereeSettings
from tests.firmware_bridge.helpers import wait_until

VARIANT = "barrage"


class HeldPlayer:
    """The real computer player, except that each think waits until the test releases it."""

    def __init__(self, variant: str, seat: str, level: str, seed: int | None) -> None:
        self.player = ComputerPlayer(variant, seat, level, seed)
        self.thinking = threading.Event()
        self.release = threading.Event()

    def choose_setup(self) -> dict[str, str]:
        return self.player.choose_setup()

    def on_update(self, view, events):
        self.thinking.set()
        assert self.release.wait(60), "the test never released the computer"
        return self.player.on_update(view, events)


def table(tmp_path, time_control: TimeControl | None = None) -> tuple[Referee, HeldPlayer]:
    """The computer plays red (it moves first), a tablet blue; both set up, the game runs."""
    referee = Referee(RefereeSettings("aside", tmp_path / "journal.db", "mqtt://127.0.0.1:9", variant=VARIANT,
                                      computer="red", computer_level="easy",
                                      time_control=time_control or TimeControl()))
    held: list[HeldPlayer] = []
    referee.board.follow_computer_choice(make_player=lambda *args: held.append(HeldPlayer(*args)) or held[-1])
    referee.announce()  # the computer takes its seat and sets up
    session = referee.session
    session.pair("blue", crypto.key_to_text(crypto.PrivateKey.generate().public_key), "tablet")
    setup = {s.name: k for s, k in random_setup(session.variant, Color.BLUE).items()}
    assert command(referee, "setup", setup=setup)["ok"]
    assert session.phase == "playing" and session.game.to_move is Color.RED
    assert held[0].thinking.wait(10), "the computer was asked for its move"
    return referee, held[0]


def command(referee: Referee, kind: str, **args) -> dict:
    """The blue tablet's command, ruled and announced as the service does (under its lock)."""
    record = referee.session.seats["blue"]
    counter = record.last_counter + 1
    with referee.lock:
        reply, rulings = referee.session.execute("blue", {"v": 1, "id": f"blue-{counter}", "seat": "blue",
                                                          "counter": counter, "type": kind, "args": args})
        referee.announce(rulings)
    return dict(reply)


def test_rulings_go_on_while_the_computer_thinks_and_its_overtaken_answer_is_dropped(tmp_path):
    referee, player = table(tmp_path)
    session, computer = referee.session, referee.computer
    try:
        # The think holds no lock: the referee's lock is free, and the tablet's offer is ruled
        # (and answered by the computer, which declines) while the computer is still thinking.
        assert referee.lock.acquire(timeout=10), "a thinking computer must not hold the referee's lock"
        referee.lock.release()
        seq = session.seq
        assert command(referee, "offer_draw")["ok"]
        assert session.seq == seq + 2 and session.draw_offer is None, "offered and declined meanwhile"
        assert session.game.ply == 0 and computer.move is None and not player.release.is_set()
        player.release.set()
        assert computer.wait_idle(30)
        assert computer.dropped == 1, "the answer to the question before the offer came too late"
        assert session.game.ply == 1, "the question the offer asked again was answered and ruled"
    finally:
        player.release.set()
        referee.board.close()
        referee.journal.close()


def test_a_clock_runs_out_while_the_computer_thinks(tmp_path):
    referee, player = table(tmp_path, TimeControl(player_seconds=0.5))
    session, computer = referee.session, referee.computer
    referee.ticker.start()
    try:
        assert wait_until(lambda: session.phase == "over", 20), "the clock ticks on during a think"
        assert session.game.result.reason == "clock" and session.game.result.winner is Color.BLUE
        player.release.set()
        assert computer.wait_idle(30)
        assert computer.dropped == 1 and session.game.ply == 0, "no move after the flag fell"
    finally:
        player.release.set()
        referee.ticker.stop()
        referee.board.close()
        referee.journal.close()
