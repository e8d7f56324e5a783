"""End-to-end encryption of private payloads and authentication of seat commands.

Only what PyNaCl 1.3 already has (the version Android builds of Kivy apps get): X25519
``Box`` (XSalsa20-Poly1305) between the referee key and a tablet key made at pairing, and
``SealedBox`` for the very first pairing request.

Associated data: crypto_box in PyNaCl 1.3 has none, so the authenticated plaintext starts with
a header (topic, game, sequence number or command counter) that the receiver compares with
what it expects. A broker admin can neither move a ciphertext to another topic nor replay an
old one into a newer game or sequence.

Length hiding: the plaintext (header + zlib-compressed JSON body) is padded to one fixed size,
so every envelope on every private topic has exactly ENVELOPE_SIZE bytes.

Command authentication: a command is a Box from the seat's key to the referee's key; its
Poly1305 tag is the per-seat authentication tag (nobody without the seat's private key can make
one that opens), and its header carries the seat's strictly increasing counter.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import zlib
from dataclasses import dataclass
from typing import Any

from nacl.exceptions import CryptoError as NaclCryptoError
from nacl.public import Box, PrivateKey, PublicKey, SealedBox

from engine.core.errors import ArbiterError

MAGIC = b"ARB1"
PADDED_SIZE = 4096
NONCE_SIZE = Box.NONCE_SIZE
MAC_SIZE = 16
ENVELOPE_SIZE = len(MAGIC) + NONCE_SIZE + MAC_SIZE + PADDED_SIZE
SEALED_PADDED_SIZE = 512
SEALED_SIZE = len(MAGIC) + 48 + SEALED_PADDED_SIZE  # SealedBox adds an ephemeral key and a tag
_LENGTH = struct.Struct(">I")
FINGERPRINT_DIGITS = 16
FINGERPRINT_DOMAIN = b"arbiter key fingerprint v1\0"


class CryptoError(ArbiterError):
    """An envelope that does not open, is not ours, or does not match what was expected."""

    code = "unauthenticated"


def key_to_text(key: PublicKey | PrivateKey) -> str:
    """A key as URL-safe base64 text (44 characters)."""
    return base64.urlsafe_b64encode(bytes(key)).decode()


def public_key_from_text(text: str) -> PublicKey:
    """Parse a public key from base64 text; raise CryptoError if it is not one."""
    try:
        raw = base64.urlsafe_b64decode(text.encode())
    except (ValueError, TypeError) as error:
        raise CryptoError(f"bad key text: {error}") from None
    if len(raw) != PublicKey.SIZE:
        raise CryptoError("a public key has 32 bytes")
    return PublicKey(raw)


def private_key_from_text(text: str) -> PrivateKey:
    """Parse a private key from base64 text."""
    raw = base64.urlsafe_b64decode(text.encode())
    if len(raw) != PrivateKey.SIZE:
        raise CryptoError("a private key has 32 bytes")
    return PrivateKey(raw)


def fingerprint(*keys: PublicKey | str) -> str:
    """Digits two people compare to see they hold the same key(s), e.g. "0412-7730-9158-2046".

    Sixteen digits, not six: whoever sees a tablet's key during pairing could make key after key
    until one gives the same short number (a million tries take seconds; 10**16 do not).
    """
    raw = b"".join(bytes(public_key_from_text(k) if isinstance(k, str) else k) for k in keys)
    digest = hashlib.sha256(FINGERPRINT_DOMAIN + raw).digest()
    digits = f"{int.from_bytes(digest[:8], 'big') % 10 ** FINGERPRINT_DIGITS:0{FINGERPRINT_DIGITS}d}"
    return "-".join(digits[i:i + 4] for i in range(0, FINGERPRINT_DIGITS, 4))


def pad(data: bytes, size: int = PADDED_SIZE) -> bytes:
    """Length-prefix ``data`` and fill with zeros to exactly ``size`` bytes."""
    if len(data) + _LENGTH.size > size:
        raise CryptoError(f"payload of {len(data)} bytes does not fit the padded size {size}")
    return _LENGTH.pack(len(data)) + data + bytes(size - len(data) - _LENGTH.size)


def unpad(padded: bytes) -> bytes:
    """Undo :func:`pad`."""
    (length,) = _LENGTH.unpack_from(padded)
    if length > len(padded) - _LENGTH.size:
        raise CryptoError("bad padding")
    return padded[_LENGTH.size:_LENGTH.size + length]


def _pack(header: dict, body: dict, size: int) -> bytes:
    text = json.dumps({"h": header, "b": body}, separators=(",", ":")).encode()
    return pad(zlib.compress(text, 6), size)


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")  # NaN, Infinity: Python's parser takes them


def _unpack(plaintext: bytes, size: int) -> tuple[dict, dict]:
    try:
        # Bounded decompression: a valid sender never compresses more than 16x the padded size.
        inflater = zlib.decompressobj()
        text = inflater.decompress(unpad(plaintext), 16 * size)
        if inflater.unconsumed_tail:
            raise CryptoError("payload inflates too far")
        message = json.loads(text, parse_constant=_not_json)
        header, body = message["h"], message["b"]
    except (zlib.error, ValueError, KeyError, TypeError) as error:
        raise CryptoError(f"bad plaintext: {error}") from None
    except RecursionError:  # anyone can seal a pairing request: "[[[[..." is refused, not raised
        raise CryptoError("bad plaintext: nested too deeply") from None
    if not isinstance(header, dict) or not isinstance(body, dict):
        raise CryptoError("bad plaintext structure")
    return header, body


@dataclass
class Channel:
    """One end of an X25519 Box between two keys; the shared key is computed once."""

    own: PrivateKey
    peer: PublicKey

    def __post_init__(self) -> None:
        self._box = Box(self.own, self.peer)

    def seal(self, header: dict[str, Any], body: dict[str, Any]) -> bytes:
        """Encrypt and authenticate ``header`` and ``body``; the result is ENVELOPE_SIZE bytes."""
        return MAGIC + bytes(self._box.encrypt(_pack(header, body, PADDED_SIZE)))

    def open(self, envelope: bytes, expect: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Decrypt; check every header field in ``expect``; return (header, body)."""
        if len(envelope) != ENVELOPE_SIZE or not envelope.startswith(MAGIC):
            raise CryptoError(f"an envelope has exactly {ENVELOPE_SIZE} bytes and starts with {MAGIC!r}")
        try:
            plaintext = self._box.decrypt(bytes(envelope[len(MAGIC):]))
        except NaclCryptoError:
            raise CryptoError("envelope does not open with this key pair") from None
        header, body = _unpack(plaintext, PADDED_SIZE)
        for name, value in (expect or {}).items():
            if header.get(name) != value:
                raise CryptoError(f"header {name}={header.get(name)!r}, expected {value!r}")
        return header, body


def seal_anonymous(recipient: PublicKey, body: dict[str, Any]) -> bytes:
    """SealedBox to ``recipient``: only it can read, nobody learns the sender."""
    return MAGIC + bytes(SealedBox(recipient).encrypt(_pack({}, body, SEALED_PADDED_SIZE)))


def open_anonymous(own: PrivateKey, envelope: bytes) -> dict:
    """Open a :func:`seal_anonymous` envelope."""
    if len(envelope) != SEALED_SIZE or not envelope.startswith(MAGIC):
        raise CryptoError(f"a sealed envelope has exactly {SEALED_SIZE} bytes")
    try:
        plaintext = SealedBox(own).decrypt(bytes(envelope[len(MAGIC):]))
    except NaclCryptoError:
        raise CryptoError("sealed envelope does not open with this key") from None
    return _unpack(plaintext, SEALED_PADDED_SIZE)[1]
