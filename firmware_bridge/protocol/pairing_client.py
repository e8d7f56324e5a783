"""The asking end of pairing (pairing version 2), shared by a seat's tablet and a referee display.

It asks for a seat (or a display's trust), runs the tablet's end of SPAKE2 with the code the
player types or the squares it chose for the player to cover, checks the referee's confirmation
before it says anything under the derived key, and opens the sealed grant: the referee's X25519
key and its signing key, which the client then pins. Nothing arriving before the grant is
trusted: a challenge or a refusal only tells the player what to do next.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from nacl.public import PrivateKey

from firmware_bridge.protocol import contract, crypto, pairing_contract, pake
from firmware_bridge.protocol.schema import NotJson, fields_problem, loads
from firmware_bridge.protocol.signing import PAIRING_DOMAIN, PublicSigner

log = logging.getLogger(__name__)
MIN_SQUARE_CHOICES = 30  # fewer squares to choose from would make the two covered ones guessable
Publish = Callable[[str, bytes], Any]


def decode_pairing(kind: str, raw: bytes) -> dict[str, Any]:
    """A pairing JSON message as the contract reads it; ContractError if it is none."""
    if len(raw) > contract.MAX_PUBLIC_PAYLOAD:
        raise contract.ContractError(f"{kind} payload of {len(raw)} bytes is too large", "too-large")
    try:
        payload = loads(bytes(raw).decode("utf-8"))  # a signature is one more field ("sig")
    except (UnicodeDecodeError, NotJson) as error:
        raise contract.ContractError(f"{kind} payload is not JSON: {error}") from None
    problem = fields_problem(kind, pairing_contract.SCHEMAS[kind], payload, pairing_contract.strictly(kind))
    if problem:
        raise contract.ContractError(problem)
    return payload


class PairingClient:
    """One client's pairing: its requests, its attempts and what the referee granted."""

    def __init__(self, topics: contract.Topics, client_id: str, key: PrivateKey, publish: Publish) -> None:
        self.topics, self.client_id, self.key, self.publish = topics, client_id, key, publish
        self.asker = PublicSigner.generate(PAIRING_DOMAIN)
        self.seat: str | None = None
        self.name = ""
        self.method = "code"
        self.attempt = 0
        self.exchange: pake.TabletExchange | None = None
        self.squares: list[str] | None = None
        self.status: dict[str, Any] | None = None  # what the player is shown (the app's last_pairing)

    @property
    def key_text(self) -> str:
        """This client's X25519 key, the one a seat is sealed to."""
        return crypto.key_to_text(self.key.public_key)

    def ids(self) -> pake.Identities:
        """The identities bound into the exchange."""
        assert self.seat is not None
        return pake.Identities(self.topics.board, self.seat, self.client_id, self.key_text, self.asker.verify_key)

    def ask(self, seat: str, name: str = "", method: str = "code") -> None:
        """Ask for ``seat`` ("red", "blue" or "display"); a fresh asking key each time."""
        self.asker = PublicSigner.generate(PAIRING_DOMAIN)
        self.seat, self.name, self.method, self.exchange, self.squares = seat, name[:40], method, None, None
        self.status = None
        self.resend_request()

    def resend_request(self) -> None:
        """Ask (again, with the same keys: the referee answers a repeat with the same request)
        while no answer came, e.g. when the referee was not listening yet."""
        if self.seat and self.status is None:
            body = {"v": pairing_contract.PAIRING_VERSION, "client": self.client_id, "seat": self.seat,
                    "key": self.key_text, "asker": self.asker.verify_key, "method": self.method,
                    "name": self.name}
            self._send(self.topics.pair_request, body)

    def send_code(self, code: str) -> None:
        """Start an attempt with the six digits the referee's console shows."""
        self._start(pake.code_password(code.strip()))

    def cover_squares(self, candidates: list[str]) -> list[str]:
        """Choose two of the empty squares for the player to cover, and start that attempt."""
        names = sorted({s for s in candidates if isinstance(s, str) and pake.SQUARE.fullmatch(s)})
        if len(names) < MIN_SQUARE_CHOICES:
            raise pake.PakeError(f"only {len(names)} squares to choose from: too easy to guess")
        first = names.pop(secrets.randbelow(len(names)))
        squares = sorted([first, names[secrets.randbelow(len(names))]])
        self._start(pake.squares_password(squares))
        self.squares = squares
        return squares

    def _start(self, password: bytes) -> None:
        if self.seat is None:
            raise RuntimeError("ask for a seat first")
        self.attempt += 1
        self.exchange = pake.TabletExchange(password, self.ids())
        self._send(self.topics.pair_code(self.client_id), {
            "v": pairing_contract.PAIRING_VERSION, "asker": self.asker.verify_key, "step": "start",
            "attempt": self.attempt, "pake": self.exchange.message_text})

    def _send(self, topic: str, body: dict[str, Any]) -> None:
        problem = fields_problem("pair", pairing_contract.SCHEMAS[
            "pair_request" if topic == self.topics.pair_request else "pair_attempt"], body, True)
        if problem:
            raise contract.ContractError(problem)
        self.publish(topic, self.asker.sign(topic, contract.json_text(body)))

    def on_reply(self, raw: bytes) -> tuple[str, dict[str, Any]] | None:
        """A message on ``pair/<client>``: ("challenge"|"waiting"|"refused", reply) to show,
        ("granted", grant) once the seat is ours, or None when it is not for this attempt."""
        try:
            reply = decode_pairing("pair_reply", raw)
        except contract.ContractError as error:
            log.debug("ignored a pairing message: %s", error)
            return None
        if reply.get("asker") != self.asker.verify_key or reply["seat"] != self.seat:
            return None  # another asking of this client id (or a stranger's noise)
        status = reply["status"]
        if status == "pake":
            return self._answer(reply)
        if status == "granted":
            return self._granted(reply)
        if status == "waiting":  # the approval of the seat's present tablet, sealed to us
            return self._waiting(reply)
        if status == "challenge" and reply.get("method") == "squares":
            return self._squares(reply)
        # "challenge" and "refused" are unauthenticated hints: they never end an attempt.
        self.status = reply
        return status, reply

    def _squares(self, reply: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        # The first offer of squares starts the attempt; a repeated offer changes nothing (the
        # player keeps covering the squares already shown).
        if self.squares is None:
            try:
                self.cover_squares(reply.get("squares") or [])
            except pake.PakeError as error:
                log.warning("no presence pairing: %s", error)
                return None
        assert self.squares is not None
        self.status = {**reply, "squares": list(self.squares),
                       "message": f"Put a piece on {self.squares[0]} and one on {self.squares[1]}."}
        return "challenge", self.status

    def _answer(self, reply: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        exchange = self.exchange
        if exchange is None or reply.get("attempt") != self.attempt or exchange.keys is not None:
            return None
        try:
            keys = exchange.answer(reply.get("pake"), reply.get("confirm"))
        except pake.PakeError as error:
            log.info("a pairing answer did not confirm: %s", error)
            if self.squares is not None:
                return None  # the squares stay shown: the referee answers once they are covered
            # The referee's count of the tries left (a hint, like every refusal), for the app to
            # say in its language: none left, and the next try would be refused anyway.
            tries = reply.get("tries_left")
            wrong = {"status": "refused", "seat": self.seat, "method": "code",
                     "message": "The code did not match: type it again.", "reason": "wrong-code",
                     "data": {"tries_left": tries} if isinstance(tries, int) else {}}
            if tries == 0:
                wrong.update(reason="too-many-codes", message="No tries left: ask again.", data={})
            self.status = wrong
            return "refused", wrong
        box = pake.seal(keys.to_referee, {"key": self.key_text, "name": self.name})
        self._send(self.topics.pair_code(self.client_id), {
            "v": pairing_contract.PAIRING_VERSION, "asker": self.asker.verify_key, "step": "confirm",
            "attempt": self.attempt, "confirm": keys.confirmation("tablet"), "box": box})
        return None

    def _opened(self, reply: dict[str, Any], kind: str) -> dict[str, Any] | None:
        keys = self.exchange.keys if self.exchange else None
        if keys is None or reply.get("attempt") != self.attempt:
            return None
        try:
            body = pake.open_sealed(keys.to_tablet, reply.get("box"))
        except pake.PakeError as error:
            log.info("a sealed pairing answer did not open: %s", error)
            return None
        problem = fields_problem(kind, pairing_contract.SCHEMAS[kind], body, False) if kind in \
            pairing_contract.SCHEMAS else None
        return None if problem else body

    def _granted(self, reply: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        grant = self._opened(reply, "pair_grant")
        if grant is None or grant["seat"] != self.seat or grant["board"] != self.topics.board:
            return None
        self.status = {"status": "granted", "seat": self.seat, "message": reply.get("message", "")}
        return "granted", grant

    def _waiting(self, reply: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        body = self._opened(reply, "waiting")
        if body is None:
            return None
        self.status = {"status": "challenge", "method": "approval", "seat": self.seat,
                       "fingerprint": body.get("fingerprint"), "message": body.get("message", "")}
        return "waiting", self.status
