"""The referee's side of pairing: pairing requests and codes, granting a seat, the seat handover.

Its inputs are explicit: the game table (the one writer of the seats: a grant is its ``pair``,
an approval's counter its ``answer``), the outbox that seals pairing replies, the referee's key,
the signing key a granted tablet pins, and what the board offers for a challenge (the board
side's ``PairingSquares``; none without a board, then a code shown on the console). The rules of
a challenge (square or code, tries) live in pairing.py, the approval of a held seat's new tablet
in its ``SeatHandover``. The caller holds the referee's lock around every call.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from firmware_bridge.protocol import contract, crypto
from firmware_bridge.referee.mqtt_outbox import MqttOutbox
from firmware_bridge.referee.pairing import Challenge, PairingDesk, SeatHandover
from firmware_bridge.referee.table import GameTable

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split


class PairingSquares(Protocol):
    """Where a piece may be put to prove presence at the board (board_side.py)."""

    def empty_squares(self) -> list[str] | None:
        """The empty playable squares the sensors read (None: no board is read)."""

    def middle_squares(self) -> set[str]:
        """The squares no setup covers, preferred for a challenge."""


class PairingService:
    """Answers pairing requests and grants seats."""

    def __init__(self, table: GameTable, outbox: MqttOutbox, key: crypto.PrivateKey, sign_key: str,
                 online: Callable[[], Mapping[str, str]], changed: Callable[[], None],
                 refuse: Callable[[str, str, str], None], squares: PairingSquares | None = None,
                 seat_accounts: Mapping[str, tuple[str, str]] | None = None) -> None:
        self.table, self.outbox, self.key, self.sign_key = table, outbox, key, sign_key
        self.online = online  # client id -> role, from presence
        self.changed = changed  # the snapshots are due again (a seat granted, a request waiting)
        self.refuse = refuse  # (topic, code, message): junk answered on the errors topic
        self.squares = squares
        self.seat_accounts = dict(seat_accounts or {})
        self.desk = PairingDesk()
        self.handover = SeatHandover()  # a held seat's new tablet, waiting for the holder's approval
        self.on_pairing_code: Callable[[str, str], None] | None = None  # (seat, code): show it
        self.computer_seat: Callable[[], str | None] = lambda: None  # the seat the computer plays now

    def on_request(self, topic: str, raw: bytes) -> None:
        """A tablet asks for a seat: a challenge (a square on the board, or a code)."""
        try:
            request = contract.validate("pair_request", crypto.open_anonymous(self.key, raw))
            tablet = crypto.public_key_from_text(request["key"])
        except (crypto.CryptoError, contract.ContractError) as error:
            self.refuse(topic, "malformed", f"bad pairing request: {error}")
            return
        if self.computer_seat() == request["seat"]:
            # The computer plays that seat: pairing it would silently drop the computer.
            self.outbox.to_tablet(request["client"], tablet, {
                "v": 1, "status": "refused", "seat": request["seat"], "reason": "computer-seat",
                "message": f"the computer plays {request['seat']} in this game: choose "
                           "'Play a person' on the other tablet to play it yourself"})
            return
        empty = self.squares.empty_squares() if self.squares else None
        middle = self.squares.middle_squares() if self.squares else set()
        challenge = self.desk.request(request["client"], request["seat"], request["key"],
                                      request.get("name", ""), empty, middle)
        self.outbox.to_tablet(request["client"], tablet, challenge.reply())
        if challenge.method == "code":
            log.warning("pairing code for the %s seat: %s", challenge.seat, challenge.code)
            if self.on_pairing_code:
                self.on_pairing_code(challenge.seat, challenge.code or "")
        else:
            log.info("pairing: %s seat waits for a piece on %s", challenge.seat, challenge.square)

    def on_code(self, topic: str, raw: bytes) -> None:
        """A tablet sends the code the console showed."""
        try:
            _, _, client = contract.parse_topic(topic)
        except contract.ContractError:
            return
        pending = self.desk.pending.get(client or "")
        if pending is None:
            self.refuse(topic, "refused", "no pairing is pending for this tablet")
            return
        tablet = crypto.public_key_from_text(pending.key)
        try:
            _, body = crypto.Channel(self.key, tablet).open(raw, expect={"topic": topic})
            code = contract.validate("pair_code", body)["code"]
        except (crypto.CryptoError, contract.ContractError) as error:
            self.refuse(topic, "malformed", f"bad pairing code message: {error}")
            return
        challenge, reason = self.desk.code_entered(client or "", code)
        if challenge:
            self.grant(challenge)
        else:
            status = "challenge" if client in self.desk.pending else "refused"
            self.outbox.to_tablet(client or "", tablet, {
                "v": 1, "status": status, "seat": pending.seat, "method": "code", "message": reason,
                "reason": getattr(reason, "key", ""), "data": getattr(reason, "data", {})})

    def board_read(self, occupied: frozenset[str]) -> None:
        """A stable board: a piece on a challenge's square grants its seat."""
        for challenge in self.desk.placed(occupied):
            self.grant(challenge)

    def grant(self, challenge: Challenge, approved: bool = False) -> None:
        """Give the seat to the challenge's tablet, unless its present holder must approve first."""
        holder = self.table.seats.get(challenge.seat)
        playing = self.table.phase == "playing"
        # A holder whose tablet is gone (its battery died, say) cannot approve anybody: then the
        # challenge, which proves presence at the board, is enough, as it is before a game.
        holder_here = holder is not None and holder.client in self.online()
        if (not approved and holder_here
                and self.handover.needs_approval(playing, holder.key if holder else None, challenge)):
            log.warning("pairing: a new tablet (key %s) waits for the %s seat's approval",
                        crypto.fingerprint(challenge.key), challenge.seat)
            self.outbox.to_tablet(challenge.client, crypto.public_key_from_text(challenge.key),
                                  self.handover.wait(challenge))
            self.changed()  # the holder's tablet shows the request
            return
        self.table.pair(challenge.seat, challenge.key, challenge.client, challenge.name)
        if holder and holder.key != challenge.key:  # the replaced tablet stops sending
            self.tell_seat_lost(holder, challenge.seat, "tablet")
        body: dict[str, Any] = {"v": 1, "status": "granted", "seat": challenge.seat,
                                "message": f"You hold the {challenge.seat} seat.",
                                # Authenticated by the Box: the tablet pins the referee's signing key from here.
                                "sign_key": self.sign_key}
        account = self.seat_accounts.get(challenge.seat)
        if account:
            body["broker_username"], body["broker_password"] = account
        self.outbox.to_tablet(challenge.client, crypto.public_key_from_text(challenge.key), body)
        log.info("the %s seat is now held by %s", challenge.seat, challenge.client)
        self.changed()

    def tell_seat_lost(self, holder: Any, seat: str, reason: str) -> None:
        """Tell the tablet that held ``seat`` that it holds it no more (reason: "tablet" took it
        over, or the "computer" plays it now); it stops sending."""
        message = (f"the computer now plays the {seat} seat" if reason == "computer"
                   else f"Another tablet now holds the {seat} seat.")
        self.outbox.to_tablet(holder.client, crypto.public_key_from_text(holder.key), {
            "v": 1, "status": "lost", "seat": seat, "reason": reason, "message": message})

    def approve(self, seat: str, command: dict) -> None:
        """The seat's tablet agrees that the waiting tablet with this fingerprint takes its seat.

        The approval is a seat command like any other: an old or resent one is answered from
        the journal, and its reply is journalled (the table's ``answer``) before it is sent.
        """
        _, owed = self.table.fresh(seat, command)
        if owed is not None:
            self.outbox.to_seat(seat, "reply", owed)
            return
        challenge, reason = self.handover.approve(seat, command["args"]["fingerprint"])
        if challenge is None:
            refused = contract.reply(command["id"], False, "refused", reason)
            self.table.answer(seat, command, refused)
            self.outbox.to_seat(seat, "reply", refused)
            return
        granted = contract.reply(command["id"], True, message=f"the new tablet holds the {seat} seat")
        try:
            self.table.answer(seat, command, granted)
        except Exception:
            self.handover.wait(challenge)  # not recorded, so not granted: the tablet still waits
            raise
        # Answered first: once granted, the seat's replies are sealed to the new tablet.
        self.outbox.to_seat(seat, "reply", granted)
        self.grant(challenge, approved=True)

    def confirm(self, seat: str) -> bool:
        """The referee's console confirms the tablet waiting for ``seat``; False if none waits."""
        challenge, _ = self.handover.approve(seat, None)
        if challenge is not None:
            self.grant(challenge, approved=True)
        return challenge is not None

    def pairing_request(self, seat: str, state: dict[str, Any]) -> None:
        """A seat state's part: the tablet waiting for the holder's approval, if any."""
        state["pairing_request"] = self.handover.request(seat)
