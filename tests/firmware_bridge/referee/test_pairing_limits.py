"""Pairing limits hold strangers to a few guesses, never lock out the player, and survive a restart."""

from __future__ import annotations

import pytest

from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.pairing import (
    ASKER_REQUESTS,
    CHALLENGE_SECONDS,
    SEAT_ATTEMPTS,
    TRIES,
    WINDOW_SECONDS,
    PairingDesk,
    Refused,
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def ask(desk: PairingDesk, asker: str, seat: str = "red"):
    return desk.request(f"client-{asker}", seat, "k" * 44, asker, asker, "code")


def waste(desk: PairingDesk, asker: str, seat: str = "red") -> None:
    request = ask(desk, asker, seat)
    for _ in range(TRIES):
        desk.tried(request)


def test_a_request_expires():
    clock = Clock()
    desk = PairingDesk(clock=clock)
    ask(desk, "a")
    clock.now += CHALLENGE_SECONDS + 1
    desk.expire()
    assert desk.pending == {}


def test_wrong_tries_make_new_requests_wait_but_leave_a_pending_one_its_tries():
    clock = Clock()
    desk = PairingDesk(wall_clock=clock)
    player = ask(desk, "player")
    for i in range(SEAT_ATTEMPTS // TRIES):
        waste(desk, f"stranger{i}")
    with pytest.raises(Refused) as refused:
        ask(desk, "late")
    assert 0 < refused.value.retry_after <= WINDOW_SECONDS + 1
    assert desk.pending["player"] is player and player.tries_left == TRIES
    clock.now += WINDOW_SECONDS + 1
    assert ask(desk, "late").tries_left == TRIES


def test_one_asking_key_opens_only_a_few_requests():
    clock = Clock()
    desk = PairingDesk(wall_clock=clock)
    for _ in range(ASKER_REQUESTS):
        waste(desk, "greedy", seat="blue")
    with pytest.raises(Refused):
        ask(desk, "greedy", seat="blue")
    assert ask(desk, "someone-else", seat="blue")


def test_limits_survive_a_restart(tmp_path):
    journal = Journal(tmp_path / "journal.db")
    desk = PairingDesk(journal)
    for i in range(SEAT_ATTEMPTS // TRIES):
        waste(desk, f"stranger{i}")
    journal.close()
    restarted = PairingDesk(Journal(tmp_path / "journal.db"))
    with pytest.raises(Refused):
        ask(restarted, "late")
    restarted.limits.journal.close()
