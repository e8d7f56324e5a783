"""The frame codec shared by the scanner firmware and the Pi: round trips, corruption, garbage."""

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.firmware import protocol
from hardware.firmware.protocol import FrameDecoder, ProtocolError


def test_crc16_is_ccitt_false():
    assert protocol.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=700))
def test_cobs_round_trip_and_no_zero_bytes(data):
    encoded = protocol.cobs_encode(data)
    assert 0 not in encoded
    assert protocol.cobs_decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=protocol.MAX_PAYLOAD))
def test_every_frame_decodes_to_what_was_sent(msg_type, seq, payload):
    frame = protocol.encode_frame(msg_type, seq, payload)
    assert frame.endswith(b"\x00") and 0 not in frame[:-1]
    assert FrameDecoder().feed(frame) == [(msg_type, seq, payload)]


@given(st.binary(max_size=2000))
@settings(max_examples=300)
def test_garbage_never_crashes_the_decoder(garbage):
    decoder = FrameDecoder()
    decoder.feed(garbage)  # must not raise; whatever it returns passed the CRC
    # and a good frame after the garbage still gets through
    assert decoder.feed(b"\x00" + protocol.encode_frame(2, 7, b"ok")) == [(2, 7, b"ok")]


@given(st.binary(min_size=0, max_size=60), st.integers(0, 0xFFFF), st.data())
@settings(max_examples=500)
def test_a_corrupted_frame_is_never_accepted(payload, seq, data):
    frame = bytearray(protocol.encode_frame(protocol.MSG_SNAPSHOT, seq, payload))
    position = data.draw(st.integers(0, len(frame) - 2), label="byte")
    flip = data.draw(st.integers(1, 255), label="xor")
    frame[position] ^= flip
    decoder = FrameDecoder()
    for msg_type, got_seq, got_payload in decoder.feed(bytes(frame)):
        # CRC-16 detects every error burst of 16 bits or less: a single flipped byte never passes
        assert (msg_type, got_seq, got_payload) == (protocol.MSG_SNAPSHOT, seq, payload), "corrupt frame accepted"


@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=50)),
                max_size=8), st.integers(1, 17))
def test_frames_survive_any_chunking_of_the_stream(frames, chunk):
    stream = b"".join(protocol.encode_frame(*f) for f in frames)
    decoder = FrameDecoder()
    got = []
    for i in range(0, len(stream), chunk):
        got += decoder.feed(stream[i:i + chunk])
    assert got == frames


def test_decoder_resynchronises_after_a_lost_delimiter():
    good = protocol.encode_frame(1, 1, b"first")
    second = protocol.encode_frame(1, 2, b"second")
    decoder = FrameDecoder()
    # The first frame's delimiter is lost: the merged bytes fail the CRC, the next frame is fine.
    got = decoder.feed(good[:-1] + second + protocol.encode_frame(1, 3, b"third"))
    assert got == [(1, 3, b"third")]
    assert decoder.errors == 1


def test_an_overlong_run_of_bytes_is_dropped_not_buffered_forever():
    decoder = FrameDecoder()
    assert decoder.feed(b"\x01" * 5000 + b"\x00") == []
    assert decoder.errors == 1
    assert decoder.feed(protocol.encode_frame(3, 0, b"x")) == [(3, 0, b"x")]


@given(st.lists(st.booleans(), min_size=1, max_size=100), st.integers(0, 2), st.integers(0, 2**32 - 1))
def test_occupancy_snapshot_round_trip(values, reason, scans):
    payload = protocol.pack_snapshot(protocol.SENSOR_OCCUPANCY, reason, scans, values)
    assert protocol.unpack_snapshot(protocol.SENSOR_OCCUPANCY, len(values), payload) == (reason, scans, 0, values)


@given(st.lists(st.integers(0, 0xFFFF), min_size=1, max_size=100))
def test_identifying_snapshot_round_trip(tags):
    payload = protocol.pack_snapshot(protocol.SENSOR_IDENTIFYING, 0, 5, tags)
    assert protocol.unpack_snapshot(protocol.SENSOR_IDENTIFYING, len(tags), payload) == (0, 5, 0, tags)


@given(st.binary(max_size=300), st.integers(1, 100), st.sampled_from([0, 1]))
def test_malformed_payloads_raise_protocol_error_only(payload, squares, kind):
    for parse in (lambda: protocol.unpack_snapshot(kind, squares, payload),
                  lambda: protocol.unpack_hello(payload),
                  lambda: protocol.unpack_leds(squares, payload),
                  lambda: protocol.unpack_status(payload)):
        with contextlib.suppress(ProtocolError):
            parse()


def test_snapshot_of_the_wrong_size_is_refused():
    payload = protocol.pack_snapshot(protocol.SENSOR_OCCUPANCY, 0, 1, [True] * 64)
    try:
        protocol.unpack_snapshot(protocol.SENSOR_OCCUPANCY, 100, payload)
    except ProtocolError as error:
        assert "wrong length" in str(error)
    else:
        raise AssertionError("an 8x8 snapshot was accepted for a 10x10 board")


def test_hello_round_trip():
    payload = protocol.pack_hello((1, 2, 3), 10, 10, protocol.SENSOR_IDENTIFYING, 200, "Küche")
    assert protocol.unpack_hello(payload) == {
        "protocol": 1, "firmware": (1, 2, 3), "width": 10, "height": 10,
        "sensor_kind": 1, "scan_hz": 200, "name": "Küche"}


def test_sequence_distance_wraps():
    assert protocol.seq_distance(0xFFFF, 0) == 1
    assert protocol.seq_distance(5, 5) == 0
    assert protocol.seq_distance(10, 7) > 0x8000
