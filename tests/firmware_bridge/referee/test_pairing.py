"""The pairing desk: a request per asking key, a six-digit code or two squares, a few tries."""

from __future__ import annotations

from firmware_bridge.protocol import crypto
from firmware_bridge.referee.pairing import PER_SEAT, TRIES, PairingDesk, Refused

KEY = crypto.key_to_text(crypto.PrivateKey.generate().public_key)


def ask(desk: PairingDesk, asker: str, seat: str = "red", method: str = "code"):
    return desk.request(f"client-{asker}", seat, KEY, asker, f"tablet {asker}", method)


def test_without_a_board_each_request_gets_its_own_six_digit_code():
    desk = PairingDesk()
    first, second = ask(desk, "a"), ask(desk, "b")
    assert first.method == "code" and len(first.code) == 6 and first.code.isascii() and first.code.isdigit()
    assert first.code != second.code or first is not second
    assert first.notice() == {"seat": "red", "name": "tablet a", "fingerprint": first.fingerprint,
                              "method": "code"}
    assert first.code not in str(first.notice())


def test_with_a_board_a_request_waits_for_squares_and_has_no_code():
    request = ask(PairingDesk(), "a", method="squares")
    assert request.method == "squares" and request.code is None


def test_the_same_asker_asking_again_gets_the_same_request():
    desk = PairingDesk()
    assert ask(desk, "a") is ask(desk, "a")


def test_tries_are_used_up_by_the_asker_alone_and_then_the_request_is_void():
    desk = PairingDesk()
    request, other = ask(desk, "a"), ask(desk, "b")
    for _ in range(TRIES):
        desk.tried(request)
    assert "a" not in desk.pending and "b" in desk.pending and other.tries_left == TRIES


def test_a_grant_voids_the_other_requests_for_that_seat_only():
    desk = PairingDesk()
    red = ask(desk, "a")
    ask(desk, "b")
    ask(desk, "c", seat="blue")
    desk.granted(red)
    assert set(desk.pending) == {"c"}


def test_a_flood_of_requests_pushes_no_pending_request_out():
    desk = PairingDesk()
    player = ask(desk, "player")
    refused = 0
    for i in range(PER_SEAT * 4):
        try:
            ask(desk, f"stranger{i}")
        except Refused as error:
            refused += 1
            assert error.retry_after > 0
    assert desk.pending["player"] is player and refused == PER_SEAT * 4 - (PER_SEAT - 1)
