"""Fixtures shared by the suite: a real mosquitto broker, and the embedded broker, on free ports.

Under CI=true a test skipped for a missing system package fails instead (tests/system_packages.py).
"""

from __future__ import annotations

import os

import pytest

from firmware_bridge.referee.broker import MOSQUITTO, EmbeddedBroker, Mosquitto, free_port
from tests.system_packages import pytest_runtest_makereport, skip_without  # noqa: F401 (a hook)


@pytest.fixture
def mosquitto():
    """A fresh anonymous mosquitto on 127.0.0.1:<free port>, stopped after the test."""
    skip_without("mosquitto", os.access(MOSQUITTO, os.X_OK), "the real MQTT broker the tests start")
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
