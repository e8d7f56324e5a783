"""The publisher's way out over MQTT: public payloads signed for their topic, a seat's sealed.

Public messages (info, presence, state, events, errors) are validated, encoded and signed with
the referee's signing key, so nobody on the broker can forge one. A seat's messages are sealed
to the key of the tablet that holds the seat (the game table's seats say which); pairing
replies are sealed to the key a tablet asked with. What was published lately is remembered, so
the referee can tell its own retained messages echoed back from a stranger's.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping
from typing import Any, Protocol

from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee.table import GameTable

RECENT = 16  # messages remembered per topic to recognise our own echoes


class Transport(Protocol):
    """What the outbox needs of the MQTT link (protocol/mqtt_link.py)."""

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> Any:
        """Send bytes to a topic."""


def signed_presence(signer: PublicSigner, topics: contract.Topics, online: bool) -> bytes:
    """The referee's presence, signed: online, or its will and its farewell."""
    topic = topics.presence("referee")
    body = {"v": 1, "client": "referee", "role": "referee", "online": online}
    return signer.sign(topic, contract.encode("presence", body))


class MqttOutbox:
    """Signs, seals and publishes the referee's messages on one board's topics."""

    def __init__(self, link: Transport, topics: contract.Topics, key: crypto.PrivateKey,
                 signer: PublicSigner, table: GameTable) -> None:
        self.link, self.topics, self.key, self.signer, self.table = link, topics, key, signer, table
        self._channels: dict[str, crypto.Channel] = {}
        self._recent: dict[str, deque[bytes]] = {}  # topic -> what we published there lately
        self._lock = threading.Lock()

    def _public_topic(self, kind: str) -> str:
        if kind == "presence":
            return self.topics.presence("referee")
        return {"info": self.topics.info, "state": self.topics.state, "events": self.topics.events,
                "error": self.topics.errors}[kind]

    def signed(self, kind: str, body: dict[str, Any]) -> bytes:
        """A public payload as it goes out: validated, encoded and signed for its topic."""
        topic = self._public_topic(kind)
        signed = self.signer.sign(topic, contract.encode(kind, body))
        with self._lock:
            self._recent.setdefault(topic, deque(maxlen=RECENT)).append(signed)
        return signed

    def public(self, kind: str, body: dict[str, Any], retain: bool = False) -> None:
        """Sign and publish a public message."""
        self.link.publish(self._public_topic(kind), self.signed(kind, body), retain=retain)

    def presence(self, online: bool) -> bytes:
        """The referee's signed presence (also its farewell), remembered like every message."""
        signed = signed_presence(self.signer, self.topics, online)
        with self._lock:
            self._recent.setdefault(self.topics.presence("referee"), deque(maxlen=RECENT)).append(signed)
        return signed

    def echoed(self, topic: str, raw: bytes) -> bool:
        """Whether ``raw`` on ``topic`` is one of our own recent messages coming back."""
        with self._lock:
            return bytes(raw) in self._recent.get(topic, ())

    def channel(self, seat: str) -> crypto.Channel | None:
        """The sealed channel to the tablet holding ``seat`` (None: nobody holds it)."""
        record = self.table.seats.get(seat)
        if record is None:
            return None
        with self._lock:
            channel = self._channels.get(record.key)
            if channel is None:
                channel = crypto.Channel(self.key, crypto.public_key_from_text(record.key))
                self._channels[record.key] = channel
            return channel

    def to_seat(self, seat: str, kind: str, body: Mapping[str, Any], retain: bool = False) -> None:
        """Seal a message to the seat's tablet and publish it (dropped when nobody holds the seat)."""
        channel = self.channel(seat)
        if channel is None:
            return
        if kind == "reply":
            topic = self.topics.seat_reply(seat)
            header = {"topic": topic, "id": body["id"]}
        else:
            topic = self.topics.seat_state(seat) if kind == "seat_state" else self.topics.seat_events(seat)
            header = {"topic": topic, "game": body.get("game"), "seq": body.get("seq")}
        self.link.publish(topic, channel.seal(header, dict(body)), retain=retain)

    def to_tablet(self, client: str, tablet: crypto.PublicKey, body: dict[str, Any]) -> None:
        """A pairing reply, sealed to the key the tablet asked with."""
        topic = self.topics.pair_reply(client)
        body = contract.validate("pair_reply", body)
        self.link.publish(topic, crypto.Channel(self.key, tablet).seal({"topic": topic}, body))
