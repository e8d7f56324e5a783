"""End-to-end crypto: Box envelopes of fixed size, authenticated headers, sealed requests."""

from __future__ import annotations

import pytest
from nacl.public import PrivateKey

from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.crypto import Channel, CryptoError


@pytest.fixture
def keys():
    return PrivateKey.generate(), PrivateKey.generate(), PrivateKey.generate()


def test_the_intended_receiver_opens_what_was_sealed(keys):
    referee, tablet, _ = keys
    envelope = Channel(referee, tablet.public_key).seal({"topic": "t", "seq": 3}, {"kind": "marshal"})
    header, body = Channel(tablet, referee.public_key).open(envelope, expect={"topic": "t", "seq": 3})
    assert body == {"kind": "marshal"} and header["seq"] == 3


def test_every_envelope_has_the_same_length_whatever_it_holds(keys):
    referee, tablet, _ = keys
    channel = Channel(referee, tablet.public_key)
    small = channel.seal({}, {})
    large = channel.seal({"topic": "x" * 100}, {"pieces": [{"kind": "scout", "square": f"a{i}"} for i in range(80)]})
    assert len(small) == len(large) == crypto.ENVELOPE_SIZE


def test_a_third_key_cannot_open_an_envelope(keys):
    referee, tablet, intruder = keys
    envelope = Channel(referee, tablet.public_key).seal({}, {"secret": 1})
    with pytest.raises(CryptoError):
        Channel(intruder, referee.public_key).open(envelope)


def test_a_moved_or_replayed_envelope_fails_its_header_check(keys):
    referee, tablet, _ = keys
    envelope = Channel(referee, tablet.public_key).seal({"topic": "seat/red/events", "seq": 4}, {})
    reader = Channel(tablet, referee.public_key)
    with pytest.raises(CryptoError, match="topic"):
        reader.open(envelope, expect={"topic": "seat/red/state"})
    with pytest.raises(CryptoError, match="seq"):
        reader.open(envelope, expect={"topic": "seat/red/events", "seq": 5})


def test_a_flipped_bit_is_detected(keys):
    referee, tablet, _ = keys
    envelope = bytearray(Channel(referee, tablet.public_key).seal({}, {"a": 1}))
    envelope[100] ^= 1
    with pytest.raises(CryptoError, match="does not open"):
        Channel(tablet, referee.public_key).open(bytes(envelope))


def test_wrong_lengths_are_refused_before_decrypting(keys):
    referee, tablet, _ = keys
    with pytest.raises(CryptoError, match="exactly"):
        Channel(tablet, referee.public_key).open(b"ARB1" + b"\0" * 10)


def test_a_payload_too_big_for_the_padding_is_refused_not_truncated(keys):
    import os

    referee, tablet, _ = keys
    with pytest.raises(CryptoError, match="does not fit"):
        Channel(referee, tablet.public_key).seal({}, {"noise": os.urandom(crypto.PADDED_SIZE).hex()})


def test_a_sealed_request_opens_only_for_its_recipient(keys):
    referee, _, intruder = keys
    envelope = crypto.seal_anonymous(referee.public_key, {"seat": "red"})
    assert len(envelope) == crypto.SEALED_SIZE
    assert crypto.open_anonymous(referee, envelope) == {"seat": "red"}
    with pytest.raises(CryptoError):
        crypto.open_anonymous(intruder, envelope)


def test_keys_round_trip_through_text(keys):
    referee, _, _ = keys
    text = crypto.key_to_text(referee.public_key)
    assert crypto.public_key_from_text(text) == referee.public_key
    with pytest.raises(CryptoError):
        crypto.public_key_from_text("too-short")


def test_only_pynacl_1_3_apis_are_used():
    import ast
    import pathlib

    import firmware_bridge

    # PyNaCl 1.3 has nacl.public (Box, SealedBox, keys), nacl.exceptions and nacl.utils.
    allowed = {"nacl.public", "nacl.exceptions", "nacl.utils"}
    for path in pathlib.Path(firmware_bridge.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("nacl"):
                assert node.module in allowed, f"{path.name} imports {node.module}"
