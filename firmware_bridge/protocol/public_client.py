"""The public side of a board for apps: base client, sequence tracking, display, hall overview.

`firmware_bridge.protocol.client` re-exports DisplayClient and OverviewClient; see its docstring for
the interface the apps code against.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from nacl.public import PrivateKey

from firmware_bridge.protocol import contract, signing
from firmware_bridge.protocol.freshness import Freshness
from firmware_bridge.protocol.mqtt_link import BrokerURL, MqttLink
from firmware_bridge.protocol.pairing_client import PairingClient
from firmware_bridge.protocol.schema import NotJson, loads
from firmware_bridge.protocol.signing import RefereePin

Callback = Callable[[dict], None] | None
Handler = Callable[[str, bytes], None]
log = logging.getLogger(__name__)
# How long the pinned key must stay silent after a self-signed info with another key before a
# seat or display takes the referee for replaced (the real referee answers a forgery at once).
REPLACED_AFTER_SECONDS = 3.0


def carried_sign_key(raw: bytes) -> str | None:
    """The signing key an ``info`` message names for itself (unverified: only the hall overview,
    whose broker only the boards' bridges may write to, takes it on first use)."""
    try:
        key = loads(bytes(raw).decode("utf-8")).get("sign_key")
    except (UnicodeDecodeError, NotJson, AttributeError):
        return None
    return key if isinstance(key, str) else None


def verified(pin: RefereePin, topic: str, raw: bytes, kind: str) -> dict | None:
    """A referee payload that carries the pinned key's signature, decoded; None (counted) if not."""
    before = sum(pin.dropped.values())
    unsigned = pin.open(topic, raw)
    if unsigned is None:
        if sum(pin.dropped.values()) == before + 1 and before == 0:
            log.warning("dropped a message on %s that the referee did not sign", topic)
        return None
    try:
        return contract.decode(kind, unsigned)
    except contract.ContractError as error:
        pin.dropped["malformed"] += 1
        log.warning("dropped a signed but malformed message on %s: %s", topic, error)
        return None


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
        # The referee's signing key: pinned from a pairing grant or stored credentials, never
        # from info (see signing.py); public messages that fail it are dropped, and so are
        # genuine ones older than what was seen (freshness.py).
        self.pin = RefereePin()
        self.fresh = Freshness(board)
        self.on_info: Callback = None  # a verified info (board, keys, variant) arrived
        # What arrived before the key was pinned (retained messages come in any order): the
        # latest message per topic, checked once the info pins the key.
        self._held: dict[str, tuple[Handler, bytes]] = {}
        self.link.subscribe(self.topics.presence("referee"), self._on_referee_presence)
        self.link.subscribe(self.topics.info, self._on_signed_info)

    def _referee_payload(self, topic: str, raw: bytes, kind: str, handler: Handler,
                         family: str | None = None) -> dict | None:
        """A public payload of this board's referee: signed by the pinned key and fresher than
        anything of its ``family`` seen (None: dropped and counted).

        Before a key is pinned the message is held (``handler`` gets it again once one is).
        """
        if self.pin.key is None:
            self._held[topic] = (handler, raw)
            return None
        payload = verified(self.pin, topic, raw, kind)
        if payload is None:
            return None
        if not self.fresh.accept(family or kind, payload):
            self.pin.dropped["stale"] += 1
            return None
        return payload

    def pin_key(self, key: str) -> None:
        """Trust the referee's signing key from now on (a pairing grant); read what was held."""
        self.pin.pin(key)
        held, self._held = self._held, {}
        for held_topic, (handler, held_raw) in held.items():
            handler(held_topic, held_raw)

    def _on_signed_info(self, topic: str, raw: bytes) -> None:
        if self.pin.key is None:
            self._referee_heard()
        info = self._referee_payload(topic, raw, "info", self._on_signed_info)
        if info is None:
            return
        self._info_arrived(info)
        if self.on_info:
            self.on_info(info)

    def _info_arrived(self, info: dict) -> None:
        """A verified ``info``: clients that show or use it override this."""

    def _referee_heard(self) -> None:
        """Before pairing: something on the referee's info topic (it republishes it whenever it
        (re)connects), so a pairing request sent while it was away goes again."""
        pairing = getattr(self, "pairing", None)
        if pairing is not None:
            with self._changed:
                pairing.resend_request()

    def _on_referee_presence(self, topic: str, raw: bytes) -> None:
        presence = self._referee_payload(topic, raw, "presence", self._on_referee_presence)
        if presence is not None and presence["client"] != "referee":
            return
        if presence is None:
            return
        online = presence["online"]
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
    """A client that follows one board's snapshots and events in order (a seat, a display), and
    pairs with the referee (its subclass makes ``pairing`` and says in ``_granted`` what it keeps)."""

    pairing: PairingClient
    on_pairing: Callback

    def __init__(self, broker_url: str | BrokerURL, board: str, client_id: str | None,
                 ca_file: str | None = None) -> None:
        super().__init__(broker_url, board, client_id, ca_file)
        self._stream = SequenceTracker()
        self._lock = threading.RLock()
        # When a self-signed info with another signing key than the pinned one last came, and
        # when the pinned key last signed something we accepted (see ``referee_replaced``).
        self._foreign_info_at: float | None = None
        self._genuine_at = time.monotonic()

    @property
    def seq(self) -> int:
        """Sequence number of the snapshot held (-1 before any)."""
        return self._stream.seq

    @property
    def referee_replaced(self) -> bool:
        """A self-signed info with another signing key came, and the pinned key has said nothing
        since for a few seconds: the referee is another one now (a new Pi, a wiped journal).
        (A stranger's forged info is answered by the real referee within moments.)"""
        seen = self._foreign_info_at
        return (seen is not None and self._genuine_at < seen
                and time.monotonic() - seen > REPLACED_AFTER_SECONDS)

    def forget_referee(self) -> None:
        """Forget the pinned key and what counted with it (the referee is another one): until a
        new pairing pins a key, every public message is held unread again."""
        with self._lock:
            self.pin.key = None
            self.fresh.forget()
            self._stream = SequenceTracker()
            self._foreign_info_at = None
            self.referee_online = False
        # What the old key dropped comes again, held unread until a new pairing pins a key.
        self.hello("connect")

    def _on_signed_info(self, topic: str, raw: bytes) -> None:
        carried = carried_sign_key(raw)
        if self.pin.key and carried and carried != self.pin.key:
            try:
                signing.verify(carried, topic, raw)
                self._foreign_info_at = time.monotonic()
            except signing.SignatureError:
                pass
        super()._on_signed_info(topic, raw)

    def _referee_payload(self, topic: str, raw: bytes, kind: str, handler: Handler,
                         family: str | None = None) -> dict | None:
        payload = super()._referee_payload(topic, raw, kind, handler, family)
        if payload is not None:
            self._genuine_at = time.monotonic()
        return payload

    def _events_arrived(self, events: dict, callback: Callback) -> None:
        """Hand an event message on once; a gap in ``seq`` asks the referee for every snapshot."""
        with self._lock:
            gap = self._stream.event_gap(events["game"], events["seq"])
        if gap:
            self.hello("gap")
        if gap is not None and callback:
            callback(events)

    def _on_pair_reply(self, topic: str, raw: bytes) -> None:
        """The referee's answer to our pairing request: a challenge, a refusal, or the grant."""
        with self._lock:
            outcome = self.pairing.on_reply(raw)
            if outcome is None:
                return
            status, body = outcome
            if status == "granted":
                self._foreign_info_at = None
                self._granted(body)
        if self.on_pairing:
            self.on_pairing(self.pairing.status or {})
        self._notify()

    def _granted(self, grant: dict) -> None:
        """What the client keeps of a pairing grant (under ``_lock``): at least the signing key."""
        raise NotImplementedError


class DisplayClient(SequencedClient):
    """The public side of one board: state snapshot, event stream, referee presence.

    A display trusts the referee's signing key only from a pairing by code (``pair()``, then
    ``send_code``: the same SPAKE2 exchange as a tablet's, docs/mqtt.md) or a key it was given
    (``sign_key``, e.g. stored after an earlier pairing); until then it shows nothing.
    """

    role = "display"

    def __init__(self, broker_url: str | BrokerURL, board: str, client_id: str | None = None,
                 ca_file: str | None = None, sign_key: str | None = None) -> None:
        super().__init__(broker_url, board, client_id, ca_file)
        self.on_state: Callback = None
        self.on_events: Callback = None
        self.on_pairing: Callback = None
        self.state: dict | None = None
        self.info: dict | None = None
        self.pairing = PairingClient(self.topics, self.client_id, PrivateKey.generate(), self.link.publish)
        self.link.subscribe(self.topics.state, self._on_state)
        self.link.subscribe(self.topics.events, self._on_events)
        self.link.subscribe(self.topics.pair_reply(self.client_id), self._on_pair_reply)
        if sign_key:
            self.pin_key(sign_key)

    @property
    def last_pairing(self) -> dict | None:
        """What the pairing asks of the person now ({"status", "method", ...}), or None."""
        return self.pairing.status

    @property
    def paired(self) -> bool:
        """True once the referee's signing key is pinned."""
        return self.pin.key is not None

    def pair(self) -> None:
        """Ask the referee for its keys; the referee's console shows a code to type (``send_code``)."""
        self.pairing.ask("display", "display", "code")

    def send_code(self, code: str) -> None:
        """The six digits the referee's console shows for this display."""
        self.pairing.send_code(code)

    def _granted(self, grant: dict) -> None:
        self.fresh.min_run = max(self.fresh.min_run, grant["run"])
        self.fresh.game_no = max(self.fresh.game_no, grant.get("game_no", 0))
        self.pin_key(grant["sign_key"])

    def forget_referee(self) -> None:
        with self._lock:
            super().forget_referee()
            self.state = self.info = None
        self._notify()

    def _info_arrived(self, info: dict) -> None:
        self.info = info
        self._notify()

    def _on_state(self, topic: str, raw: bytes) -> None:
        state = self._referee_payload(topic, raw, "state", self._on_state, "public")
        if state is None:
            return
        if self._stream.snapshot_is_current(state["game"], state["seq"]):
            self.state = state
            if self.on_state:
                self.on_state(state)
            self._notify()

    def _on_events(self, topic: str, raw: bytes) -> None:
        events = self._referee_payload(topic, raw, "events", self._on_events, "public")
        if events is not None:
            self._events_arrived(events, self.on_events)


class OverviewClient(ClientBase):
    """The arbiter's overview in a hall: the public state of every board on one broker.

    Its broker is the hall's, where only the boards' bridges may write (hardware/deploy/acl):
    it takes each board's signing key from ``keys`` or, failing that, from the board's first
    ``info`` (trust on first use, the one place left; docs/deployment.md).
    """

    role = "overview"

    def __init__(self, broker_url: str | BrokerURL, client_id: str | None = None,
                 ca_file: str | None = None, keys: dict[str, str] | None = None) -> None:
        super().__init__(broker_url, "overview", client_id, ca_file)
        self.boards: dict[str, dict] = {}
        self.pins: dict[str, RefereePin] = {b: RefereePin(k) for b, k in (keys or {}).items()}
        self.freshness: dict[str, Freshness] = {}
        self._held_states: dict[str, tuple[str, bytes]] = {}  # board -> a state before its pin
        self.on_state: Callback = None
        self.link.subscribe(f"{contract.ROOT}/+/info", self._on_board_info)
        self.link.subscribe(f"{contract.ROOT}/+/state", self._on_state)

    def _announce(self) -> None:
        self.link.publish(self.topics.presence(self.client_id), self._presence(True), retain=True)

    def _board_pin(self, topic: str) -> tuple[str, RefereePin] | None:
        try:
            board = contract.parse_topic(topic)[0]
        except contract.ContractError:
            return None
        return board, self.pins.setdefault(board, RefereePin())

    def _on_board_info(self, topic: str, raw: bytes) -> None:
        found = self._board_pin(topic)
        if found is None:
            return
        board, pin = found
        if pin.key is not None:
            return
        carried = carried_sign_key(raw)
        if carried is None or verified(RefereePin(carried), topic, raw, "info") is None:
            return
        pin.pin(carried)
        held = self._held_states.pop(board, None)
        if held:
            self._on_state(*held)

    def _on_state(self, topic: str, raw: bytes) -> None:
        found = self._board_pin(topic)
        if found is None:
            return
        board, pin = found
        if pin.key is None:
            self._held_states[board] = (topic, raw)
            return
        state = verified(pin, topic, raw, "state")
        if state is None or state["board"] != board:
            return
        if not self.freshness.setdefault(board, Freshness(board)).accept("public", state):
            return
        self.boards[board] = state
        if self.on_state:
            self.on_state(state)
        self._notify()
