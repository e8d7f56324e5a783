"""The referee's publishing: signing and sending info, presence, state, events and seat snapshots.

A mixin of ``Referee`` (service.py), which owns the attributes declared below. Public payloads
are signed for their topic; a seat's payloads are sealed to the key of the tablet that holds it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from firmware_bridge.protocol import contract, crypto, signing
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee.computer_seat import ComputerSeat
from firmware_bridge.referee.pairing import SeatHandover
from firmware_bridge.referee.refusals import RefusalLog
from firmware_bridge.referee.replay_desk import ReplayDesk
from firmware_bridge.referee.session import Ruling, Session
from firmware_bridge.referee.triumph_session import TriumphSession

if TYPE_CHECKING:
    from firmware_bridge.referee.service import RefereeSettings

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split
SOFTWARE = "arbiter-referee/1"


class Publisher:
    """Signs and publishes what the referee tells the broker (a mixin of ``Referee``)."""

    settings: RefereeSettings
    topics: contract.Topics
    key: crypto.PrivateKey
    public_key: str
    signer: PublicSigner
    session: Session | TriumphSession
    link: MqttLink
    handover: SeatHandover
    refusals: RefusalLog
    replay: ReplayDesk
    computer: ComputerSeat | None
    online: dict[str, str]
    problem: dict[str, str] | None
    back: dict | None
    republished_at: float
    _lock: threading.RLock
    _stopping: threading.Event
    _channels: dict[str, crypto.Channel]
    _last_republish: float
    _recent: dict[str, deque[bytes]]

    if TYPE_CHECKING:
        def board_check(self) -> dict | None: ...
        def _schedule_republish(self) -> None: ...

    def _signed(self, topic: str, kind: str, payload: dict) -> bytes:
        """A public payload as it goes out: validated, encoded and signed for its topic."""
        signed = self.signer.sign(topic, contract.encode(kind, payload))
        with self._lock:
            self._recent.setdefault(topic, deque(maxlen=16)).append(signed)
        return signed

    def _on_own_topic(self, topic: str, raw: bytes) -> None:
        with self._lock:
            if bytes(raw) in self._recent.get(topic, ()):
                return  # our own message, echoed back
        try:
            # An old one of ours (retained from before a restart): the republish on connect
            # replaces it. Answering it would make two referees of one board echo each other.
            signing.verify(self.signer.verify_key, topic, raw)
        except signing.SignatureError:
            self.refusals.note(topic, "forged", "a message the referee did not sign, on its own topic")
            self._schedule_republish()

    def _presence(self, online: bool) -> bytes:
        return self._signed(self.topics.presence("referee"), "presence",
                            {"v": 1, "client": "referee", "role": "referee", "online": online})

    def _channel(self, seat: str) -> crypto.Channel | None:
        record = self.session.seats.get(seat)
        if record is None:
            return None
        channel = self._channels.get(record.key)
        if channel is None:
            channel = crypto.Channel(self.key, crypto.public_key_from_text(record.key))
            self._channels[record.key] = channel
        return channel

    def _seal(self, seat: str, topic: str, body: Mapping[str, Any]) -> bytes | None:
        channel = self._channel(seat)
        if channel is None:
            return None
        header = {"topic": topic, "game": body.get("game"), "seq": body.get("seq")}
        return channel.seal(header, dict(body))

    def republish(self) -> None:
        """Publish info, presence and every snapshot (on connect, on hello, after a restart)."""
        with self._lock:
            if self._stopping.is_set():
                return  # an "online" after the farewell would tell the tablets a lie
            self.link.publish(self.topics.info, self._signed(self.topics.info, "info", {
                "v": 1, "board": self.settings.board, "referee_key": self.public_key,
                "variant": self.session.variant.name, "name": self.settings.name,
                "software": SOFTWARE, "sign_key": self.signer.verify_key}), retain=True)
            self.link.publish(self.topics.presence("referee"), self._presence(True), retain=True)
            self._publish_snapshots()
            self._last_republish = time.monotonic()
            if not self.republished_at:
                self.republished_at = self._last_republish

    def _publish_snapshots(self) -> None:
        online = {seat for seat, record in self.session.seats.items() if record.client in self.online}
        state = self.session.public_state(self.settings.board, online, self.board_check(),
                                          self.settings.volcano_markers_sensed)
        state["replay"] = self.replay.public()
        state["problem"] = self.problem
        state["referee_back"] = self.back
        state["computer_move"] = self.computer.public() if self.computer else None
        state["computer"] = self.computer.seat if self.computer and self.computer.active else None
        state["notebook"] = self.settings.notebook_allowed
        self.link.publish(self.topics.state, self._signed(self.topics.state, "state", state), retain=True)
        for seat in contract.SEATS:
            topic = self.topics.seat_state(seat)
            envelope = self._seal(seat, topic, {**self.session.seat_state(seat),
                                                "pairing_request": self.handover.request(seat)})
            if envelope:
                self.link.publish(topic, envelope, retain=True)

    def _publish_rulings(self, rulings: list[Ruling]) -> None:
        if self.computer:  # the computer hears its seat's events; its setup is announced with them
            rulings = [*rulings, *self.computer.follow(rulings)]
        for ruling in rulings:
            # Public facts only: the log is no place for a hidden rank.
            summary = ", ".join(str(e.get("move") or e.get("type")) for e in ruling.public_events)
            log.info("ruling %d (%s): %s", ruling.seq, ruling.kind, summary,
                     extra={"board": self.settings.board, "game": ruling.game, "seq": ruling.seq})
            clocks = self.session.clock.to_dict(self.session.now())
            self.link.publish(self.topics.events, self._signed(self.topics.events, "events", {
                "v": 1, "game": ruling.game, "seq": ruling.seq, "events": ruling.public_events,
                "clocks": clocks, "at": time.time()}))
            for seat in contract.SEATS:
                topic = self.topics.seat_events(seat)
                body = contract.validate("seat_events", {"v": 1, "seat": seat, "game": ruling.game,
                                                         "seq": ruling.seq,
                                                         "events": ruling.seat_events[seat]})
                envelope = self._seal(seat, topic, body)
                if envelope:
                    self.link.publish(topic, envelope)
        if rulings:
            self.back = None  # play went on: the note about the referee's absence has been seen
            self._publish_snapshots()

    def announce(self, rulings: list[Ruling] | None = None) -> None:
        """Publish rulings made outside the service's own paths (tools, tests); the computer seat acts."""
        with self._lock:
            self._publish_rulings(list(rulings or []))

    def _reply(self, seat: str, topic: str, reply: Mapping[str, Any]) -> None:
        channel = self._channel(seat)
        if channel:
            self.link.publish(topic, channel.seal({"topic": topic, "id": reply["id"]}, dict(reply)))
