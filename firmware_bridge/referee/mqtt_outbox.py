"""The publisher's way out over MQTT: public payloads stamped and signed, a seat's stamped and sealed.

Public messages (info, presence, state, events, errors) are validated, stamped, encoded and signed
with the referee's signing key, so nobody on the broker can forge one; a seat's messages are
stamped and sealed to the key of the tablet that holds the seat (the game table's seats say
which). The stamp (protocol/freshness.py) is the board, the referee's run, a number that grows
with every message, and for a game's messages its ``game_no``: a genuine but old message is
worth nothing to whoever replays it.

The outbox also knows what it published on its retained topics and how many copies of each the
broker still owes it: a copy arriving beyond those is someone else's (a forgery, or an old
message of ours replayed), and the referee publishes its current message over it.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.freshness import StampCounter
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee.table import GameTable

GAME_KINDS = frozenset({"state", "events"})


class Transport(Protocol):
    """What the outbox needs of the MQTT link (protocol/mqtt_link.py)."""

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> Any:
        """Send bytes to a topic."""


class MqttOutbox:
    """Stamps, signs, seals and publishes the referee's messages on one board's topics."""

    def __init__(self, link: Transport, topics: contract.Topics, key: crypto.PrivateKey,
                 signer: PublicSigner, table: GameTable, run: int,
                 game_number: Callable[[str], int]) -> None:
        self.link, self.topics, self.key, self.signer, self.table = link, topics, key, signer, table
        self.stamps = StampCounter(run)
        self._game_number = game_number
        self._game_numbers: dict[str, int] = {}
        self._channels: dict[str, crypto.Channel] = {}
        self._current: dict[str, bytes] = {}  # retained topic -> what we published there last
        self._owed: dict[str, Counter[bytes]] = {}  # retained topic -> echoes the broker owes us
        self._lock = threading.Lock()

    @property
    def run(self) -> int:
        """This run of the referee (the journal raises it at every start)."""
        return self.stamps.run

    def game_no(self, game: str) -> int:
        """The journal's number of ``game`` (only grows from game to game)."""
        number = self._game_numbers.get(game)
        if number is None:
            number = self._game_numbers[game] = self._game_number(game)
        return number

    def _stamp(self, game: str | None = None) -> dict[str, Any]:
        with self._lock:
            stamp: dict[str, Any] = {"board": self.topics.board, **self.stamps.next()}
        if game is not None:
            stamp["game_no"] = self.game_no(game)
        return stamp

    def _public_topic(self, kind: str) -> str:
        if kind == "presence":
            return self.topics.presence("referee")
        return {"info": self.topics.info, "state": self.topics.state, "events": self.topics.events,
                "error": self.topics.errors}[kind]

    def _sent(self, topic: str, payload: bytes, retain: bool) -> bytes:
        if retain:
            with self._lock:
                self._current[topic] = payload
                self._owed.setdefault(topic, Counter())[payload] += 1
        return payload

    def signed(self, kind: str, body: dict[str, Any], retain: bool = False) -> bytes:
        """A public payload as it goes out: stamped, validated, encoded and signed for its topic."""
        topic = self._public_topic(kind)
        stamped = {**body, **self._stamp(body.get("game") if kind in GAME_KINDS else None)}
        return self._sent(topic, self.signer.sign(topic, contract.encode(kind, stamped)), retain)

    def public(self, kind: str, body: dict[str, Any], retain: bool = False) -> None:
        """Stamp, sign and publish a public message."""
        self.link.publish(self._public_topic(kind), self.signed(kind, body, retain), retain=retain)

    def presence(self, online: bool) -> bytes:
        """The referee's signed presence (also its farewell), stamped like every message."""
        body = {"v": 1, "client": "referee", "role": "referee", "online": online}
        return self.signed("presence", body, retain=True)

    def will(self) -> bytes:
        """The last will of the next connection: offline, stamped after all of that connection's
        messages and before anything after it, so a will replayed later is old."""
        topic = self.topics.presence("referee")
        with self._lock:
            self.stamps.reconnected()
            stamp = {"board": self.topics.board, **self.stamps.will()}
        body = {"v": 1, "client": "referee", "role": "referee", "online": False, **stamp}
        return self.signer.sign(topic, contract.encode("presence", body))

    def stranger_copy(self, topic: str, raw: bytes) -> bool:
        """Whether ``raw`` on a retained topic of ours is more than the broker's echo of what we
        published: a forgery or an old message replayed, over which the current one must go."""
        with self._lock:
            owed = self._owed.get(topic)
            if owed is not None and owed[raw] > 0:
                owed[raw] -= 1
                if owed[raw] == 0:
                    del owed[raw]
                return False
            return True

    def current(self, topic: str) -> bytes | None:
        """What we last published on a retained topic (None: nothing yet)."""
        with self._lock:
            return self._current.get(topic)

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
            header = {"topic": topic, "id": body["id"], **self._stamp()}
        else:
            topic = self.topics.seat_state(seat) if kind == "seat_state" else self.topics.seat_events(seat)
            game = body.get("game")
            header = {"topic": topic, "game": game, "seq": body.get("seq"),
                      **self._stamp(game if isinstance(game, str) else None)}
        envelope = self._sent(topic, channel.seal(header, dict(body)), retain)
        self.link.publish(topic, envelope, retain=retain)

    def to_tablet(self, client: str, tablet: crypto.PublicKey, body: dict[str, Any]) -> None:
        """A message sealed to a tablet's seat key on its pairing topic ("lost")."""
        topic = self.topics.pair_reply(client)
        body = contract.validate("pair_reply", body)
        self.link.publish(topic, crypto.Channel(self.key, tablet).seal({"topic": topic, **self._stamp()}, body))

    def pairing(self, client: str, body: dict[str, Any]) -> None:
        """A pairing answer (public JSON, signed: it tells a stranger nothing)."""
        topic = self.topics.pair_reply(client)
        contract.validate("pair_reply", body)
        self.link.publish(topic, self.signer.sign(topic, contract.json_text(body)))
