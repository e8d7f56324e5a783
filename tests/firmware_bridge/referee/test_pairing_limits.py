"""Pairing codes cannot be ground down: they expire, and wrong guesses are limited per seat."""

from firmware_bridge.referee.pairing import (
    CHALLENGE_SECONDS,
    CODE_TRIES,
    SEAT_WINDOW_SECONDS,
    SEAT_WRONG_CODES,
    PairingDesk,
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def wrong(code: str) -> str:
    return "000000" if code != "000000" else "111111"


def guess_until_new_code(desk: PairingDesk, client: str) -> str:
    """Ask for the seat by code and waste every try of that code; return the last reason."""
    challenge = desk.request(client, "red", "k" * 44, "", empty_squares=None)
    reason = ""
    for _ in range(CODE_TRIES):
        found, reason = desk.code_entered(client, wrong(challenge.code or ""))
        assert found is None
    return reason


def test_a_code_expires():
    clock = Clock()
    desk = PairingDesk(clock=clock)
    challenge = desk.request("tablet-1", "red", "k" * 44, "", empty_squares=None)
    clock.now += CHALLENGE_SECONDS + 1
    found, reason = desk.code_entered("tablet-1", challenge.code or "")
    assert found is None and "expired" in reason


def test_asking_again_after_wrong_codes_gives_a_new_code_but_the_seat_counts_every_guess():
    clock = Clock()
    desk = PairingDesk(clock=clock)
    rounds = SEAT_WRONG_CODES // CODE_TRIES
    for _ in range(rounds):
        assert "ask for the seat again" in guess_until_new_code(desk, "stranger")
    # The seat has had its share of wrong guesses: even the right code is refused now.
    challenge = desk.request("stranger", "red", "k" * 44, "", empty_squares=None)
    found, reason = desk.code_entered("stranger", challenge.code or "")
    assert found is None and "too many wrong codes for the red seat" in reason


def test_the_seat_takes_codes_again_after_the_window():
    clock = Clock()
    desk = PairingDesk(clock=clock)
    for _ in range(SEAT_WRONG_CODES // CODE_TRIES):
        guess_until_new_code(desk, "stranger")
    clock.now += SEAT_WINDOW_SECONDS + 1
    challenge = desk.request("family", "red", "f" * 44, "", empty_squares=None)
    found, reason = desk.code_entered("family", challenge.code or "")
    assert found is challenge and reason == ""


def test_wrong_codes_for_one_seat_do_not_lock_the_other():
    clock = Clock()
    desk = PairingDesk(clock=clock)
    for _ in range(SEAT_WRONG_CODES // CODE_TRIES):
        guess_until_new_code(desk, "stranger")
    challenge = desk.request("family", "blue", "f" * 44, "", empty_squares=None)
    assert desk.code_entered("family", challenge.code or "") == (challenge, "")
