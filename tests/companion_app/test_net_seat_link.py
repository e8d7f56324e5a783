"""The tablet's network link on a real mosquitto, without Kivy: its seat client keeps hearing the
referee's presence (so it resends pending commands the moment the referee is back)."""

from __future__ import annotations

import pytest

from companion_app.net import network
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.protocol.signing import PublicSigner
from tests.firmware_bridge.helpers import requires_mosquitto, wait_until

pytestmark = requires_mosquitto


def test_the_seat_client_inside_the_app_still_hears_the_referee_come_and_go(mosquitto, tmp_path, monkeypatch):
    delivered: list[tuple[str, dict]] = []
    # No Kivy here: messages for the UI thread are collected, the connection light is not polled.
    monkeypatch.setattr(network, "to_ui_thread", lambda run: lambda kind, payload: delivered.append((kind, payload)))
    monkeypatch.setattr(network.SeatLink, "_start_polling", lambda self: None)
    link = network.SeatLink(f"{mosquitto.url}/b1", "red", credentials_path=str(tmp_path / "red.json"))
    referee = MqttLink(mosquitto.url, "referee-b1")
    topics = contract.Topics("b1")
    topic = topics.presence("referee")
    signer = PublicSigner.generate()  # the referee signs what it publishes

    stamps = iter(range(1, 100))

    def presence(online: bool) -> bytes:  # stamped, as the referee's (protocol/freshness.py)
        return signer.sign(topic, contract.encode("presence", {
            "v": 1, "client": "referee", "role": "referee", "online": online, "board": "b1", "run": 1,
            "n": next(stamps)}))

    try:
        link.open(lambda kind, payload: None)
        assert link.client.link.connected.wait(10)
        link.client.pin_key(signer.verify_key)  # as its pairing grant would
        assert referee.start(wait=10)
        referee.publish(topics.info, signer.sign(topics.info, contract.encode("info", {
            "v": 1, "board": "b1", "referee_key": "k" * 44, "variant": "classic",
            "sign_key": signer.verify_key, "run": 1, "n": 0})), retain=True)
        referee.publish(topic, presence(True), retain=True)
        assert link.client.wait(lambda c: c.referee_online), "the seat client never heard the referee"
        assert link.referee_online
        referee.publish(topic, presence(False), retain=True)
        assert link.client.wait(lambda c: not c.referee_online)
        assert not link.referee_online
    finally:
        link.close()
        referee.stop()


@pytest.mark.parametrize("kind", ["seat", "display"])
def test_an_empty_or_short_code_is_said_on_the_pairing_screen_and_nothing_is_sent(
        mosquitto, tmp_path, monkeypatch, kind):
    # A stray tap on "Send code" must not cost one of the referee's few tries, nor be silent.
    delivered: list[tuple[str, dict]] = []
    monkeypatch.setattr(network, "to_ui_thread", lambda run: lambda method, payload: delivered.append((method, payload)))
    monkeypatch.setattr(network._NetworkLink, "_start_polling", lambda self: None)
    link: network._NetworkLink = (network.SeatLink(f"{mosquitto.url}/b1", "red", str(tmp_path / "red.json"))
                                  if kind == "seat" else network.DisplayLink(f"{mosquitto.url}/b1", str(tmp_path)))
    watcher = MqttLink(mosquitto.url, "watcher")
    sent: list[str] = []
    watcher.subscribe(f"{contract.Topics('b1').base}/#", lambda topic, raw: sent.append(topic))
    try:
        assert watcher.start(wait=10)
        probe = f"{contract.Topics('b1').base}/probe"
        watcher.publish(probe, b"{}")
        assert wait_until(lambda: probe in sent), "the watcher hears everything from here on"
        link.open(lambda method, payload: None)
        assert link.client.link.connected.wait(10)
        method = "pairing" if kind == "seat" else "display_pairing"
        for code in ("", "123"):
            delivered.clear()
            link.send("pair", {"code": code})
            assert delivered == [(method, {"status": "refused", "method": "code", "bad_code": True})]
        # A six-digit code does go out, after them on the same connection: once the watcher hears
        # it, it would have heard any attempt sent before it.
        link.send("pair", {"code": "123456"})
        assert wait_until(lambda: any(topic.endswith("/code") for topic in sent))
        assert len([topic for topic in sent if topic.endswith("/code")]) == 1
    finally:
        link.close()
        watcher.stop()
