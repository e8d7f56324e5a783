"""A stranger on the family's broker, for the attack tests: it reads everything, keeps what the
referee published, and republishes, forges or floods (loopback only, bounded in count and time)."""

from __future__ import annotations

import os
import threading

import pytest

from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.broker import MOSQUITTO, EmbeddedBroker, Mosquitto, free_port
from tests.system_packages import skip_without


@pytest.fixture(params=["embedded", "mosquitto"])
def broker_url(request):
    """Each attack runs on the embedded broker families use and on an anonymous mosquitto."""
    if request.param == "embedded":
        broker = EmbeddedBroker("127.0.0.1", free_port())
        broker.start()
        yield broker.url
        broker.stop()
    else:
        skip_without("mosquitto", os.access(MOSQUITTO, os.X_OK), "the real MQTT broker the tests start")
        mosquitto = Mosquitto().start()
        yield mosquitto.url
        mosquitto.cleanup()


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
        self.link.publish(topic, payload, retain=retain).wait_for_publish(5)

    def stop(self) -> None:
        self.link.stop()
