"""The Pi's shipped broker configuration (hardware/deploy/mosquitto.conf) runs on Debian's mosquitto
as docs/deployment.md installs it: its password file and ACL are in force, and every option in it
is one this mosquitto knows (an unknown option stops mosquitto at start)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.broker import MOSQUITTO, Mosquitto
from tests.firmware_bridge.helpers import wait_until

DEPLOY = Path(__file__).resolve().parents[3] / "hardware" / "deploy"


@pytest.fixture
def shipped_broker():
    """mosquitto on the shipped config, its /etc and /var paths moved to a scratch folder."""
    pytest.importorskip("paho.mqtt.client")
    if not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto is not installed")
    broker = Mosquitto(acl=(DEPLOY / "acl").read_text(), passwords={"referee": "referee-secret"},
                       anonymous=True)
    config = (DEPLOY / "mosquitto.conf").read_text()
    for shipped, here in (("listener 1883", f"listener {broker.port} 127.0.0.1"),
                          ("/etc/mosquitto/arbiter.passwd", str(broker.dir / "passwd")),
                          ("/etc/mosquitto/arbiter.acl", str(broker.dir / "acl")),
                          ("/var/lib/mosquitto/", f"{broker.dir}/")):
        assert shipped in config, f"the shipped config no longer says {shipped!r}"
        config = config.replace(shipped, here)
    (broker.dir / "mosquitto.conf").write_text(config + f"log_dest file {broker.dir / 'mosquitto.log'}\n")
    broker._make_readable()
    yield broker.start()
    broker.cleanup()


def _link(url: str, name: str) -> MqttLink:
    link = MqttLink(url, name)
    link.start(wait=None)
    return link


def test_the_pi_config_starts_and_its_accounts_and_acl_hold(shipped_broker):
    assert "set_tcp_nodelay true" in (DEPLOY / "mosquitto.conf").read_text()
    referee = _link(shipped_broker.url_for("referee", "referee-secret"), "referee-b1")
    tablet = _link(shipped_broker.url, "tablet-1")
    impostor = MqttLink(shipped_broker.url_for("referee", "guess"), "impostor")
    answers: list[object] = []
    impostor.client.on_connect = lambda client, userdata, flags, reason, properties: answers.append(reason)
    impostor.start(wait=None)
    heard: list[tuple[str, bytes]] = []
    arrived = threading.Event()

    def hear(topic: str, payload: bytes) -> None:
        heard.append((topic, payload))
        arrived.set()

    try:
        assert referee.connected.wait(10) and tablet.connected.wait(10)
        tablet.subscribe("arbiter/v1/b1/#", hear)
        # Until the subscription holds, what the referee sends passes the tablet by: send the
        # public state until it arrives, then once more behind a private message (the ACL keeps
        # that from anonymous clients; one publisher's messages arrive in order).
        assert wait_until(lambda: referee.publish("arbiter/v1/b1/state", b"public") is not None
                          and arrived.wait(0.2), 10)
        referee.publish("arbiter/v1/b1/seat/red/state", b"private")
        referee.publish("arbiter/v1/b1/state", b"last")
        assert wait_until(lambda: ("arbiter/v1/b1/state", b"last") in heard, 10)
        assert {topic for topic, _ in heard} == {"arbiter/v1/b1/state"}, "anonymous read a seat topic"
        assert wait_until(lambda: bool(answers), 10), "the broker never answered a wrong password"
        assert answers[0].is_failure and not impostor.connected.is_set(), "a wrong password was let in"
    finally:
        for link in (referee, tablet, impostor):
            link.stop()
