"""The embedded broker survives tablets connecting while others subscribe (amqtt 0.12's iteration race).

Without the work-around, amqtt iterates its subscriptions with an await inside the loop and a
client connecting meanwhile dies with "dictionary changed size during iteration" (4 of 5
headless Napoleon's Triumph demos printed that traceback); here clients connect and subscribe
over and over while messages flow, and every one of them must get its connection.
"""

from __future__ import annotations

import logging
import threading

import paho.mqtt.client as mqtt

from firmware_bridge.referee.broker import EmbeddedBroker, free_port

CLIENTS, ROUNDS = 4, 25


def test_clients_connecting_while_others_subscribe_all_get_their_connection(caplog):
    caplog.set_level(logging.DEBUG)
    broker = EmbeddedBroker("127.0.0.1", free_port())
    broker.start()
    done, connected = threading.Event(), []

    def publisher() -> None:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="publisher")
        client.connect("127.0.0.1", broker.port)
        client.loop_start()
        number = 0
        while not done.is_set():
            client.publish(f"arbiter/t/{number % 40}", b"x" * 64, retain=number % 5 == 0)
            number += 1
            if number % 50 == 0:
                done.wait(0.001)
        client.loop_stop()
        client.disconnect()

    def churner(index: int) -> None:
        for round_number in range(ROUNDS):
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"tablet-{index}-{round_number}")
            came = threading.Event()
            client.on_connect = lambda *_args, came=came: came.set()
            client.connect("127.0.0.1", broker.port)
            client.loop_start()
            if came.wait(10):
                connected.append(client._client_id)
            for topic in range(8):
                client.subscribe(f"arbiter/t/{(topic * 7 + index) % 40}", qos=1)
                client.subscribe(f"arbiter/{index}/{round_number}/{topic}/#")
            client.loop_stop()
            client.disconnect()

    sending = threading.Thread(target=publisher)
    sending.start()
    workers = [threading.Thread(target=churner, args=(index,)) for index in range(CLIENTS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    done.set()
    sending.join()
    broker.stop()
    assert "dictionary changed size" not in caplog.text
    assert len(connected) == CLIENTS * ROUNDS
