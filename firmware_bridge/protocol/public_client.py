"""The public side of a board for apps: base client, sequence tracking, display, hall overview.

`firmware_bridge.protocol.client` re-exports DisplayClient and OverviewClient; see its docstring for
the interface the apps code against.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from firmware_bridge.protocol import contract
from firmware_bridge.protocol.mqtt_link import BrokerURL, MqttLink

Callback = Callable[[dict], None] | None


def _new_client_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


class ClientBase:
    """What every client shares: the link, presence with a last will, hello on connect."""

    role = "display"

    def __init__(self, broker_url: str | BrokerURL, board: str, client_id: str | None,
                 ca_file: str | None = None) -> None:
        self.topics = contract.Topics(board)
        self.client_id = client_id or _new_client_id(self.role)
        self._changed = threading.Condition()
        offline = self._presence(False)
        self.link = MqttLink(broker_url, self.client_id,
                             will=(self.topics.presence(self.client_id), offline, True), ca_file=ca_file)
        self.link.on_connected(self._announce)
        self.referee_online = False
        self.link.subscribe(self.topics.presence("referee"), self._on_referee_presence)

    def _on_referee_presence(self, topic: str, raw: bytes) -> None:
        try:
            online = contract.decode("presence", raw)["online"]
        except contract.ContractError:
            return
        self.referee_online = online
        # The referee says "online" on every (re)connect: whatever it missed meanwhile is resent.
        if online:
            self._referee_back()
        self._notify()

    def _referee_back(self) -> None:
        """The referee (re)started: it republishes snapshots by itself; nothing else to do here."""

    def _presence(self, online: bool) -> bytes:
        return contract.encode("presence", {"v": 1, "client": self.client_id, "role": self.role,
                                            "online": online})

    def _announce(self) -> None:
        self.link.publish(self.topics.presence(self.client_id), self._presence(True), retain=True)
        self.hello("connect")

    def hello(self, reason: str = "manual") -> None:
        """Ask the referee to republish every snapshot."""
        self.link.publish(self.topics.hello, contract.encode(
            "hello", {"v": 1, "client": self.client_id, "reason": reason}))

    def _notify(self) -> None:
        with self._changed:
            self._changed.notify_all()

    def wait(self, predicate: Callable[[Any], bool], timeout: float = 10.0) -> bool:
        """Block until ``predicate(self)`` holds or ``timeout`` passes; return whether it holds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def start(self, wait: float | None = 10.0) -> bool:
        """Connect in the background (and wait for the first connect up to ``wait`` seconds)."""
        return self.link.start(wait)

    def stop(self) -> None:
        """Say offline and disconnect."""
        self.link.stop(farewell=(self.topics.presence(self.client_id), self._presence(False), True))


class SequenceTracker:
    """Sequence bookkeeping: accept newer snapshots, detect gaps in an event stream.

    The referee publishes a ruling's events before its snapshot, so event ``seq`` normally
    arrives as one more than both the last snapshot and the last event.
    """

    def __init__(self) -> None:
        self.game: str | None = None
        self.seq = -1
        self.event_seq = -1

    def snapshot_is_current(self, game: str, seq: int) -> bool:
        """True if a snapshot (game, seq) should replace what we hold."""
        if game != self.game:
            self.game, self.seq, self.event_seq = game, seq, seq
            return True
        if seq >= self.seq:
            self.seq, self.event_seq = seq, max(self.event_seq, seq)
            return True
        return False  # a stale retained message, e.g. from a broker that reloaded old state

    def event_gap(self, game: str, seq: int) -> bool | None:
        """None: old, duplicate or foreign event; False: the next one; True: deliver, but some were missed."""
        if game != self.game:
            return None if self.game is None else True
        if seq <= self.event_seq:
            return None
        gap = seq != self.event_seq + 1
        self.event_seq = seq
        return gap


class SequencedClient(ClientBase):
    """A client that follows one board's snapshots and events in order (a seat, a display)."""

    def __init__(self, broker_url: str | BrokerURL, board: str, client_id: str | None,
                 ca_file: str | None = None) -> None:
        super().__init__(broker_url, board, client_id, ca_file)
        self._stream = SequenceTracker()
        self._lock = threading.RLock()

    @property
    def seq(self) -> int:
        """Sequence number of the snapshot held (-1 before any)."""
        return self._stream.seq

    def _events_arrived(self, events: dict, callback: Callback) -> None:
        """Hand an event message on once; a gap in ``seq`` asks the referee for every snapshot."""
        with self._lock:
            gap = self._stream.event_gap(events["game"], events["seq"])
        if gap:
            self.hello("gap")
        if gap is not None and callback:
            callback(events)


class DisplayClient(SequencedClient):
    """The public side of one board: state snapshot, event stream, referee presence."""

    role = "display"

    def __init__(self, broker_url: str | BrokerURL, board: str, client_id: str | None = None,
                 ca_file: str | None = None) -> None:
        super().__init__(broker_url, board, client_id, ca_file)
        self.on_state: Callback = None
        self.on_events: Callback = None
        self.state: dict | None = None
        self.info: dict | None = None
        self.link.subscribe(self.topics.state, self._on_state)
        self.link.subscribe(self.topics.events, self._on_events)
        self.link.subscribe(self.topics.info, self._on_info)

    def _on_info(self, topic: str, raw: bytes) -> None:
        self.info = contract.decode("info", raw)
        self._notify()

    def _on_state(self, topic: str, raw: bytes) -> None:
        state = contract.decode("state", raw)
        if self._stream.snapshot_is_current(state["game"], state["seq"]):
            self.state = state
            if self.on_state:
                self.on_state(state)
            self._notify()

    def _on_events(self, topic: str, raw: bytes) -> None:
        self._events_arrived(contract.decode("events", raw), self.on_events)


class OverviewClient(ClientBase):
    """The arbiter's overview in a hall: the public state of every board on one broker."""

    role = "overview"

    def __init__(self, broker_url: str | BrokerURL, client_id: str | None = None,
                 ca_file: str | None = None) -> None:
        super().__init__(broker_url, "overview", client_id, ca_file)
        self.boards: dict[str, dict] = {}
        self.on_state: Callback = None
        self.link.subscribe(f"{contract.ROOT}/+/state", self._on_state)

    def _announce(self) -> None:
        self.link.publish(self.topics.presence(self.client_id), self._presence(True), retain=True)

    def _on_state(self, topic: str, raw: bytes) -> None:
        state = contract.decode("state", raw)
        held = self.boards.get(state["board"])
        if held is None or held["game"] != state["game"] or state["seq"] >= held["seq"]:
            self.boards[state["board"]] = state
            if self.on_state:
                self.on_state(state)
            self._notify()
