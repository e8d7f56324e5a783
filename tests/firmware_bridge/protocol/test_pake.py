"""SPAKE2 pairing: the same code (or squares) and identities give one key; anything else gives none."""

import pytest

from firmware_bridge.protocol import pake

IDS = pake.Identities("kitchen", "red", "tab-1", "K" * 44, "A" * 44)


def exchange(tablet_password: bytes, referee_password: bytes, referee_ids: pake.Identities = IDS):
    tablet = pake.TabletExchange(tablet_password, IDS)
    message, keys = pake.referee_answer(referee_password, referee_ids, tablet.message_text)
    return tablet, message, keys


def test_the_same_code_confirms_both_ways_and_seals_the_grant():
    tablet, message, keys = exchange(pake.code_password("048213"), pake.code_password("048213"))
    tablet_keys = tablet.answer(message, keys.confirmation("referee"))
    keys.check("tablet", tablet_keys.confirmation("tablet"))
    sealed = pake.seal(keys.to_tablet, {"sign_key": "S" * 44})
    assert pake.open_sealed(tablet_keys.to_tablet, sealed) == {"sign_key": "S" * 44}


@pytest.mark.parametrize("referee_password, referee_ids", [
    (pake.code_password("048214"), IDS),  # a wrong code
    (pake.code_password("048213"), pake.Identities("kitchen", "blue", "tab-1", "K" * 44, "A" * 44)),  # another seat
    (pake.code_password("048213"), pake.Identities("kitchen", "red", "relay", "K" * 44, "A" * 44)),  # another client
    (pake.squares_password(["d5", "f4"]), IDS),  # squares for a code
])
def test_a_wrong_password_or_identity_does_not_confirm(referee_password, referee_ids):
    tablet, message, keys = exchange(pake.code_password("048213"), referee_password, referee_ids)
    with pytest.raises(pake.PakeError):
        tablet.answer(message, keys.confirmation("referee"))


def test_a_tablet_tries_only_a_few_answers():
    tablet = pake.TabletExchange(pake.code_password("048213"), IDS)
    for _ in range(pake.TabletExchange.MAX_ANSWERS):
        message, keys = pake.referee_answer(pake.code_password("111111"), IDS, tablet.message_text)
        with pytest.raises(pake.PakeError, match="does not check"):
            tablet.answer(message, keys.confirmation("referee"))
    with pytest.raises(pake.PakeError, match="too many"):
        tablet.answer(message, keys.confirmation("referee"))


@pytest.mark.parametrize("code", ["12345", "1234567", "12345a", "１２３４５６", "٣٣٣٣٣٣", " 123456", None])
def test_a_code_is_six_ascii_digits(code):
    with pytest.raises(pake.PakeError):
        pake.code_password(code)


def test_squares_are_two_distinct_square_names_in_any_order():
    assert pake.squares_password(["f4", "d5"]) == pake.squares_password(["d5", "f4"])
    for bad in (["d5"], ["d5", "d5"], ["d5", "f4", "e6"], ["d5", "zz"]):
        with pytest.raises(pake.PakeError):
            pake.squares_password(bad)
