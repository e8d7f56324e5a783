"""The referee's side of pairing: pairing requests and codes, granting a seat, the seat handover.

A mixin of ``Referee`` (service.py), which owns the attributes declared below; the rules of a
challenge (square or code, tries) live in pairing.py, the approval of a held seat's new tablet
in its ``SeatHandover``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee.pairing import PairingDesk, SeatHandover
from firmware_bridge.referee.session import Session
from firmware_bridge.referee.triumph_session import TriumphSession

if TYPE_CHECKING:
    from firmware_bridge.referee.service import RefereeSettings

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split


class PairingService:
    """Answers pairing requests and grants seats (a mixin of ``Referee``)."""

    settings: RefereeSettings
    topics: contract.Topics
    key: crypto.PrivateKey
    signer: PublicSigner
    session: Session | TriumphSession
    link: MqttLink
    desk: PairingDesk
    handover: SeatHandover
    on_pairing_code: Callable[[str, str], None] | None
    occupancy: frozenset[str] | None
    online: dict[str, str]  # client id -> role, from presence
    _lock: threading.RLock

    if TYPE_CHECKING:
        def _error(self, topic: str, code: str, message: str) -> None: ...
        def _publish_snapshots(self) -> None: ...
        def _reply(self, seat: str, topic: str, reply: Mapping[str, Any]) -> None: ...

    def _on_pair_request(self, topic: str, raw: bytes) -> None:
        try:
            request = contract.validate("pair_request", crypto.open_anonymous(self.key, raw))
            tablet = crypto.public_key_from_text(request["key"])
        except (crypto.CryptoError, contract.ContractError) as error:
            self._error(topic, "malformed", f"bad pairing request: {error}")
            return
        with self._lock:
            computer = getattr(self, "computer", None)
            if computer is not None and computer.seat == request["seat"] and computer.active:
                # The computer plays that seat: pairing it would silently drop the computer.
                self._send_pair_reply(request["client"], tablet, {
                    "v": 1, "status": "refused", "seat": request["seat"], "reason": "computer-seat",
                    "message": f"the computer plays {request['seat']} in this game: choose "
                               "'Play a person' on the other tablet to play it yourself"})
                return
            empty = self._empty_squares()
            challenge = self.desk.request(request["client"], request["seat"], request["key"],
                                          request.get("name", ""), empty, self._middle_squares())
            self._send_pair_reply(request["client"], tablet, challenge.reply())
            if challenge.method == "code":
                log.warning("pairing code for the %s seat: %s", challenge.seat, challenge.code)
                if self.on_pairing_code:
                    self.on_pairing_code(challenge.seat, challenge.code or "")
            else:
                log.info("pairing: %s seat waits for a piece on %s", challenge.seat, challenge.square)

    def _on_pair_code(self, topic: str, raw: bytes) -> None:
        try:
            _, _, client = contract.parse_topic(topic)
        except contract.ContractError:
            return
        with self._lock:
            pending = self.desk.pending.get(client or "")
            if pending is None:
                self._error(topic, "refused", "no pairing is pending for this tablet")
                return
            tablet = crypto.public_key_from_text(pending.key)
            try:
                _, body = crypto.Channel(self.key, tablet).open(raw, expect={"topic": topic})
                code = contract.validate("pair_code", body)["code"]
            except (crypto.CryptoError, contract.ContractError) as error:
                self._error(topic, "malformed", f"bad pairing code message: {error}")
                return
            challenge, reason = self.desk.code_entered(client or "", code)
            if challenge:
                self._grant(challenge)
            else:
                status = "challenge" if client in self.desk.pending else "refused"
                self._send_pair_reply(client or "", tablet, {
                    "v": 1, "status": status, "seat": pending.seat, "method": "code", "message": reason,
                    "reason": getattr(reason, "key", ""), "data": getattr(reason, "data", {})})

    def _send_pair_reply(self, client: str, tablet: crypto.PublicKey, body: dict) -> None:
        topic = self.topics.pair_reply(client)
        body = contract.validate("pair_reply", body)
        self.link.publish(topic, crypto.Channel(self.key, tablet).seal({"topic": topic}, body))

    def _grant(self, challenge, approved: bool = False) -> None:
        holder = self.session.seats.get(challenge.seat)
        playing = self.session.phase == "playing"
        # A holder whose tablet is gone (its battery died, say) cannot approve anybody: then the
        # challenge, which proves presence at the board, is enough, as it is before a game.
        holder_here = holder is not None and holder.client in self.online
        if (not approved and holder_here
                and self.handover.needs_approval(playing, holder.key if holder else None, challenge)):
            log.warning("pairing: a new tablet (key %s) waits for the %s seat's approval",
                        crypto.fingerprint(challenge.key), challenge.seat)
            self._send_pair_reply(challenge.client, crypto.public_key_from_text(challenge.key),
                                  self.handover.wait(challenge))
            self._publish_snapshots()  # the holder's tablet shows the request
            return
        self.session.pair(challenge.seat, challenge.key, challenge.client, challenge.name)
        if holder and holder.key != challenge.key:  # the replaced tablet stops sending
            self._tell_seat_lost(holder, challenge.seat, "tablet")
        body = {"v": 1, "status": "granted", "seat": challenge.seat,
                "message": f"You hold the {challenge.seat} seat.",
                # Authenticated by the Box: the tablet pins the referee's signing key from here.
                "sign_key": self.signer.verify_key}
        account = self.settings.seat_accounts.get(challenge.seat)
        if account:
            body["broker_username"], body["broker_password"] = account
        self._send_pair_reply(challenge.client, crypto.public_key_from_text(challenge.key), body)
        log.info("the %s seat is now held by %s", challenge.seat, challenge.client)
        self._publish_snapshots()

    def _tell_seat_lost(self, holder, seat: str, reason: str) -> None:
        """Tell the tablet that held ``seat`` that it holds it no more (reason: "tablet" took it
        over, or the "computer" plays it now); it stops sending."""
        message = (f"the computer now plays the {seat} seat" if reason == "computer"
                   else f"Another tablet now holds the {seat} seat.")
        self._send_pair_reply(holder.client, crypto.public_key_from_text(holder.key), {
            "v": 1, "status": "lost", "seat": seat, "reason": reason, "message": message})

    def _approve_pairing(self, seat: str, command: dict) -> None:
        """The seat's tablet agrees that the waiting tablet with this fingerprint takes its seat."""
        record, topic = self.session.seats[seat], self.topics.seat_reply(seat)
        if command["counter"] <= record.last_counter:
            self._reply(seat, topic, contract.reply(command["id"], False, "replayed",
                                                    "an old approval is not taken again"))
            return
        record.last_counter = command["counter"]
        challenge, reason = self.handover.approve(seat, command["args"]["fingerprint"])
        if challenge is None:
            self._reply(seat, topic, contract.reply(command["id"], False, "refused", reason))
            return
        # Answered first: once granted, the seat's replies are sealed to the new tablet.
        self._reply(seat, topic, contract.reply(command["id"], True,
                                                message=f"the new tablet holds the {seat} seat"))
        self._grant(challenge, approved=True)

    def confirm_pairing(self, seat: str) -> bool:
        """The referee's console confirms the tablet waiting for ``seat``; False if none waits."""
        with self._lock:
            challenge, _ = self.handover.approve(seat, None)
            if challenge is not None:
                self._grant(challenge, approved=True)
            return challenge is not None

    def _empty_squares(self) -> list[str] | None:
        if self.occupancy is None or not isinstance(self.session, Session):
            return None  # no board here, or a game the board does not read
        game = self.session.game
        blocked = game.blocked if game else self.session.variant.lakes | frozenset(self.session.volcanoes)
        return sorted(s.name for s in self.session.variant.squares()
                      if s.name not in self.occupancy and s not in blocked)

    def _middle_squares(self) -> set[str]:
        if not isinstance(self.session, Session):
            return set()  # no squares in this game
        variant = self.session.variant
        rows = set(variant.middle_rows())
        return {s.name for s in variant.squares() if s.rank in rows}
