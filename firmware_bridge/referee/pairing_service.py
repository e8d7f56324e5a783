"""The referee's side of pairing: requests, SPAKE2 answers, granting a seat, the seat handover.

Its inputs are explicit: the game table (the one writer of the seats: a grant is its ``pair``,
an approval's counter its ``answer``), the outbox (pairing answers signed, "lost" sealed to the
replaced tablet), the referee's keys, what the board offers (the board side's
``PairingSquares``; none without a board, then a code shown on the console), who is still there
(sealed heartbeats, liveness.py) and the journal the limits are kept in. The rules of a request
(tries, limits) live in pairing.py, the approval of a held seat's new tablet in its
``SeatHandover``, the exchange itself in protocol/pake.py. The caller holds the referee's lock
around every call.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from firmware_bridge.protocol import contract, crypto, pairing_contract, pake, signing
from firmware_bridge.protocol.pairing_client import decode_pairing
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.mqtt_outbox import MqttOutbox
from firmware_bridge.referee.pairing import PairingDesk, Refused, Request, SeatHandover
from firmware_bridge.referee.table import GameTable

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split


class PairingSquares(Protocol):
    """What the board tells pairing (board_side.py)."""

    def empty_squares(self) -> list[str] | None:
        """The empty playable squares the sensors read (None: no board is read)."""

    def expected_squares(self) -> frozenset[str]:
        """The squares the game says hold a piece: any other piece on the board is a stray."""


class PairingService:
    """Answers pairing requests and grants seats (and displays' trust)."""

    def __init__(self, table: GameTable, outbox: MqttOutbox, key: crypto.PrivateKey, sign_key: str,
                 online: Callable[[], Mapping[str, str]], changed: Callable[[], None],
                 refuse: Callable[[str, str, str], None], squares: PairingSquares | None = None,
                 seat_accounts: Mapping[str, tuple[str, str]] | None = None,
                 journal: Journal | None = None) -> None:
        self.table, self.outbox, self.key, self.sign_key = table, outbox, key, sign_key
        self.online = online  # client id -> role, from sealed heartbeats
        self.changed = changed  # the snapshots are due again (a seat granted, a request waiting)
        self.refuse = refuse  # (topic, code, message): junk answered on the errors topic
        self.squares = squares
        self.seat_accounts = dict(seat_accounts or {})
        self.desk = PairingDesk(journal)
        self.handover = SeatHandover()  # a held seat's new tablet, waiting for the holder's approval
        self.on_pairing_code: Callable[[str, str], None] | None = None  # (seat, code): show it
        self.on_request: Callable[[dict[str, str], str | None], None] | None = None  # (notice, code)
        self._occupied: frozenset[str] | None = None  # the latest stable board
        self.computer_seat: Callable[[], str | None] = lambda: None  # the seat the computer plays now

    @property
    def board(self) -> str:
        """The board's name, bound into every exchange."""
        return self.outbox.topics.board

    # -- what a tablet sends ----------------------------------------------------------------
    def _signed_by_asker(self, topic: str, raw: bytes, kind: str) -> dict[str, Any] | None:
        try:
            message = decode_pairing(kind, raw)
            signing.verify(message["asker"], topic, raw, signing.PAIRING_DOMAIN)
        except (contract.ContractError, signing.SignatureError) as error:
            self.refuse(topic, getattr(error, "code", "malformed"), f"bad pairing message: {error}")
            return None
        return message

    def on_ask(self, topic: str, raw: bytes) -> None:
        """A tablet (or a display) asks: a code on the console, or squares to cover on the board."""
        request = self._signed_by_asker(topic, raw, "pair_request")
        if request is None:
            return
        try:
            crypto.public_key_from_text(request["key"])
        except crypto.CryptoError as error:
            self.refuse(topic, "malformed", f"bad pairing request: {error}")
            return
        if self.computer_seat() == request["seat"]:
            # The computer plays that seat: pairing it would silently drop the computer.
            self.outbox.pairing(request["client"], pairing_contract.reply(
                "refused", request["seat"], asker=request["asker"], reason="computer-seat",
                message=f"the computer plays {request['seat']} in this game: choose "
                        "'Play a person' on the other tablet to play it yourself"))
            return
        empty = None
        if self.squares and request["seat"] != "display":
            found = self.squares.empty_squares()
            if found is not None:  # squares a player may cover: empty now, and no piece due there
                expected = self.squares.expected_squares()
                empty = [s for s in found if s not in expected]
        method = "squares" if empty else "code"
        known = request["asker"] in self.desk.pending
        try:
            asked = self.desk.request(request["client"], request["seat"], request["key"], request["asker"],
                                      request.get("name", ""), method)
        except Refused as refused:
            self.refuse(topic, "refused", str(refused))
            self.outbox.pairing(request["client"], pairing_contract.reply(
                "refused", request["seat"], asker=request["asker"], message=str(refused), reason="busy",
                retry_after=refused.retry_after or None))
            return
        self._challenge(asked, empty, shown=known)

    def _challenge(self, request: Request, empty: list[str] | None, shown: bool) -> None:
        if request.method == "code":
            message = f"Type the code the referee shows for {request.name or 'this tablet'}."
        else:
            message = "Cover the two squares this tablet shows with any pieces."
        if shown:
            pass  # asked again (a resend, a reconnect): answered again, shown once
        elif request.method == "code":
            log.warning("pairing code for the %s seat: %s (tablet %r, key %s)", request.seat, request.code,
                        request.name, request.fingerprint)
            if self.on_pairing_code:
                self.on_pairing_code(request.seat, request.code or "")
        else:
            log.info("pairing: the %s seat waits for two squares (tablet %r, key %s)", request.seat,
                     request.name, request.fingerprint)
        if self.on_request and not shown:
            self.on_request(request.notice(), request.code)
        self.outbox.pairing(request.client, pairing_contract.reply(
            "challenge", request.seat, asker=request.asker, method=request.method, message=message,
            squares=empty if request.method == "squares" else None, tries_left=request.tries_left))
        if not shown:
            self.changed()  # the display lists the pending requests

    def on_attempt(self, topic: str, raw: bytes) -> None:
        """A tablet starts an exchange (its SPAKE2 message) or confirms one."""
        try:
            _, _, client = contract.parse_topic(topic)
        except contract.ContractError:
            return
        attempt = self._signed_by_asker(topic, raw, "pair_attempt")
        if attempt is None:
            return
        self.desk.expire()
        request = self.desk.pending.get(attempt["asker"])
        if request is None or request.client != client:
            self.refuse(topic, "refused", "no pairing is pending for this tablet")
            return
        if attempt["step"] == "start":
            self._start(request, attempt)
        else:
            self._confirm(request, attempt)

    def _start(self, request: Request, attempt: dict[str, Any]) -> None:
        if attempt["attempt"] <= request.attempt or "pake" not in attempt:
            return  # a resend of an attempt answered already, or nothing to answer
        request.attempt, request.keys = attempt["attempt"], None
        if request.method == "squares":
            request.tablet_message, request.placements = attempt["pake"], set()
            if self._occupied is not None:  # the squares may be covered already
                self.board_read(self._occupied)
            return  # answered once the board shows two squares covered
        if self.desk.spent(request):
            self.desk.pending.pop(request.asker, None)
            self.outbox.pairing(request.client, pairing_contract.reply(
                "refused", request.seat, asker=request.asker, reason="too-many-codes",
                message="no tries left: ask for the seat again"))
            return
        self._answer(request, pake.code_password(request.code or ""), attempt["pake"])

    def _answer(self, request: Request, password: bytes, tablet_message: str) -> None:
        try:
            message, keys = pake.referee_answer(password, request.ids(self.board), tablet_message)
        except pake.PakeError as error:
            self.refuse(self.outbox.topics.pair_code(request.client), "malformed", str(error))
            return
        request.keys = keys
        self.desk.tried(request)
        self.outbox.pairing(request.client, pairing_contract.reply(
            "pake", request.seat, asker=request.asker, attempt=request.attempt, pake=message,
            confirm=keys.confirmation("referee"), tries_left=request.tries_left))

    def _confirm(self, request: Request, attempt: dict[str, Any]) -> None:
        keys = request.keys
        if keys is None or attempt["attempt"] != request.attempt:
            return
        try:
            keys.check("tablet", attempt.get("confirm"))
            tablet = pake.open_sealed(keys.to_referee, attempt.get("box"))
        except pake.PakeError as error:
            log.warning("pairing: a confirmation for the %s seat did not check (%s)", request.seat, error)
            return
        if tablet.get("key") != request.key:
            log.warning("pairing: the %s seat's confirmation names another key", request.seat)
            return
        log.info("pairing: the %s seat's exchange with %r confirmed", request.seat, request.name)
        self.desk.granted(request)
        self.grant(request)

    def board_read(self, occupied: frozenset[str]) -> None:
        """A stable board: two stray pieces are a try for every request waiting on squares."""
        self._occupied = occupied
        if self.squares is None:
            return
        strays = frozenset(occupied - self.squares.expected_squares())
        if len(strays) != pake.SQUARES_PER_PAIRING:
            return
        self.desk.expire()
        for request in list(self.desk.pending.values()):
            if request.tablet_message is None or strays in request.placements or self.desk.spent(request):
                continue
            request.placements.add(strays)  # one try per placement and request
            self._answer(request, pake.squares_password(sorted(strays)), request.tablet_message)

    # -- granting ---------------------------------------------------------------------------
    def grant(self, request: Request, approved: bool = False) -> None:
        """Give the seat to the request's tablet, unless its present holder must approve first."""
        keys = request.keys
        assert keys is not None, "a grant follows a confirmed exchange"
        if request.seat == "display":
            self._send_grant(request, keys, {})
            log.info("pairing: a display (%r, key %s) now checks the referee's signature",
                     request.name, request.fingerprint)
            return
        holder = self.table.seats.get(request.seat)
        playing = self.table.phase == "playing"
        # A holder whose tablet is gone (no sealed heartbeat: its battery died) cannot approve
        # anybody: then the exchange, which proves presence at the table, is enough.
        holder_here = holder is not None and holder.client in self.online()
        if (not approved and holder_here
                and self.handover.needs_approval(playing, holder.key if holder else None, request)):
            log.warning("pairing: a new tablet (key %s) waits for the %s seat's approval",
                        request.fingerprint, request.seat)
            box = pake.seal(keys.to_tablet, self.handover.wait(request))
            self.outbox.pairing(request.client, pairing_contract.reply(
                "waiting", request.seat, asker=request.asker, attempt=request.attempt, box=box,
                method="approval"))
            self.changed()  # the holder's tablet shows the request
            return
        self.table.pair(request.seat, request.key, request.client, request.name)
        if holder and holder.key != request.key:  # the replaced tablet stops sending
            self.tell_seat_lost(holder, request.seat, "tablet")
        account = self.seat_accounts.get(request.seat)
        self._send_grant(request, keys, {"broker_username": account[0], "broker_password": account[1]}
                         if account else {})
        log.info("the %s seat is now held by %s", request.seat, request.client)
        self.changed()

    def tell_seat_lost(self, holder: Any, seat: str, reason: str) -> None:
        """Tell the tablet that held ``seat`` that it holds it no more (reason: "tablet" took it
        over, or the "computer" plays it now): sealed to its seat key, so only the referee can."""
        message = (f"the computer now plays the {seat} seat" if reason == "computer"
                   else f"Another tablet now holds the {seat} seat.")
        self.outbox.to_tablet(holder.client, crypto.public_key_from_text(holder.key), pairing_contract.reply(
            "lost", seat, reason=reason, message=message))

    def _send_grant(self, request: Request, keys: pake.SessionKeys, extra: dict[str, Any]) -> None:
        grant = {"seat": request.seat, "board": self.board, "referee_key": crypto.key_to_text(self.key.public_key),
                 "sign_key": self.sign_key, "run": self.outbox.run,
                 "game_no": self.outbox.game_no(self.table.game_id), **extra}
        self.outbox.pairing(request.client, pairing_contract.reply(
            "granted", request.seat, asker=request.asker, attempt=request.attempt,
            box=pake.seal(keys.to_tablet, grant), message=f"You hold the {request.seat} seat."
            if request.seat != "display" else "This display shows the referee's game."))

    def approve(self, seat: str, command: dict) -> None:
        """The seat's tablet agrees that the waiting tablet with this fingerprint takes its seat.

        The approval is a seat command like any other: an old or resent one is answered from
        the journal, and its reply is journalled (the table's ``answer``) before it is sent.
        """
        _, owed = self.table.fresh(seat, command)
        if owed is not None:
            self.outbox.to_seat(seat, "reply", owed)
            return
        request, reason = self.handover.approve(seat, command["args"]["fingerprint"])
        if request is None:
            refused = contract.reply(command["id"], False, "refused", reason)
            self.table.answer(seat, command, refused)
            self.outbox.to_seat(seat, "reply", refused)
            return
        granted = contract.reply(command["id"], True, message=f"the new tablet holds the {seat} seat")
        try:
            self.table.answer(seat, command, granted)
        except Exception:
            self.handover.wait(request)  # not recorded, so not granted: the tablet still waits
            raise
        # Answered first: once granted, the seat's replies are sealed to the new tablet.
        self.outbox.to_seat(seat, "reply", granted)
        self.grant(request, approved=True)

    def confirm(self, seat: str) -> bool:
        """The referee's console confirms the tablet waiting for ``seat``; False if none waits."""
        request, _ = self.handover.approve(seat, None)
        if request is not None:
            self.grant(request, approved=True)
        return request is not None

    def pairing_request(self, seat: str, state: dict[str, Any]) -> None:
        """A seat state's part: the tablet waiting for the holder's approval, if any."""
        state["pairing_request"] = self.handover.request(seat)

    def state_part(self, state: dict[str, Any]) -> None:
        """The public state's part: every pending request by name and key fingerprint (no code)."""
        state["pairing"] = self.desk.notices()
