"""Pairing by a password-authenticated key exchange: SPAKE2 with the code (or the squares) as password.

The six digits a player types (or the two squares a player covers on the board) authenticate the
key exchange itself, so nobody in the middle can learn the key or take the seat: a relay that
answers for the referee, or asks in the tablet's place, makes exactly one online guess of the
password per attempt and learns nothing it could test offline. SPAKE2 is the ``spake2`` package
(pure Python, the one magic-wormhole uses); the identities of both ends are bound into it:
the board, the seat, the tablet's MQTT client id, its X25519 key and the key it signs its
pairing messages with. HKDF (from ``cryptography``) derives from the SPAKE2 key one key per
purpose: each side's confirmation and each direction's secret box.

Order: the tablet starts (its SPAKE2 message), the referee answers with its own message and its
confirmation; the tablet checks that confirmation before it says anything under the key, then
sends its own confirmation and, sealed, its X25519 key; the referee checks it and seals the
grant (its X25519 key and its Ed25519 signing key) to the tablet.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl.exceptions import CryptoError as NaclCryptoError
from nacl.secret import SecretBox
from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import SPAKEError

from firmware_bridge.protocol.crypto import CryptoError

CODE = re.compile(r"[0-9]{6}", re.ASCII)
SQUARE = re.compile(r"[a-z][1-9][0-9]?", re.ASCII)
SQUARES_PER_PAIRING = 2
PAKE_MESSAGE_SIZE = 33  # a side byte and an Ed25519 group element
MAX_BOX_TEXT = 2048  # a grant or a tablet's key never needs more
DOMAIN = b"arbiter pairing v2"


class PakeError(CryptoError):
    """A pairing message that does not fit the exchange, or a confirmation that does not check."""

    code = "unauthenticated"


def code_password(code: str) -> bytes:
    """The password of a code pairing: exactly six ASCII digits (anything else is refused)."""
    if not isinstance(code, str) or not CODE.fullmatch(code):
        raise PakeError("a pairing code is six digits 0-9")
    return b"code:" + code.encode("ascii")


def squares_password(squares: list[str] | tuple[str, ...]) -> bytes:
    """The password of a presence pairing: the covered squares, in a fixed order."""
    names = sorted(set(squares))
    if len(names) != SQUARES_PER_PAIRING or not all(isinstance(s, str) and SQUARE.fullmatch(s) for s in names):
        raise PakeError(f"a presence pairing covers {SQUARES_PER_PAIRING} squares")
    return b"squares:" + " ".join(names).encode("ascii")


@dataclass(frozen=True)
class Identities:
    """Who pairs with whom; both ends must agree on every field, or the keys differ."""

    board: str
    seat: str  # "red", "blue" or "display"
    client: str  # the tablet's MQTT client id
    key: str  # the tablet's X25519 key (base64), the one the seat will be sealed to
    asker: str  # the Ed25519 key (base64) the tablet signs its pairing messages with

    def tablet(self) -> bytes:
        """SPAKE2's identity A."""
        return b"|".join(x.encode() for x in (DOMAIN.decode(), "tablet", self.board, self.seat,
                                              self.client, self.key, self.asker))

    def referee(self) -> bytes:
        """SPAKE2's identity B."""
        return b"|".join(x.encode() for x in (DOMAIN.decode(), "referee", self.board))


def b64(raw: bytes) -> str:
    """Bytes as URL-safe base64 text."""
    return base64.urlsafe_b64encode(raw).decode()


def unb64(text: Any, size: int | None = None, limit: int = 4096) -> bytes:
    """Base64 text back to bytes; PakeError if it is not, or has the wrong size."""
    if not isinstance(text, str) or len(text) > limit:
        raise PakeError("not base64 text of a sensible length")
    try:
        raw = base64.urlsafe_b64decode(text.encode())
    except (binascii.Error, ValueError):
        raise PakeError("not base64") from None
    if size is not None and len(raw) != size:
        raise PakeError(f"expected {size} bytes, got {len(raw)}")
    return raw


@dataclass(frozen=True)
class SessionKeys:
    """The keys one exchange derives: confirmations and a secret box each way."""

    confirm_tablet: bytes
    confirm_referee: bytes
    to_tablet: SecretBox
    to_referee: SecretBox
    transcript: bytes

    @classmethod
    def derive(cls, shared: bytes, tablet_message: bytes, referee_message: bytes) -> SessionKeys:
        """HKDF-SHA256 over the SPAKE2 key, bound to both messages."""
        transcript = hashlib.sha256(DOMAIN + tablet_message + referee_message).digest()
        material = HKDF(algorithm=hashes.SHA256(), length=128, salt=transcript,
                        info=DOMAIN + b" keys").derive(shared)
        return cls(material[:32], material[32:64], SecretBox(material[64:96]),
                   SecretBox(material[96:128]), transcript)

    def confirmation(self, side: str) -> str:
        """The MAC one side sends to show it holds the same key."""
        key = self.confirm_tablet if side == "tablet" else self.confirm_referee
        return b64(hmac.new(key, DOMAIN + b" confirm " + side.encode() + self.transcript,
                            hashlib.sha256).digest())

    def check(self, side: str, given: Any) -> None:
        """PakeError unless ``given`` is ``side``'s confirmation."""
        if not isinstance(given, str) or not hmac.compare_digest(given, self.confirmation(side)):
            raise PakeError("the confirmation does not check: a wrong code or squares, or someone in between")


def seal(box: SecretBox, body: dict[str, Any]) -> str:
    """A JSON object sealed in a secret box, as base64 text."""
    text = json.dumps(body, separators=(",", ":")).encode()
    if len(text) > MAX_BOX_TEXT:
        raise PakeError("sealed pairing text too long")
    return b64(bytes(box.encrypt(text)))


def open_sealed(box: SecretBox, sealed: Any) -> dict[str, Any]:
    """Open :func:`seal`; PakeError if it does not open or is no JSON object."""
    raw = unb64(sealed, limit=4 * MAX_BOX_TEXT)
    try:
        body = json.loads(box.decrypt(raw))
    except (NaclCryptoError, ValueError, RecursionError):
        raise PakeError("the sealed pairing text does not open") from None
    if not isinstance(body, dict):
        raise PakeError("the sealed pairing text is no object")
    return body


class TabletExchange:
    """The tablet's end: one SPAKE2 message, tried against a few answers at most."""

    MAX_ANSWERS = 3  # each answer is one online guess by whoever sent it: a few for a resend

    def __init__(self, password: bytes, ids: Identities) -> None:
        self._spake = SPAKE2_A(password, idA=ids.tablet(), idB=ids.referee())
        self.message = self._spake.start()
        self._saved = self._spake.serialize()
        self.answers = 0
        self.keys: SessionKeys | None = None

    @property
    def message_text(self) -> str:
        """The SPAKE2 message to send, as text."""
        return b64(self.message)

    def answer(self, referee_message: Any, confirmation: Any) -> SessionKeys:
        """Take the referee's message and confirmation; the keys if it holds the same password."""
        if self.answers >= self.MAX_ANSWERS:
            raise PakeError("too many answers to one pairing attempt")
        self.answers += 1
        message = unb64(referee_message, PAKE_MESSAGE_SIZE)
        # A SPAKE2 object finishes once; a copy of its started state tries each answer.
        spake = SPAKE2_A.from_serialized(self._saved)
        try:
            shared = spake.finish(message)
        except (SPAKEError, ValueError, AssertionError) as error:
            raise PakeError(f"not a SPAKE2 message: {error}") from None
        keys = SessionKeys.derive(shared, self.message, message)
        keys.check("referee", confirmation)
        self.keys = keys
        return keys


def referee_answer(password: bytes, ids: Identities, tablet_message: Any) -> tuple[str, SessionKeys]:
    """The referee's end of one attempt: (its message as text, the keys it derived)."""
    message = unb64(tablet_message, PAKE_MESSAGE_SIZE)
    spake = SPAKE2_B(password, idA=ids.tablet(), idB=ids.referee())
    own = spake.start()
    try:
        shared = spake.finish(message)
    except (SPAKEError, ValueError, AssertionError) as error:
        raise PakeError(f"not a SPAKE2 message: {error}") from None
    return b64(own), SessionKeys.derive(shared, message, own)
