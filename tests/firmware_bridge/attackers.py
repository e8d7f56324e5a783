"""A stranger on the family's broker, for the attack tests: it reads everything, keeps what the
referee published, and republishes, forges or floods (loopback only, bounded in count and time). The attacks run on both brokers: the
``broker_url`` fixture (tests/conftest.py)."""

from __future__ import annotations

import threading

from firmware_bridge.protocol.mqtt_link import MqttLink


class Stranger:
    """An anonymous client that records every message on the board's topics and can send any."""

    def __init__(self, url: str, board: str = "b1", name: str = "stranger") -> None:
        self.messages: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self.link = MqttLink(url, name)
        self.link.subscribe(f"arbiter/v1/{board}/#", self._heard)
        assert self.link.start()

    def _heard(self, topic: str, payload: bytes) -> None:
        with self._lock:
            self.messages.append((topic, bytes(payload)))

    def heard(self, topic: str, contains: bytes = b"") -> list[bytes]:
        """Every payload heard on ``topic`` (that contains ``contains``), oldest first."""
        with self._lock:
            return [p for t, p in self.messages if t == topic and contains in p]

    def replay(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Publish a copy of something heard (or anything else)."""
        assert self.link.connected.wait(10), "the attacker lost its connection"
        sent = self.link.publish(topic, payload, retain=retain)
        assert sent is not None
        sent.wait_for_publish(5)

    def stop(self) -> None:
        self.link.stop()
