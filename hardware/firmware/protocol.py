"""The Arbiter serial protocol codec: one module for the scanner firmware and the Pi.

Valid MicroPython and CPython: no dataclasses, no typing imports, no struct, no
f-strings with format specs MicroPython lacks. docs/serial-protocol.md is the spec.

Wire format: every frame is COBS(body) followed by one 0x00 delimiter, where
    body = type (1) | seq (2, big endian) | payload (0..MAX_PAYLOAD) | CRC-16 (2, big endian)
and the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) covers type, seq and payload.
"""

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 400
MAX_BODY = MAX_PAYLOAD + 5
# A COBS-encoded body grows by at most one byte per 254, plus the leading code byte.
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2

# Board -> host
MSG_HELLO = 0x01
MSG_SNAPSHOT = 0x02
MSG_STATUS = 0x03
# Host -> board
MSG_REQUEST = 0x81  # please send HELLO and a full snapshot (resync)
MSG_SET_LEDS = 0x82  # one colour code per square, replaces the whole LED state

SENSOR_OCCUPANCY = 0  # one bit per square: occupied or empty
SENSOR_IDENTIFYING = 1  # one 16-bit tag per square, 0 = empty

REASON_CHANGE = 0
REASON_KEEPALIVE = 1
REASON_REQUESTED = 2

# LED colour codes for MSG_SET_LEDS; the firmware maps them to RGB.
LED_OFF = 0
LED_GREEN = 1  # the move just made / fill this square
LED_RED = 2  # clear this square / take this piece off
LED_AMBER = 3  # illegal move: put it back
LED_BLUE = 4  # the piece selected
LED_WHITE = 5
LED_COLOURS = {
    LED_OFF: (0, 0, 0),
    LED_GREEN: (0, 80, 0),
    LED_RED: (90, 0, 0),
    LED_AMBER: (80, 40, 0),
    LED_BLUE: (0, 0, 90),
    LED_WHITE: (60, 60, 60),
}


try:
    from engine.core.errors import ArbiterError as _ErrorRoot
except ImportError:  # MicroPython on the scanner has no engine (and one native base per class)
    _ErrorRoot = Exception  # type: ignore[misc, assignment]


class ProtocolError(_ErrorRoot):
    """A frame or payload that does not follow the protocol; it is dropped, never half-used."""

    code = "bad-frame"


def _make_crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of data (check value of b'123456789' is 0x29B1)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result contains no zero byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """Undo cobs_encode; raises ProtocolError on a malformed block."""
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS block")
        end = index + code
        if end > length:
            raise ProtocolError("COBS block runs past the end of the frame")
        for byte in data[index + 1 : end]:
            if byte == 0:
                raise ProtocolError("zero byte inside a COBS block")
        out.extend(data[index + 1 : end])
        index = end
        if code < 255 and index < length:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type, seq, payload=b""):
    """The bytes to put on the wire for one message, delimiter included."""
    if not 0 <= msg_type <= 0xFF:
        raise ProtocolError("message type out of range")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("payload too long")
    seq &= 0xFFFF
    body = bytearray((msg_type, seq >> 8, seq & 0xFF))
    body.extend(payload)
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return cobs_encode(body) + b"\x00"


def decode_frame(encoded):
    """(type, seq, payload) from one frame without its delimiter; ProtocolError if corrupt."""
    if len(encoded) > MAX_ENCODED:
        raise ProtocolError("frame too long")
    body = cobs_decode(encoded)
    if len(body) < 5:
        raise ProtocolError("frame too short")
    crc = (body[-2] << 8) | body[-1]
    if crc16(body[:-2]) != crc:
        raise ProtocolError("CRC mismatch")
    return body[0], (body[1] << 8) | body[2], bytes(body[3:-2])


class FrameDecoder:
    """Splits a byte stream into frames; resynchronises on the next delimiter after garbage."""

    def __init__(self):
        self._buffer = bytearray()
        self._overflow = False
        self.errors = 0  # corrupt or overlong frames dropped

    def feed(self, data):
        """Every complete valid frame in data as (type, seq, payload); bad ones are counted."""
        frames = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < MAX_ENCODED:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                self.errors += 1
            elif self._buffer:
                try:
                    frames.append(decode_frame(bytes(self._buffer)))
                except ProtocolError:
                    self.errors += 1
            self._buffer = bytearray()
            self._overflow = False
        return frames


def seq_distance(previous, current):
    """How many sequence numbers current is ahead of previous (mod 2**16): 1 means no gap."""
    return (current - previous) & 0xFFFF


# --- payloads ---------------------------------------------------------------------------


def pack_hello(firmware_version, width, height, sensor_kind, scan_hz, name=""):
    """HELLO payload: protocol, firmware (major, minor, patch), geometry, sensor kind, rate, name."""
    major, minor, patch = firmware_version
    name_bytes = name.encode("utf-8")[:32]
    return bytes(
        (PROTOCOL_VERSION, major, minor, patch, width, height, sensor_kind, scan_hz >> 8, scan_hz & 0xFF)
    ) + name_bytes


def unpack_hello(payload):
    """A dict from a HELLO payload; ProtocolError when it is malformed."""
    if len(payload) < 9:
        raise ProtocolError("HELLO too short")
    if payload[0] != PROTOCOL_VERSION:
        raise ProtocolError("unsupported protocol version " + str(payload[0]))
    width, height, kind = payload[4], payload[5], payload[6]
    if not (1 <= width <= 26 and 1 <= height <= 26):
        raise ProtocolError("board geometry out of range")
    if kind not in (SENSOR_OCCUPANCY, SENSOR_IDENTIFYING):
        raise ProtocolError("unknown sensor kind " + str(kind))
    try:
        name = bytes(payload[9:]).decode("utf-8")
    except UnicodeError:
        raise ProtocolError("board name is not UTF-8") from None
    return {
        "protocol": payload[0],
        "firmware": (payload[1], payload[2], payload[3]),
        "width": width,
        "height": height,
        "sensor_kind": kind,
        "scan_hz": (payload[7] << 8) | payload[8],
        "name": name,
    }


def snapshot_size(sensor_kind, squares):
    """Bytes of values in a SNAPSHOT payload for that many squares."""
    if sensor_kind == SENSOR_OCCUPANCY:
        return (squares + 7) // 8
    return squares * 2


SNAPSHOT_HEADER = 7  # reason (1), scan count (4), ms since the last change (2)


def pack_snapshot(sensor_kind, reason, scan_count, values, age_ms=0):
    """SNAPSHOT payload. values: one per square, index = rank * width + file; bool or tag.

    age_ms says how long ago the board last changed (capped at 65535), so the host dates a
    change correctly even when the frame that reported it was lost.
    """
    age_ms = min(max(age_ms, 0), 0xFFFF)
    out = bytearray((reason, (scan_count >> 24) & 0xFF, (scan_count >> 16) & 0xFF,
                     (scan_count >> 8) & 0xFF, scan_count & 0xFF, age_ms >> 8, age_ms & 0xFF))
    if sensor_kind == SENSOR_OCCUPANCY:
        bits = bytearray(snapshot_size(sensor_kind, len(values)))
        for index, value in enumerate(values):
            if value:
                bits[index >> 3] |= 1 << (index & 7)
        out.extend(bits)
    else:
        for tag in values:
            out.append((tag >> 8) & 0xFF)
            out.append(tag & 0xFF)
    return bytes(out)


def unpack_snapshot(sensor_kind, squares, payload):
    """(reason, scan_count, age_ms, values) from a SNAPSHOT payload; values are bools or int tags."""
    if len(payload) != SNAPSHOT_HEADER + snapshot_size(sensor_kind, squares):
        raise ProtocolError("SNAPSHOT has the wrong length for this board")
    reason = payload[0]
    if reason not in (REASON_CHANGE, REASON_KEEPALIVE, REASON_REQUESTED):
        raise ProtocolError("unknown snapshot reason " + str(reason))
    scan_count = (payload[1] << 24) | (payload[2] << 16) | (payload[3] << 8) | payload[4]
    age_ms = (payload[5] << 8) | payload[6]
    data = payload[SNAPSHOT_HEADER:]
    if sensor_kind == SENSOR_OCCUPANCY:
        values = [bool(data[i >> 3] & (1 << (i & 7))) for i in range(squares)]
        if squares % 8 and data[-1] >> (squares % 8):
            raise ProtocolError("padding bits set in SNAPSHOT")
    else:
        values = [(data[2 * i] << 8) | data[2 * i + 1] for i in range(squares)]
    return reason, scan_count, age_ms, values


def pack_leds(colours):
    """SET_LEDS payload: one colour code per square, in square index order."""
    return bytes(colours)


def unpack_leds(squares, payload):
    """Colour codes from a SET_LEDS payload; ProtocolError on a wrong length or unknown colour."""
    if len(payload) != squares:
        raise ProtocolError("SET_LEDS has the wrong length for this board")
    for code in payload:
        if code not in LED_COLOURS:
            raise ProtocolError("unknown LED colour " + str(code))
    return list(payload)


def pack_status(code, text=""):
    """STATUS payload: a code (0 ok, 1 warning, 2 error) and a short UTF-8 text."""
    return bytes((code,)) + text.encode("utf-8")[:120]


def unpack_status(payload):
    """(code, text) from a STATUS payload."""
    if not payload:
        raise ProtocolError("STATUS is empty")
    try:
        text = bytes(payload[1:]).decode("utf-8")
    except UnicodeError:
        text = "?"
    return payload[0], text
