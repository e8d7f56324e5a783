"""A paho-mqtt client that reconnects by itself and resubscribes, for the referee and the apps.

MQTT 3.1.1 only, clean sessions: nothing relies on the broker keeping state across a
reconnect. Whoever uses the link registers ``on_connected`` callbacks to resync (the referee
republishes its snapshots, a client says hello) every time the connection comes back.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)
Handler = Callable[[str, bytes], None]
Will = tuple[str, bytes, bool]  # topic, payload, retained


@dataclass(frozen=True)
class BrokerURL:
    """Where a broker is: ``mqtt://user:pass@host:1883`` or ``mqtts://host:8883``."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerURL:
        """Parse an mqtt:// or mqtts:// URL; raise ValueError on anything else."""
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts"):
            raise ValueError(f"broker URL must start with mqtt:// or mqtts://, got {url!r}")
        if not parts.hostname:
            raise ValueError(f"broker URL {url!r} names no host")
        tls = parts.scheme == "mqtts"
        return cls(host=parts.hostname, port=parts.port or (8883 if tls else 1883), tls=tls,
                   username=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None)

    def with_credentials(self, username: str | None, password: str | None) -> BrokerURL:
        """The same broker with other credentials."""
        return BrokerURL(self.host, self.port, self.tls, username, password)

    def __str__(self) -> str:
        scheme = "mqtts" if self.tls else "mqtt"
        user = f"{self.username}@" if self.username else ""
        return f"{scheme}://{user}{self.host}:{self.port}"


def _no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Send each packet at once (TCP_NODELAY): with Nagle's algorithm a small packet written
    while an earlier one waits for its ACK is held until the ACK, and the peer delays its ACK
    up to 40 ms; a move's messages (events, snapshots, a reply) went out in such bursts."""
    with contextlib.suppress(AttributeError, OSError):  # not TCP (a unix socket, a websocket)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class MqttLink:
    """A connected paho client with remembered subscriptions and reconnect callbacks."""

    def __init__(self, url: str | BrokerURL, client_id: str, *,
                 will: Will | Callable[[], Will] | None = None,
                 ca_file: str | None = None, keepalive: int = 15) -> None:
        self.url = BrokerURL.parse(url) if isinstance(url, str) else url
        self.client_id = client_id
        self.connected = threading.Event()
        self._keepalive = keepalive
        # Several parts of a program may follow one topic (a client and the app around it):
        # each filter keeps every handler subscribed to it, in order.
        self._handlers: dict[str, list[Handler]] = {}
        self._on_connected: list[Callable[[], None]] = []
        self.handler_failures: Counter[tuple[str, str]] = Counter()
        # Guards the handlers, `connected` and the held messages together: paho opens a socket
        # and only then queues its CONNECT, and a packet another thread sent in between went
        # first, which a broker answers by dropping the connection (MQTT-3.1.0-1). So nothing
        # is handed to paho unless the broker has accepted the connection; what comes before
        # is held and sent, in order, once it has.
        self._lock = threading.Lock()
        self._held: list[tuple[str, bytes, bool, int]] = []
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv311, clean_session=True)
        client.max_inflight_messages_set(200)
        # paho annotates int seconds but schedules with floats (now + delay)
        client.reconnect_delay_set(min_delay=0.05, max_delay=2)  # type: ignore[arg-type]
        if self.url.username:
            client.username_pw_set(self.url.username, self.url.password)
        if self.url.tls:
            client.tls_set(ca_certs=ca_file, cert_reqs=ssl.CERT_REQUIRED)
        # A will may be made anew for every connection (the referee's is stamped per connection).
        self._will = will
        client.on_socket_open = _no_delay
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        self.client = client

    def _set_will(self) -> None:
        will = self._will() if callable(self._will) else self._will
        if will:
            self.client.will_set(will[0], will[1], qos=1, retain=will[2])

    def subscribe(self, topic_filter: str, handler: Handler) -> None:
        """Also deliver messages matching ``topic_filter`` to ``handler(topic, payload)``, now and
        after reconnects; handlers already there keep theirs (one handler is added once)."""
        with self._lock:
            handlers = self._handlers.setdefault(topic_filter, [])
            if handler not in handlers:
                handlers.append(handler)
            if self.connected.is_set():
                self.client.subscribe(topic_filter, qos=1)

    def unsubscribe(self, topic_filter: str, handler: Handler | None = None) -> None:
        """Forget one handler of a subscription (None: all of them); the last one gone ends it."""
        with self._lock:
            handlers = self._handlers.get(topic_filter, [])
            if handler is not None and handler in handlers:
                handlers.remove(handler)
            if handler is None or not handlers:
                self._handlers.pop(topic_filter, None)
            if topic_filter not in self._handlers and self.connected.is_set():
                self.client.unsubscribe(topic_filter)

    def on_connected(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the network thread) after every connect, once subscriptions are sent."""
        self._on_connected.append(callback)

    def publish(self, topic: str, payload: bytes, retain: bool = False,
                qos: int = 1) -> mqtt.MQTTMessageInfo | None:
        """Send a message, or hold it until the broker accepts the connection (then None)."""
        with self._lock:
            if not self.connected.is_set():
                self._held.append((topic, payload, retain, qos))
                return None
            return self.client.publish(topic, payload, qos=qos, retain=retain)

    def start(self, wait: float | None = 10.0) -> bool:
        """Connect in the background; optionally wait up to ``wait`` seconds for the first connect."""
        self._set_will()
        self.client.connect_async(self.url.host, self.url.port, keepalive=self._keepalive)
        self.client.loop_start()
        return self.connected.wait(wait) if wait else False

    def stop(self, farewell: tuple[str, bytes, bool] | None = None) -> None:
        """Optionally publish a farewell (e.g. offline presence), then disconnect and stop the thread."""
        if farewell and self.connected.is_set():
            info = self.publish(*farewell)
            with contextlib.suppress(RuntimeError, ValueError):
                if info is not None:
                    info.wait_for_publish(timeout=2)
        self._went_down()
        self.client.disconnect()
        self.client.loop_stop()

    def reconnect_as(self, username: str, password: str) -> None:
        """Switch to another broker account (e.g. the seat account from pairing) and reconnect."""
        self.url = self.url.with_credentials(username, password)
        self.client.username_pw_set(username, password)
        # Not on the network thread: loop_stop() there would wait for itself.
        threading.Thread(target=self._restart, name="mqtt-reconnect", daemon=True).start()

    def _restart(self) -> None:
        self._went_down()
        self.client.disconnect()
        self.client.loop_stop()
        self._set_will()
        self.client.connect_async(self.url.host, self.url.port, keepalive=self._keepalive)
        self.client.loop_start()

    def _connected(self, client: mqtt.Client, userdata: object, flags: object,
                   reason: mqtt.ReasonCode, properties: object) -> None:
        if reason.is_failure:
            log.warning("broker %s refused %s: %s", self.url, self.client_id, reason)
            return
        with self._lock:
            filters = list(self._handlers)
            if filters:
                client.subscribe([(f, 1) for f in filters])
            self.connected.set()
            held, self._held = self._held, []
            for topic, payload, retain, qos in held:
                client.publish(topic, payload, qos=qos, retain=retain)
        log.info("connected to %s as %s", self.url, self.client_id)
        for callback in self._on_connected:
            try:
                callback()
            except Exception:  # a resync bug must not kill the network thread
                log.exception("on_connected callback failed")

    def _disconnected(self, client: mqtt.Client, userdata: object, flags: object,
                      reason: mqtt.ReasonCode, properties: object) -> None:
        self._went_down()
        if callable(self._will):
            self._set_will()  # before paho reconnects: the next connection's own will
        log.info("disconnected from %s (%s); paho reconnects", self.url, reason)

    def _went_down(self) -> None:
        # From here on publishes are held, so none can slip in before the next CONNECT.
        with self._lock:
            self.connected.clear()

    def _message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            handlers = [h for f, hs in self._handlers.items() if mqtt.topic_matches_sub(f, message.topic)
                        for h in hs]
        payload = bytes(message.payload)  # paho decodes bytes; its attribute also allows bytearray
        for handler in handlers:
            try:
                handler(message.topic, payload)
            except Exception as error:  # one bad message must not stop the others
                self._handler_failed(handler, message.topic, error)

    def _handler_failed(self, handler: Handler, topic: str, error: Exception) -> None:
        # Anyone on the broker can send anything: one line per kind of failure, no traceback
        # (that goes to the debug log), then only a count.
        kind = (getattr(handler, "__qualname__", repr(handler)), type(error).__name__)
        self.handler_failures[kind] += 1
        if self.handler_failures[kind] == 1:
            log.warning("a message on %s was dropped: %s: %s (more of this kind are only counted)",
                        topic, type(error).__name__, str(error)[:200])
        log.debug("handler for %s failed", topic, exc_info=error)
