"""Pairing: a seat is granted by a piece on the named square, or by the console code."""

from __future__ import annotations

from firmware_bridge.referee.pairing import CODE_TRIES, PairingDesk


def test_the_named_square_is_empty_and_a_piece_there_grants_the_seat():
    desk = PairingDesk()
    challenge = desk.request("tab", "red", "key", "Anna", ["e5", "f5"], preferred={"e5", "f5"})
    assert challenge.method == "square" and challenge.square in ("e5", "f5")
    assert desk.placed(frozenset({"a1"})) == []
    assert desk.placed(frozenset({"a1", challenge.square})) == [challenge]
    assert desk.pending == {}


def test_without_a_board_a_six_digit_code_is_asked_and_never_sent_in_the_reply():
    desk = PairingDesk()
    challenge = desk.request("tab", "red", "key", "", None)
    assert challenge.method == "code" and len(challenge.code) == 6
    assert challenge.code not in str(challenge.reply())
    assert desk.code_entered("tab", challenge.code) == (challenge, "")


def test_wrong_codes_use_up_the_tries():
    desk = PairingDesk()
    challenge = desk.request("tab", "red", "key", "", None)
    wrong = "x" + challenge.code[1:]
    for _ in range(CODE_TRIES - 1):
        assert desk.code_entered("tab", wrong)[0] is None
    assert "too many" in desk.code_entered("tab", wrong)[1]
    assert desk.code_entered("tab", challenge.code)[0] is None


def test_granting_a_seat_voids_other_requests_for_it():
    desk = PairingDesk()
    first = desk.request("t1", "red", "k1", "", ["e5"])
    desk.request("t2", "red", "k2", "", ["e5"])
    desk.request("t3", "blue", "k3", "", None)
    assert desk.placed(frozenset({"e5"}))
    assert set(desk.pending) == {"t3"} and first.square == "e5"


def test_the_same_tablet_asking_again_gets_the_same_challenge():
    desk = PairingDesk()
    first = desk.request("t1", "red", "k1", "", None)
    assert desk.request("t1", "red", "k1", "", None) is first


def test_a_flood_of_requests_keeps_only_the_newest():
    from firmware_bridge.referee.pairing import MAX_PENDING

    desk = PairingDesk()
    for i in range(MAX_PENDING * 4):
        desk.request(f"t{i}", "red", f"k{i}", "", None)
    assert len(desk.pending) == MAX_PENDING and f"t{MAX_PENDING * 4 - 1}" in desk.pending


def test_two_tablets_waiting_at_once_are_given_different_squares():
    desk = PairingDesk()
    for _ in range(30):  # with one square each from two, a shared square would show at once
        red = desk.request("tablet-red", "red", "k1" * 22, "", ["e4", "e5"])
        blue = desk.request("tablet-blue", "blue", "k2" * 22, "", ["e4", "e5"])
        assert red.square != blue.square
        assert [c.seat for c in desk.placed({red.square})] == ["red"]  # one piece pairs one tablet
        desk.pending.clear()
