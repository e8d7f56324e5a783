"""Signed public messages: only the referee's key makes a state, an event or an info that verifies."""

import json

import pytest

from firmware_bridge.protocol import contract
from firmware_bridge.protocol.signing import (
    PAIRING_DOMAIN,
    PublicSigner,
    RefereePin,
    SignatureError,
    split_signature,
    verify,
)

TOPIC = "arbiter/v1/kitchen/state"


def state(seq: int = 3, result: dict | None = None) -> bytes:
    return contract.encode("state", {"v": 1, "board": "kitchen", "game": "g1", "seq": seq,
                                     "phase": "playing", "view": {"result": result}, "seats": {}})


def test_a_signed_payload_stays_valid_json_that_old_clients_read():
    signed = PublicSigner.generate().sign(TOPIC, state())
    decoded = contract.decode("state", signed)  # clients ignore fields they do not know
    assert decoded["seq"] == 3 and "sig" in decoded


def test_the_referee_key_verifies_and_returns_the_payload_byte_for_byte():
    signer = PublicSigner.generate()
    assert verify(signer.verify_key, TOPIC, signer.sign(TOPIC, state())) == state()


def test_a_stranger_cannot_forge_a_state_with_a_higher_seq_and_a_result():
    referee, stranger = PublicSigner.generate(), PublicSigner.generate()
    forged = stranger.sign(TOPIC, state(seq=1_000_003, result={"winner": "blue", "reason": "flag-captured"}))
    with pytest.raises(SignatureError):
        verify(referee.verify_key, TOPIC, forged)


def test_an_altered_payload_or_another_topic_does_not_verify():
    signer = PublicSigner.generate()
    signed = signer.sign(TOPIC, state())
    altered = signed.replace(b'"seq":3', b'"seq":9')
    with pytest.raises(SignatureError):
        verify(signer.verify_key, TOPIC, altered)
    with pytest.raises(SignatureError):
        verify(signer.verify_key, "arbiter/v1/hall-2/state", signed)


def test_an_unsigned_payload_is_refused_not_half_read():
    with pytest.raises(SignatureError, match="no referee signature"):
        split_signature(state())


def test_the_signing_key_survives_as_text():
    signer = PublicSigner.generate()
    again = PublicSigner.from_text(signer.seed_text)
    assert again.verify_key == signer.verify_key
    assert verify(signer.verify_key, TOPIC, again.sign(TOPIC, state())) == state()
    with pytest.raises(SignatureError):
        PublicSigner.from_text("not a key")


def info(signer: PublicSigner) -> bytes:
    return signer.sign("arbiter/v1/kitchen/info", json.dumps(
        {"v": 1, "board": "kitchen", "sign_key": signer.verify_key}, separators=(",", ":")).encode())


def test_a_pin_trusts_nothing_before_a_key_is_pinned_not_even_a_self_signed_info():
    referee, stranger = PublicSigner.generate(), PublicSigner.generate()
    pin = RefereePin()
    assert pin.open(TOPIC, referee.sign(TOPIC, state())) is None  # nothing to check it with yet
    assert pin.open("arbiter/v1/kitchen/info", info(stranger)) is None  # no trust on first use
    assert pin.key is None
    pin.pin(referee.verify_key)  # from the pairing grant, sealed under the SPAKE2 key
    assert pin.open(TOPIC, referee.sign(TOPIC, state())) == state()
    # A stranger's info with its own key, and its states, are dropped and counted.
    assert pin.open("arbiter/v1/kitchen/info", info(stranger)) is None
    assert pin.open(TOPIC, stranger.sign(TOPIC, state(seq=10**6))) is None
    assert pin.open(TOPIC, state()) is None
    assert pin.dropped == {"before-pin": 2, "bad-signature": 2, "unsigned": 1}
    assert pin.key == referee.verify_key


def test_a_pairing_signature_never_passes_for_the_referees():
    asker = PublicSigner.generate(PAIRING_DOMAIN)
    pin = RefereePin(asker.verify_key)
    assert pin.open(TOPIC, asker.sign(TOPIC, state())) is None
