"""The MQTT link on a real mosquitto: every handler of a topic hears it, and so a tablet app that
follows the referee's presence too still lets its seat client see the referee come back."""

from __future__ import annotations

import socket
import threading

import pytest

from firmware_bridge.protocol import contract
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.service import Referee, RefereeSettings
from tests.firmware_bridge.helpers import start_table, wait_until


class Heard:
    """A handler that remembers the payloads it got and can wait for a number of them."""

    def __init__(self) -> None:
        self.payloads: list[bytes] = []
        self._changed = threading.Condition()

    def __call__(self, topic: str, payload: bytes) -> None:
        with self._changed:
            self.payloads.append(payload)
            self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = 10.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.payloads) >= count, timeout)


def _linked(url: str, name: str) -> MqttLink:
    link = MqttLink(url, name)
    assert link.start(wait=10)
    return link


def test_two_handlers_of_one_topic_both_hear_every_message(mosquitto):
    sender = _linked(mosquitto.url, "sender")
    # Retained, so the listener hears it whenever its subscription reaches the broker.
    sent = sender.publish("t/a", b"1", retain=True)
    assert sent is not None
    sent.wait_for_publish(timeout=10)
    listener = MqttLink(mosquitto.url, "listener")
    first, second = Heard(), Heard()
    listener.subscribe("t/a", first)
    listener.subscribe("t/a", second)
    listener.subscribe("t/a", first)  # the same handler twice still hears a message once
    try:
        assert listener.start(wait=10)
        assert first.wait_for(1) and second.wait_for(1)
        # Forgetting one handler leaves the other subscribed.
        listener.unsubscribe("t/a", first)
        sender.publish("t/a", b"2")
        assert second.wait_for(2)  # the handlers of one message run in turn: first's would be done
        assert first.payloads == [b"1"] and second.payloads == [b"1", b"2"]
    finally:
        listener.stop()
        sender.stop()


def test_a_tablet_whose_app_follows_the_referee_presence_resends_when_the_referee_is_back(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db")
    red = table.red
    # The app around the seat client follows the referee's presence as well (as SeatLink did).
    app_heard = Heard()
    red.link.subscribe(red.topics.presence("referee"), app_heard)
    red.resend_after = 3600.0  # no timed resend: only the referee's return may bring the command back
    table.referee.stop()
    assert red.wait(lambda c: not c.referee_online)
    command_id = red.offer_draw()  # lost: nobody listens to commands while the referee is away
    settings = RefereeSettings("b1", tmp_path / "journal.db", mosquitto.url, variant="barrage")
    table.referee = Referee(settings)
    try:
        assert table.referee.start()
        # The seat client heard "online" (beside the app) and resent the pending command at once.
        assert red.wait(lambda c: command_id in c.replies, timeout=15), "the command was not resent"
        assert red.referee_online
        assert any(contract.decode("presence", p)["online"] for p in app_heard.payloads)
    finally:
        table.close()


def test_the_link_sends_each_packet_at_once_and_again_after_a_reconnect(mosquitto):
    # Nagle's algorithm would hold a move's later messages until the broker's delayed ACK (40 ms).
    link = _linked(mosquitto.url, "no-delay")
    try:
        assert link.client.socket().getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        link.client.socket().close()  # the connection drops; the link connects again by itself
        assert wait_until(lambda: link.connected.is_set() and link.client.socket() is not None
                          and link.client.socket().fileno() != -1, 10)
        assert link.client.socket().getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        link.stop()


@pytest.mark.parametrize("broker", ["embedded", "mosquitto"])
def test_a_message_sent_while_the_link_connects_follows_the_connect_and_arrives(broker, request):
    # paho opens the socket, then queues CONNECT: a publish from another thread in between
    # went out first, and a broker drops a connection whose first packet is not CONNECT
    # (MQTT-3.1.0-1). The display's pairing request, sent right after start(), hit that window.
    url = request.getfixturevalue(broker).url
    listener = _linked(url, "listener")
    heard = Heard()
    listener.subscribe("t/early", heard)
    assert wait_until(lambda: listener.connected.is_set(), 10)
    link = MqttLink(url, "early")
    socket_open, sent = threading.Event(), threading.Event()
    dropped: list[object] = []
    opened = link.client.on_socket_open

    def hold_the_connect(client, userdata, sock):
        opened(client, userdata, sock)
        if not socket_open.is_set():  # the first connection only: a reconnect goes on at once
            socket_open.set()
            sent.wait(10)

    link.client.on_socket_open = hold_the_connect
    link.on_connected(lambda: None)
    disconnected = link.client.on_disconnect

    def count_drops(*args):
        dropped.append(args)
        disconnected(*args)

    link.client.on_disconnect = count_drops
    try:
        link.start(wait=None)
        assert socket_open.wait(10)
        link.publish("t/early", b"hello")  # on this thread, between the socket and its CONNECT
        sent.set()
        assert heard.wait_for(1), "the message sent while connecting never arrived"
        assert heard.payloads == [b"hello"]
        assert not dropped, "the broker dropped the connection"
    finally:
        link.stop()
        listener.stop()
