"""Signatures on the referee's public messages, and the key pin that clients check them with.

The public topics (``info``, ``state``, ``events``, ``presence/referee``) are readable and, on
an anonymous broker, writable by anyone on the network. Without signatures a stranger could
publish a retained ``state`` with a higher ``seq`` and a made-up result, and every display would
show it. So the referee signs each public payload with an Ed25519 key (PyNaCl 1.3's
``nacl.signing``, kept in its journal), and clients pin that key from the pairing grant (sealed
under the key the SPAKE2 exchange derived, pake.py) or from a key stored with their credentials,
never from ``info``; they drop what does not verify. A signature says who, not when: the stamp
inside each payload (freshness.py) says when. Tablets sign their pairing messages the same way
with a key of their own, under another domain, so neither kind of signature passes for the other.

Wire format, an extension of contract v1 (old clients ignore the extra field): the payload's
compact JSON text ``{...}`` becomes ``{...,"sig":"<base64>"}``; the signature covers a domain
string, the topic and the JSON text without the ``sig`` field, byte for byte, so a signed
message cannot be moved to another board's topic or altered by re-serialising it.
"""

from __future__ import annotations

import base64
import binascii
from collections import Counter

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from firmware_bridge.protocol.crypto import CryptoError, fingerprint

SIGNATURE_DOMAIN = b"arbiter public message v1\0"
PAIRING_DOMAIN = b"arbiter pairing message v2\0"  # a tablet's signature on its pairing messages
SIGNATURE_SIZE = 64
_SIG_TEXT_SIZE = len(base64.urlsafe_b64encode(bytes(SIGNATURE_SIZE)))
_SIG_PREFIX = b',"sig":"'
_SIG_SUFFIX = b'"}'


class SignatureError(CryptoError):
    """A public message that is unsigned, signed by another key, or altered."""

    code = "unauthenticated"


def _signed_bytes(topic: str, unsigned: bytes, domain: bytes = SIGNATURE_DOMAIN) -> bytes:
    return domain + topic.encode() + b"\0" + unsigned


def split_signature(raw: bytes) -> tuple[bytes, bytes]:
    """(the payload as it was before signing, the signature); SignatureError if unsigned."""
    tail = len(_SIG_PREFIX) + _SIG_TEXT_SIZE + len(_SIG_SUFFIX)
    if len(raw) <= tail or not raw.endswith(_SIG_SUFFIX) or raw[-tail:][:len(_SIG_PREFIX)] != _SIG_PREFIX:
        raise SignatureError("the message carries no referee signature")
    try:
        signature = base64.urlsafe_b64decode(raw[-tail + len(_SIG_PREFIX):-len(_SIG_SUFFIX)])
    except (binascii.Error, ValueError):
        raise SignatureError("the signature is not base64") from None
    return raw[:-tail] + b"}", signature


class PublicSigner:
    """The referee's side: signs every public payload it publishes."""

    def __init__(self, key: SigningKey, domain: bytes = SIGNATURE_DOMAIN) -> None:
        self._key = key
        self.domain = domain
        self.verify_key = key_text(key.verify_key)

    @classmethod
    def generate(cls, domain: bytes = SIGNATURE_DOMAIN) -> PublicSigner:
        """A signer with a fresh key."""
        return cls(SigningKey.generate(), domain)

    @classmethod
    def from_text(cls, text: str) -> PublicSigner:
        """The signer whose private seed is ``text`` (as :attr:`seed_text` gave it)."""
        try:
            seed = base64.urlsafe_b64decode(text.encode())
        except (binascii.Error, ValueError):
            raise SignatureError("the signing key is not base64") from None
        if len(seed) != 32:
            raise SignatureError("a signing key has 32 bytes")
        return cls(SigningKey(seed))

    @property
    def seed_text(self) -> str:
        """The private seed as text, for the referee's journal; never published."""
        return base64.urlsafe_b64encode(bytes(self._key)).decode()

    @property
    def fingerprint(self) -> str:
        """The digits people compare on the referee's console and a display."""
        return fingerprint(self.verify_key)

    def sign(self, topic: str, payload: bytes) -> bytes:
        """``payload`` (compact JSON object text) with the signature for ``topic`` appended."""
        if not payload.startswith(b"{") or not payload.endswith(b"}") or payload == b"{}":
            raise SignatureError("only a non-empty JSON object can be signed")
        signature = self._key.sign(_signed_bytes(topic, payload, self.domain)).signature
        return payload[:-1] + _SIG_PREFIX + base64.urlsafe_b64encode(signature) + _SIG_SUFFIX


def key_text(key: VerifyKey) -> str:
    """A verify key as URL-safe base64 text (44 characters), as `info` carries it."""
    return base64.urlsafe_b64encode(bytes(key)).decode()


def verify(verify_key: str, topic: str, raw: bytes, domain: bytes = SIGNATURE_DOMAIN) -> bytes:
    """The payload without its signature, if ``verify_key`` signed it for ``topic``."""
    unsigned, signature = split_signature(raw)
    try:
        key = VerifyKey(base64.urlsafe_b64decode(verify_key.encode()))
        key.verify(_signed_bytes(topic, unsigned, domain), signature)
    except (BadSignatureError, binascii.Error, ValueError, TypeError):
        raise SignatureError("the referee's signature does not verify") from None
    return unsigned


class RefereePin:
    """What a client trusts of one board: the referee's verify key, pinned from pairing.

    The key comes from the pairing grant (sealed under the SPAKE2 key, so only the real referee
    could have sent it) or from credentials stored after such a grant. Nothing is trusted on first
    use: until a key is pinned every public message is held unread, and afterwards a message signed
    by any other key is dropped and counted, never shown.
    """

    def __init__(self, pinned: str | None = None) -> None:
        self.key = pinned
        self.dropped: Counter[str] = Counter()  # why messages were dropped, by reason

    @property
    def fingerprint(self) -> str | None:
        """The pinned key's fingerprint, or None before one is pinned."""
        return fingerprint(self.key) if self.key else None

    def pin(self, key: str) -> None:
        """Trust ``key`` from now on (it came from an authenticated pairing grant or the user)."""
        self.key = key

    def open(self, topic: str, raw: bytes) -> bytes | None:
        """The verified payload, or None (counted) if it is unsigned, forged or not yet checkable."""
        if self.key is None:
            self.dropped["before-pin"] += 1
            return None
        try:
            return verify(self.key, topic, raw)
        except SignatureError as error:
            self.dropped["unsigned" if "no referee signature" in str(error) else "bad-signature"] += 1
            return None
