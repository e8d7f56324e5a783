"""Fixtures shared by the suite: a real mosquitto broker, and the embedded broker, on free ports."""

from __future__ import annotations

import os

import pytest

from firmware_bridge.referee.broker import MOSQUITTO, EmbeddedBroker, Mosquitto, free_port


@pytest.fixture
def mosquitto():
    """A fresh anonymous mosquitto on 127.0.0.1:<free port>, stopped after the test."""
    if not os.access(MOSQUITTO, os.X_OK):
        pytest.skip("mosquitto is not installed")
    broker = Mosquitto().start()
    yield broker
    broker.cleanup()


@pytest.fixture
def embedded():
    """The embedded amqtt broker `make run` and families use (anonymous), on a free port."""
    broker = EmbeddedBroker("127.0.0.1", free_port())
    broker.start()
    yield broker
    broker.stop()
